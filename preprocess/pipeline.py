"""The per-record step chain that runs inside each worker."""
from __future__ import annotations

from dataclasses import dataclass, field

from preprocess.document import Document
from preprocess.stats import Stats
from preprocess.steps.base import Step
from preprocess.steps.decode import Decode
from preprocess.steps.parse import Parse
from preprocess.steps.tags import TagRemoval

CLEANERS = ("tags", "density", "blog", "sitediff", "feeds")  # each DOM cleaner prunes the tree; tag removal always writes the text
HOST_GROUPED = ("sitediff",)  # cleaners that need the pages of a host together (the driver groups them)


@dataclass
class CleanOptions:
    """Everything a worker needs to build its steps (sent once, at actor start)."""

    cleaner: str = "tags"
    max_bytes: int = 16 << 20
    prune_model: str | None = None        # KenLM model: enables perplexity pruning
    max_perplexity: float | None = None   # drop sentences above this perplexity ...
    prune_percentile: float | None = None  # ... or the worst P% of sentences, calibrated on a sample
    prune_sample_docs: int = 1000          # documents in that sample
    prune_score: str = "perplexity"        # or "adjusted": + sentence length and the line's link density
    prune_threshold: float | None = None   # what the pruner compares with: max_perplexity, or calibrated
    max_link_density: float | None = None  # drop written blocks with more of their characters in links
    kitten: bool | None = None             # Kitten normalisation; None: the cleaner's default
    drop_hinted: bool = False              # drop elements whose class/id names comments, sidebars, menus, ...
    extra: dict = field(default_factory=dict)  # room for later steps' options

    def check(self) -> "CleanOptions":
        if self.cleaner not in CLEANERS:
            raise ValueError(f"unknown cleaner {self.cleaner!r}; choose one of {', '.join(CLEANERS)}")
        if self.max_link_density is not None and not 0 <= self.max_link_density <= 1:
            raise ValueError("--max-link-density is a share of a block's characters: give a value in [0, 1], e.g. 0.5")
        if self.prune_model:
            if self.max_perplexity is None and self.prune_percentile is None:
                raise ValueError("with --prune-model give --max-perplexity N or --prune-percentile P")
            from preprocess.steps.prune import SCORES

            if self.prune_score not in SCORES:
                raise ValueError(f"--prune-score must be one of {', '.join(SCORES)}, not {self.prune_score!r}")
            if self.prune_score == "adjusted" and self.prune_percentile is None:
                raise ValueError("--prune-score adjusted has no perplexity scale: use --prune-percentile P")
            if self.prune_percentile is not None and not 0 < self.prune_percentile < 100:
                raise ValueError("--prune-percentile must be between 0 and 100 (the share of sentences to drop)")
        elif self.max_perplexity is not None or self.prune_percentile is not None:
            raise ValueError("--max-perplexity/--prune-percentile need --prune-model MODEL")
        return self


def cleaning_steps(opts: CleanOptions) -> list[Step]:
    """Decode, parse and clean: everything before pruning."""
    line_features = (bool(opts.prune_model) and opts.prune_score == "adjusted") or opts.max_link_density is not None
    steps: list[Step] = [Decode(max_bytes=opts.max_bytes), Parse()]
    if opts.drop_hinted:
        from preprocess.steps.hints import HintFilter

        steps.append(HintFilter())
    if opts.cleaner == "density":
        from preprocess.cleaners.density import DensityCleaner

        steps.append(DensityCleaner())
    elif opts.cleaner == "blog":
        from preprocess.cleaners.blog import BlogCleaner

        steps.append(BlogCleaner())
    elif opts.cleaner == "feeds":  # templates learned from the input's feeds (preprocess.learn) come in extra
        from preprocess.cleaners.feeds import FeedsCleaner

        steps.append(FeedsCleaner(opts.extra.get("feed_templates", {})))
    kitten = opts.kitten if opts.kitten is not None else opts.cleaner != "tags"  # tags stays the plain baseline
    if kitten:
        from preprocess.cleaners.kitten import KittenNormalise

        steps.append(KittenNormalise())
    steps.append(TagRemoval(line_features=line_features))
    if opts.cleaner == "sitediff":  # compares the written blocks of a host's pages, after tag removal
        from preprocess.cleaners.sitediff import SiteDiffCleaner

        steps.append(SiteDiffCleaner(line_features=line_features))
    if opts.max_link_density is not None:
        from preprocess.steps.links import LinkDensityFilter

        steps.append(LinkDensityFilter(opts.max_link_density))
    if kitten:
        from preprocess.cleaners.kitten import KittenPunctuate

        steps.append(KittenPunctuate())
    return steps


def run_steps(steps: list[Step], docs: list[Document]) -> list[Document]:
    """Documents through steps, without timing (scripts, calibration); drops land in each step's stats."""
    for step in steps:
        docs = list(step.run(docs))
    return docs


def build_steps(opts: CleanOptions) -> list[Step]:
    steps = cleaning_steps(opts.check())
    if opts.prune_model:
        threshold = opts.prune_threshold if opts.prune_threshold is not None else opts.max_perplexity
        if threshold is None:
            raise ValueError("percentile pruning needs a threshold: calibrate it first (preprocess.calibrate)")
        from preprocess.steps.prune import PerplexityPrune

        steps.append(PerplexityPrune(opts.prune_model, threshold, opts.prune_score))
    return steps


class Pipeline:
    """Builds its steps once (models load here, never per document) and runs batches through them."""

    def __init__(self, opts: CleanOptions):
        self.steps = build_steps(opts)

    def reset(self) -> None:
        """Forget per-host state (sitediff's references): batches after this are judged on their own."""
        for step in self.steps:
            step.reset()

    def process(self, docs: list[Document]) -> tuple[list[dict], Stats]:
        stats = Stats()
        stats.update("bytes_in", sum(len(d.raw or b"") for d in docs))
        for step in self.steps:
            step.stats = stats
            with stats.timer(step.name):
                docs = list(step.run(docs))
        out = [d.to_json() for d in docs]
        stats.update("bytes_out", sum(len(o["contents"].encode("utf-8")) for o in out))
        return out, stats
