"""The per-record step chain that runs inside each worker, assembled from the registry.

Order: Decode -> Parse -> [tree filters before the cleaner: hints] -> [tree cleaner] ->
[tree filters after it: Kitten] -> TagRemoval -> [lines cleaner: sitediff] ->
[lines filters: links, Kitten punctuation, pruning].

Text-only documents (WET ``conversion`` records, :mod:`preprocess.steps.text`) take
their own short chain: TextInput -> [pruning].
"""
from __future__ import annotations

from preprocess.core.document import Document
from preprocess.core.artefacts import Learned
from preprocess.config.options import CleanOptions
from preprocess.config.registry import FILTERS, LINES, TREE, cleaner, step_class
from preprocess.core.stats import Stats
from preprocess.steps.base import BuildContext, Chain, Step
from preprocess.steps.decode import Decode
from preprocess.steps import stream
from preprocess.steps.parse import Parse
from preprocess.steps.tags import TagRemoval
from preprocess.steps.text import TextInput, is_text_only


def _cleaner_step(name: str, ctx: BuildContext) -> Step | None:
    """The cleaner's step with its fallback built first (a lines-stage cleaner's fallback writes the page again)."""
    entry = cleaner(name)
    if entry.step is None:
        return None
    fallback = None
    if entry.fallback:
        first = _cleaner_step(entry.fallback, ctx)
        rewrite = [TagRemoval.build(ctx)] if entry.stage == LINES else []
        fallback = Chain([s for s in [first, *rewrite] if s is not None])
    cls = step_class(entry.step)
    return cls.build(BuildContext(ctx.opts, ctx.learned, fallback, _used(cls, ctx.steps)))


def _used(cls, built: dict) -> dict:
    """The earlier steps ``cls`` declared in ``uses`` that this run has."""
    return {n: built[n] for n in getattr(cls, "uses", ()) if n in built}


def _plan(opts: CleanOptions, stop_before: str | None = None) -> list[tuple[str, object]]:
    """(registry name, what builds it) of every page step, in order; with ``stop_before`` only those before it."""
    entry = cleaner(opts.cleaner)
    on = [f for f in FILTERS if f.enabled(opts, entry)]
    plan: list[tuple[str, object]] = [("decode", Decode), ("parse", Parse)]
    plan += [(f.name, f.step) for f in on if f.stage == TREE and f.before_cleaner]
    if entry.step is not None and entry.stage == TREE:
        plan.append((entry.name, entry))
    plan += [(f.name, f.step) for f in on if f.stage == TREE and not f.before_cleaner]
    plan.append(("tags", TagRemoval))
    if entry.step is not None and entry.stage == LINES:
        plan.append((entry.name, entry))
    plan += [(f.name, f.step) for f in on if f.stage == LINES]
    names = [name for name, _ in plan]
    return plan[:names.index(stop_before)] if stop_before in names else plan


def summaries(opts: CleanOptions, counts: dict, learned: dict) -> dict:
    """Every step's :meth:`Step.summary` of a finished run with ``opts``, merged (the driver's stats.json)."""
    out: dict = {}
    entry = cleaner(opts.cleaner)
    for _, what in _plan(opts):
        cls = step_class(entry.step) if what is entry else step_class(what) if isinstance(what, str) else what
        summary = getattr(cls, "summary", None)
        if summary is not None:
            out |= summary(opts, counts, learned)
    return out


def build_steps(opts: CleanOptions, learned: Learned | None = None, stop_before: str | None = None) -> list[Step]:
    """Every step of a run with ``opts``; with ``stop_before`` (a registry name) only those before it
    (``"prune"``: what calibration scores; ``"sitediff"``: what site references are made of)."""
    opts = opts.check()
    learned = learned or Learned()
    entry = cleaner(opts.cleaner)
    steps, built = [], {}  # built: by registry name, for the steps after them that declare ``uses``
    for name, what in _plan(opts, stop_before):
        if what is entry:
            step = _cleaner_step(entry.name, BuildContext(opts, learned, steps=dict(built)))
        else:
            cls = step_class(what) if isinstance(what, str) else what
            step = cls.build(BuildContext(opts, learned, steps=_used(cls, built)))
        steps.append(step)
        built.setdefault(name, step)
    names, whole = [s.name for s in steps], [name for name, _ in _plan(opts)]
    if stream.ON and names[:3] == whole[:3] == ["decode", "parse", "tags"] and not steps[2].line_features \
            and set(whole[3:]) <= {"prune"}:  # the whole run's plan: a partial one (sitediff's references) agrees
        steps[1].stream = True  # nothing but tag removal reads the page: it streams it (steps.stream)
    for before, after in zip(steps, steps[1:]):  # declared hand-offs (Step.provides/accepts): adjacent steps only
        if set(before.provides) & set(after.accepts):
            before.hand_to(after)
    _defer_parse(steps, names)
    return steps


