"""What an experiment owns in its OUTPUT folder: the names it writes, the check before it writes, ``fresh``.

OUTPUT/.webprune-files.jsonl (:mod:`preprocess.folder.owned`) lists what the experiment writes
before it is written; the folders it creates (a collection, an index) are
listed whole; plots the report adds beyond the known ones are listed after it. OUTPUT must be new, empty, or an experiment folder of webprune's; a name
the experiment would write that exists unlisted refuses the run; ``fresh`` deletes
only what the list names (a collection folder as its own preprocess run listed it).
"""
from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pyarrow.fs as pafs

from eval.report import PLOTS
from preprocess.run.claim import claim
from preprocess.folder.lock import LOCK
from preprocess.folder.output import OutputDir
from preprocess.folder.owned import RECORD, OwnedFiles, foreign

log = logging.getLogger("webprune.experiment")
KIND = "experiment"
ENERGY_FILE = "webprune-energy.json"


def output_files(exp, steps, out: Path) -> list[str]:
    """What the experiment writes in OUTPUT (folders it creates, listed whole, end in ``/``)."""
    names = ["results.md", "results.json", "report.md", "report.html", "load-queries.tsv", "cleaning.json",
             *(f"{PLOTS}/{p}.png" for p in ("index_size", "metric_vs_threshold", "per_topic", "throughput"))]
    for s in steps:
        run = s.run.relative_to(out).as_posix()
        names += [s.collection.relative_to(out).as_posix() + "/", s.index.relative_to(out).as_posix() + "/",
                  run, run + ".stats.json"]
    return list(dict.fromkeys(names))


def check_output(out: OutputDir, names: list[str]) -> None:
    """Check OUTPUT for this experiment: new, empty or webprune's, and nothing unlisted where it writes."""
    owned = claim(out, overwrite=False, kind=KIND)
    if owned is None and any(n for n in out.listdir() if not n.startswith(".webprune")):
        raise ValueError(f"{out.uri} is not empty and is not a webprune experiment folder; choose a new or empty "
                         "--output")
    for n in names:
        there = out.fs.get_file_info(out.path(n.rstrip("/"))).type != pafs.FileType.NotFound
        if there and (owned is None or not owned.owns(n)):
            raise foreign(out.uri, n.rstrip("/"))


def _remove_collection(path: Path) -> None:
    """A collection folder of the experiment's: the files its preprocess run listed, and the experiment's own
    (options, energy); files someone else put there stay (and then the folder, with its emptied list)."""
    folder = OutputDir(str(path))
    folder.owned = OwnedFiles.load(folder.fs, folder.root, folder.uri)
    folder.delete_own()
    for name in ("options.json", ENERGY_FILE, LOCK):
        (path / name).unlink(missing_ok=True)
    others = [p for p in path.rglob("*") if not p.is_dir() and p.name != RECORD]
    if not others:  # nothing of anyone else's: the folder goes
        shutil.rmtree(path)


def remove_owned(out: OutputDir, owned: OwnedFiles) -> None:
    """``fresh``: what webprune listed goes (an index whole, a collection as its preprocess run listed it)."""
    log.info("--fresh: removing the experiment's own files from %s", out.uri)
    for n in sorted(owned.names):
        path = Path(out.path(n.rstrip("/")))
        if n.endswith("/") and path.is_dir() and not path.is_symlink():
            _remove_collection(path) if n.startswith("collections/") else shutil.rmtree(path)
        elif path.is_file() or path.is_symlink():
            path.unlink()
    owned.discard([n for n in owned.names if not Path(out.path(n.rstrip("/"))).exists()])


def take_output(out: OutputDir, names: list[str], fresh: bool) -> OwnedFiles:
    """Under the lock: check again, make or load the list, with ``fresh`` remove what it names; list ``names``."""
    check_output(out, names)
    owned = claim(out, overwrite=False, kind=KIND) or OwnedFiles.create(out.fs, out.root, out.uri, KIND)
    if fresh:
        remove_owned(out, owned)
    owned.claim(names)
    return owned


def list_new_plots(out: OutputDir, owned: OwnedFiles, before: set[str]) -> None:
    """Plots the report wrote beyond the known names (files that were not there before it)."""
    owned.add(sorted(n for n in out.files() - before if n.startswith(PLOTS + "/")))
