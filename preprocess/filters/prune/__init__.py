"""Sentence pruning (``--prune-model``): drop the sentences a model scores as unlikely or boilerplate-like.

One module per scorer -- :mod:`.perplexity` (a KenLM model file) and :mod:`.contrastive` (a
contrastive model directory, ``webprune lm train-crawl``) -- on the shared sentence loop of
:mod:`.common` (its per-sentence loops compiled in ``preprocess/core/_decide.pyx``); :mod:`.options` checks the parameters (declared in the registry). :class:`Prune`
is what the registry names: it picks the scorer for the model's kind, and reports the run's
``pruning`` summary (threshold, calibration, deciles) through the step summary hook. The
scorers are imported only when a pipeline or a summary needs them.
"""
from __future__ import annotations

from preprocess.filters.prune.options import is_contrastive


def scorer_class(opts):
    """The pruning step class for the kind of model ``opts.prune_model`` names."""
    if is_contrastive(opts):
        from preprocess.filters.prune.contrastive import ContrastivePrune

        return ContrastivePrune
    from preprocess.filters.prune.perplexity import PerplexityPrune

    return PerplexityPrune


class Prune:
    """The registry's pruning entry: builds the scorer's step and gives its run summary."""

    @staticmethod
    def build(ctx):
        return scorer_class(ctx.opts).build(ctx)

    @staticmethod
    def summary(opts, counts: dict, learned: dict) -> dict:
        return scorer_class(opts).summary(opts, counts, learned)


def scoring_pruner(opts):
    """A pruner of ``opts``' model that drops nothing: what calibration scores sentences with."""
    return scorer_class(opts)(opts.prune_model, float("inf"), opts.prune_score)
