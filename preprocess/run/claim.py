"""Taking an output folder for a run: whose files are there, what this run writes, what it may delete.

* A new or empty folder becomes webprune's; a folder with webprune's record of its
  files (:mod:`preprocess.folder.owned`) is reused (resumed); any other non-empty folder is
  refused unless ``overwrite``: then webprune writes its files beside the ones there.
* Every name the run will write is listed before anything is written. One that exists
  and is not webprune's (``units/00000.json`` of the user's) refuses the run.
* Only listed files are ever replaced or deleted: leftovers of an interrupted run
  (``<name>.wp-*.tmp``), units no longer planned, and with ``overwrite`` an earlier
  run made with other settings.

:func:`prepare` runs twice: read-only before Ray starts (a refusal costs nothing and
writes nothing), then for real under the folder's lock.
"""
from __future__ import annotations

import logging

import pyarrow.fs as pafs

from preprocess.folder.lock import LOCK
from preprocess.folder.output import OutputDir
from preprocess.folder.owned import RECORD, NotOurs, OwnedFiles, foreign
from preprocess.config.registry import learning_passes, step_class
from preprocess.run.units import Job, WorkUnit, code_id

log = logging.getLogger("webprune.preprocess")
KIND = "preprocess"
DRIVER_FILES = ("run.json", "manifest.json", "stats.json")


class OutputInUse(NotOurs):
    """The output folder holds a run made with other options or code."""


def unit_files(units: list[WorkUnit], job: Job, markers: bool = False) -> list[str]:
    """The files the units of this plan write (markers: their attempt markers, known once learning is done)."""
    names = []
    for u in units:
        names += [f"collection/{u.shard}", f"units/{u.entry}", f"ids/{u.index:05d}.bin"]
        if job.outcomes:
            names.append(f"outcomes/{u.index:05d}.tsv.gz")
        if markers:
            names.append(f"work/{u.key}.json")
    return names


def planned_files(units: list[WorkUnit], job: Job, passes: tuple[str, ...] = ()) -> list[str]:
    learned = [f"learned/{step_class(ref).name}.json" for ref in (*passes, *learning_passes(job.opts))]
    return [*DRIVER_FILES, *learned, *unit_files(units, job)]


def _others(out: OutputDir) -> list[str]:
    """What a folder without webprune's record holds, but for a stale lock of webprune's."""
    return [n for n in out.listdir() if n != LOCK and not n.startswith((LOCK + ".", RECORD + "."))]


def _not_ours_message(out: OutputDir, others: list[str]) -> str:
    old = out.read_json("run.json") if "run.json" in others else None
    if isinstance(old, dict) and {"options", "code"} <= set(old):
        return (f"{out.uri} holds the output of an earlier webprune version, which did not record its files; "
                "choose another --output (or delete that folder yourself)")
    shown = ", ".join(others[:3]) + (" ..." if len(others) > 3 else "")
    return (f"{out.uri} is not empty ({shown}) and is not a webprune output; choose a new or empty --output, or "
            "add --overwrite to write webprune's files beside the ones there (none of them is changed or deleted)")


def claim(out: OutputDir, overwrite: bool, kind: str = KIND) -> OwnedFiles | None:
    """The folder's record of webprune's files (None: a new or empty folder, or others' with ``overwrite``);
    NotOurs when the folder is someone else's."""
    info = out.fs.get_file_info(out.root)
    if info.type == pafs.FileType.File:
        raise NotOurs(f"{out.uri} is a file; give a folder as the output")
    if info.type == pafs.FileType.NotFound:
        return None
    owned = OwnedFiles.load(out.fs, out.root, out.uri)
    if owned is not None:
        if owned.kind != kind:
            raise NotOurs(f"{out.uri} is the output of webprune {owned.kind}, not of {kind}; choose another folder")
        return owned
    others = _others(out)
    if others and not overwrite:
        raise NotOurs(_not_ours_message(out, others))
    return None


def _check_record(out: OutputDir, owned: OwnedFiles | None, job: Job, overwrite: bool) -> tuple[dict, bool]:
    """Our run record, and whether the folder holds a run made with other options or code (refused unless
    ``overwrite``: then its files go)."""
    record = {"options": job.opts.to_dict(), "compress": job.compress, "code": code_id()}
    old = out.read_json("run.json") if owned is not None and owned.owns("run.json") else None
    if old is None or {k: old.get(k) for k in record} == record:
        return record, False
    if not overwrite:
        changed = sorted(k for k in record["options"] if (old.get("options") or {}).get(k) != record["options"][k])
        what = ", ".join(changed) or ("the cleaning code" if old.get("code") != record["code"] else "compression")
        raise OutputInUse(f"{out.uri} holds a run made with other settings ({what}); choose another --output, "
                          "or add --overwrite to replace webprune's files there (nothing else is deleted)")
    return record, True


def prepare(out: OutputDir, job: Job, units: list[WorkUnit], overwrite: bool, apply: bool,
            passes: tuple[str, ...] = ()) -> None:
    """Check (and with ``apply``, under the lock, take) the folder for this run; nothing is written unless
    ``apply``, and then only after every check passed."""
    owned = claim(out, overwrite)
    existing = out.files() if out.fs.get_file_info(out.root).type == pafs.FileType.Directory else set()
    record, replace = _check_record(out, owned, job, overwrite)
    names = planned_files(units, job, passes)
    for n in names:
        if n in existing and (owned is None or not owned.owns(n)):
            raise foreign(out.uri, n)
    if not apply:
        return
    if owned is None:
        if _others(out):
            log.warning("--overwrite: writing into %s beside files webprune did not write (kept as they are)",
                        out.uri)
        owned = OwnedFiles.create(out.fs, out.root, out.uri, KIND)
    out.owned = owned
    if replace:
        log.warning("--overwrite: removing the earlier run's shards, entries and artefacts from %s", out.uri)
        out.delete_own()
    out.remove_temporary(existing)
    owned.claim(names, out.files())
    out.delete_owned([n for n in ("stats.json", "manifest.json") if n in existing])  # written again at its end:
    # until then the folder is an unfinished run (what index checks)
    others = sorted(n for n in existing if n.startswith("collection/") and n.endswith((".json", ".jsonl", ".gz"))
                    and not owned.owns(n) and not owned.owns_temporary(n))
    if others:
        log.warning("%s/collection holds %d file(s) webprune did not write (%s); they are kept, and an index of "
                    "that folder reads them too", out.uri, len(others), ", ".join(others[:3]))
    for folder in ("collection", "units", "work", "learned", "ids"):
        out.mkdirs(folder)
    out.write_json(record, "run.json")


def remove_stale(out: OutputDir, units: list[WorkUnit], job: Job) -> None:
    """Shards, entries, outcomes and markers webprune wrote for units no longer planned (another input list,
    other keys) go; list this plan's markers. Files webprune did not write stay."""
    markers = unit_files(units, job, markers=True)
    out.owned.claim(markers, out.files())
    keep = set(markers)
    stale = [n for n in out.owned.names if n.split("/", 1)[0] in ("collection", "units", "outcomes", "work", "ids")
             and n not in keep]
    if stale:
        log.info("removing %d file(s) of units no longer planned from %s", len(stale), out.uri)
    out.delete_owned(stale)
