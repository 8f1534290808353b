"""The checks of the pruning filter's parameters (declared in the registry), without loading a model.

Which kind of model ``prune_model`` names (a contrastive model directory with its card, or a KenLM
file) decides which thresholds make sense; :func:`is_contrastive` reads that off the disk, here and
nowhere in the shared options.
"""
from __future__ import annotations

from pathlib import Path

from preprocess.config.registry import PRUNE_SCORES as SCORES  # noqa: F401 (declared with the parameter)

PENDING_CONTRASTIVE = "<contrastive:"  # a config's contrastive model before it is trained: ``<contrastive:NAME>``


def is_contrastive(opts) -> bool:
    """Whether ``opts.prune_model`` is a contrastive model (a directory with a card, or one a config will learn)."""
    from preprocess.lm.contrastive import is_contrastive as model_is_contrastive

    return str(opts.prune_model).startswith(PENDING_CONTRASTIVE) or model_is_contrastive(opts.prune_model)


def line_features(opts) -> bool:
    """Whether the pruner reads each line's link density (the perplexity score "adjusted")."""
    return bool(opts.prune_model) and opts.prune_score == "adjusted" and not is_contrastive(opts)


def check(opts) -> None:
    """ValueError, saying what to do, for pruning options that cannot run together."""
    thresholds = sum(x is not None for x in (opts.max_perplexity, opts.prune_threshold, opts.prune_percentile))
    contrastive = bool(opts.prune_model) and is_contrastive(opts)
    if opts.prune_model and contrastive:
        if opts.max_perplexity is not None:
            raise ValueError("a contrastive model has no perplexity: use --prune-threshold X (bits per token) "
                             "or --prune-percentile P")
        if thresholds > 1:
            raise ValueError("give at most one of --prune-threshold X or --prune-percentile P")
    elif opts.prune_model:
        if Path(opts.prune_model).is_dir():
            raise ValueError(f"{opts.prune_model} is a folder without contrastive.json: not a model (train one "
                             "with `webprune lm train-crawl`, or give a KenLM model file)")
        if opts.prune_score == "contrastive":
            raise ValueError("--prune-score contrastive needs a contrastive model (webprune lm train-crawl)")
        if thresholds != 1:
            raise ValueError("with --prune-model give one of --max-perplexity N or --prune-percentile P "
                             "(--prune-threshold N: the same as --max-perplexity for a plain model)")
    if opts.prune_model:
        if opts.prune_score == "adjusted" and opts.prune_percentile is None and not contrastive:
            raise ValueError("--prune-score adjusted has no perplexity scale: use --prune-percentile P")
        if opts.prune_percentile is not None and not 0 < opts.prune_percentile < 100:
            raise ValueError("--prune-percentile must be between 0 and 100 (the share of sentences to drop)")
        if opts.prune_sample_docs < 1:
            raise ValueError("--prune-sample-docs must be at least 1")
    elif thresholds:
        raise ValueError("--max-perplexity/--prune-threshold/--prune-percentile need --prune-model MODEL")
    if opts.max_perplexity is not None and opts.max_perplexity <= 1:
        raise ValueError(f"--max-perplexity {opts.max_perplexity:g} would drop every sentence (a perplexity is at "
                         "least 1): give a value > 1, e.g. 1000")


def check_files(opts) -> None:
    """The model named exists and loads (on the driver, before any worker starts): one line now rather than a
    traceback from every worker."""
    if not opts.prune_model:
        return
    if "://" in opts.prune_model:
        raise ValueError(f"--prune-model {opts.prune_model}: give a local path (every node reads it), not a URI")
    if not Path(opts.prune_model).exists():
        raise ValueError(f"no model at {opts.prune_model}: train one with `webprune lm train` (or "
                         "`webprune lm train-crawl`), or give its path")
    from preprocess.lm.contrastive import BOILER, CONTENT, check_model, pair_dirs, read_card
    from preprocess.lm.score import check_kenlm

    if check_model(opts.prune_model) == "contrastive":
        for d in pair_dirs(read_card(opts.prune_model)).values():  # every language's pair
            for side in (CONTENT, BOILER):
                check_kenlm(Path(opts.prune_model) / d / side, "train the model again with `webprune lm train-crawl`")
    else:
        check_kenlm(opts.prune_model)