def _defer_parse(steps: list[Step], names: list[str]) -> None:
    """Where ``cleaners.learned.raw.ON`` (its compiled twin built; ``WEBPRUNE_RAW_READER=0`` turns it off) the
    learned cleaner reads pages off their markup and the parse step leaves them to it, when only a deferred hint
    step lies between and tag removal takes its lines: the same output as off lexbor's tree, without it."""
    from preprocess.cleaners.learned import raw

    if not raw.ON or "parse" not in names or "learned" not in names:
        return
    i, j = names.index("parse"), names.index("learned")
    if i < j and steps[j].hand_off and all(s.name == "hints" and s.deferred for s in steps[i + 1:j]):
        steps[i].defer, steps[j].parse = True, steps[i]


TEXT_FILTERS = ("prune",)  # the filters that need no DOM and no line features


def build_text_steps(opts: CleanOptions, learned: Learned | None = None, stop_before: str | None = None,
                     built: list[Step] = ()) -> list[Step]:
    """The steps of text-only documents: TextInput, then the DOM-free filters (pruning). A filter already in
    ``built`` (the page steps of the same options) is shared, so its model loads once."""
    ctx = BuildContext(opts.check(), learned or Learned())
    entry = cleaner(opts.cleaner)
    before = {name for name, _ in _plan(opts, stop_before)}  # a filter the page steps stop before is left out too
    on = [f for f in FILTERS if f.name in TEXT_FILTERS and f.enabled(opts, entry) and f.name in before]
    have = {s.name: s for s in built}
    return [TextInput.build(ctx)] + [have.get(f.name) or step_class(f.step).build(ctx) for f in on]


def run_steps(steps: list[Step], docs: list[Document]) -> list[Document]:
    """Documents through steps, without timing (scripts, tests); drops land in each step's stats."""
    for step in steps:
        docs = list(step.run(docs))
    return docs


class Pipeline:
    """Builds its steps once (models load here, never per document) and runs batches through them."""

    def __init__(self, opts: CleanOptions, learned: Learned | None = None, stop_before: str | None = None):
        self.opts = opts
        self.steps = build_steps(opts, learned, stop_before)
        self.text_steps = build_text_steps(opts, learned, stop_before, built=self.steps)

    def reset(self) -> None:
        """Forget per-host state (sitediff's references): batches after this are judged on their own."""
        for step in self.steps:
            step.reset()

    def run(self, docs: list[Document], stats: Stats) -> list[Document]:
        """Cleaned documents of a batch; every drop and each step's time go to ``stats``."""
        stats.update("bytes_in", sum(len(d.raw or b"") for d in docs))
        text = [d for d in docs if is_text_only(d)]
        if text:  # WET records: no DOM; merged back in input order
            order = {id(d): i for i, d in enumerate(docs)}
            docs = [d for d in docs if not is_text_only(d)]
            done = self._run(self.text_steps, text, stats) + (self._run(self.steps, docs, stats) if docs else [])
            return sorted(done, key=lambda d: order[id(d)])
        return self._run(self.steps, docs, stats)

    @staticmethod
    def _run(steps: list[Step], docs: list[Document], stats: Stats) -> list[Document]:
        for step in steps:
            step.stats = stats
            with stats.timer(step.name):
                docs = list(step.run(docs))
        return docs

    def process(self, docs: list[Document]) -> tuple[list[dict], Stats]:
        """JSON lines of a batch and its stats."""
        stats = Stats()
        out = [d.to_json() for d in self.run(docs, stats)]
        stats.update("bytes_out", sum(len(o["contents"].encode("utf-8")) for o in out))
        return out, stats
