"""The typed contract between the driver and its workers: a run's job, its work units, their results.

One input file is one :class:`WorkUnit`. The driver plans units and merges
:class:`UnitResult`s; the worker that runs a unit reads its file, cleans it and
writes its shard (:mod:`preprocess.run.worker`). A unit's key hashes everything its
shard depends on -- the options, the cleaning code, the learned artefacts and the
input file's identity -- so a resumed or retried unit is recognised, and redone
only when something changed.
"""
from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from preprocess.config.options import CleanOptions, model_paths
from preprocess.folder.output import shard_name
from preprocess.readers.sources import Source


def digest(*parts) -> str:
    return hashlib.sha1(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


_SOURCES = ("py", "json", "pyx", "pxi")  # .json: the learned cleaner's model; .pyx/.pxi: its compiled twins


def code_id() -> str:
    """A hash of the cleaning code: the preprocess package's source and every module outside it that the
    registry loads (plugins, with the modules of their own package they import), so an edited cleaner, in
    the package or a plugin, never reuses a stale shard."""
    from preprocess.config.registry import component_modules

    return _code_id(tuple(sorted(component_modules())))


@functools.lru_cache(maxsize=8)
def _code_id(modules: tuple[str, ...]) -> str:
    root = Path(__file__).resolve().parent
    h = hashlib.sha1()
    for f in _sources(root):
        h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes())
    for folder in sorted(_outside(modules, root)):
        for f in [folder] if folder.is_file() else _sources(folder):
            h.update(f.as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:12]


def _sources(folder: Path) -> list[Path]:
    return sorted(p for ext in _SOURCES for p in folder.rglob(f"*.{ext}") if "__pycache__" not in p.parts)


def _outside(modules: tuple[str, ...], root: Path) -> set[Path]:
    """What is hashed for the modules outside ``root``: the folder of a module inside a package (its helpers
    beside it), the file of a top-level module. Read from disk, never from what happens to be imported, so the
    driver and a resumed run agree."""
    import importlib.util

    out = set()
    for name in modules:
        try:
            spec = importlib.util.find_spec(name)
        except ModuleNotFoundError:  # its package is missing
            spec = None
        if spec is None or spec.origin is None:
            raise ValueError(f"the registry names a module {name!r} that cannot be found: fix the entry, or "
                             "WEBPRUNE_PLUGINS")
        origin = Path(spec.origin).resolve()
        if root not in origin.parents:
            out.add(origin.parent if "." in name or spec.submodule_search_locations else origin)
    return out


def model_files(opts: CleanOptions) -> list:
    """Size and modification time of each model file the options name (their ``path=True`` fields: a KenLM
    model, a contrastive model's folder, a block model): a model retrained at the same path is new output,
    never a reused shard."""
    out = []
    for path in model_paths(opts):
        p = Path(path) if path else None
        if p is not None and p.is_dir():
            files = [(f.relative_to(p).as_posix(), f.stat()) for f in sorted(p.rglob("*")) if f.is_file()]
        else:
            files = [(p.name, p.stat())] if p is not None and p.exists() else []
        out.append([[name, st.st_size, st.st_mtime_ns] for name, st in files])
    return out


@dataclass(frozen=True)
class Job:
    """What every unit of a run shares; small, sent with each task."""

    opts: CleanOptions
    output: str                   # OUT, a path or URI every worker can reach
    compress: bool = True
    batch_size: int = 64
    learned: dict = field(default_factory=dict)  # learning pass name -> artefact digest (OUT/learned/<name>.json)
    page_timeout: float = 60.0    # seconds one page (one batch, until a crash narrows it) may take
    outcomes: bool = False        # write each record's outcome to OUT/outcomes/
    run: str = ""                 # this run's id: attempt markers of other runs are cancelled ones (guard.py)

    @property
    def key(self) -> str:
        return digest(self.opts.to_dict(), model_files(self.opts), code_id(), self.learned)[:16]


@dataclass(frozen=True)
class WorkUnit:
    index: int
    source: Source
    key: str
    shard: str

    @property
    def entry(self) -> str:
        return f"{self.index:05d}.json"


def plan(sources: list[Source], job: Job) -> list[WorkUnit]:
    key = job.key  # once: it stats the model files
    return [WorkUnit(i, src, digest(key, job.compress, job.outcomes, src.identity, i)[:16],
                     shard_name(i, src.name, job.compress))
            for i, src in enumerate(sources)]


@dataclass
class UnitResult:
    index: int
    key: str
    shard: str | None
    documents: int
    shard_bytes: int
    stats: dict                   # Stats.to_state(): counts, times, examples
    node: str = ""                # where it ran (a Ray node id)
    peak_rss_mb: float = 0.0      # the worker process's peak memory when the unit ended
    pid: int = 0                  # the worker process (recycled workers show new ones)
    reused: bool = False          # finished by an earlier run (resume)
    error: str | None = None      # the unit failed on every retry
    ids: list | None = None       # byte offsets of the parts of its ids' table (preprocess.run.duplicates)
    dropped: str = ""             # the set of copies it dropped because other units keep them ('' none)
    shard_sha1: str = ""          # the shard's bytes (index checks the collection against them)

    def entry(self) -> dict:
        return {"key": self.key, "index": self.index, "shard": self.shard, "documents": self.documents,
                "shard_bytes": self.shard_bytes, "shard_sha1": self.shard_sha1, "node": self.node, "pid": self.pid,
                "peak_rss_mb": self.peak_rss_mb, "ids": self.ids, "dropped": self.dropped,
                "stats": self.stats}
