"""What a preprocess output promises its index: every shard its manifest names, whole, and nothing besides.

``webprune preprocess`` writes ``manifest.json`` (each shard's documents, bytes and SHA-1) and ``stats.json``
(``written``) last, so a folder without them is a run that has not finished. Before anything is indexed,
:meth:`Promise.unmet` names what differs: a run still going or not finished (units done of those planned), a
shard missing, of another size or other bytes, a file in ``collection/`` the manifest does not name (Anserini
would read it), documents per shard other than the manifest's, a manifest whose documents are not the
``written`` of stats.json. ``webprune index`` refuses such a collection (``--partial`` indexes it, with the
differences named in its summary), and records ``written = indexed`` once it holds.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Promise:
    folder: Path
    written: int | None            # stats.json's written (None: the run has not finished)
    shards: dict                   # shard name -> {"documents", "bytes", "sha1"} (the manifest's)
    planned: int                   # units the run planned (its record of files)
    done: int                      # unit entries there
    running: str | None = None     # the live run holding the folder, if one does

    def unmet_before(self, collection: Path, files: list[Path]) -> list[str]:
        """What differs, from the files alone (before their lines are read)."""
        if self.running:
            return [f"preprocess is still writing {self.folder} ({self.running}); wait for it to end"]
        if self.written is None:
            return [f"{self.folder} is an unfinished preprocess run ({self.done} of {self.planned} input files "
                    "done, no stats.json)"]
        out = []
        names = {f.relative_to(collection).as_posix(): f for f in files}
        for name, shard in self.shards.items():
            f = names.get(name)
            if f is None:
                out.append(f"collection/{name} is missing (the manifest names it)")
            elif f.stat().st_size != shard["bytes"]:
                out.append(f"collection/{name} has {f.stat().st_size} bytes, the manifest {shard['bytes']}")
        out += [f"collection/{n} is not in the manifest (not written by this preprocess run)"
                for n in sorted(set(names) - set(self.shards))]
        in_manifest = sum(s["documents"] for s in self.shards.values())
        if in_manifest != self.written:
            out.append(f"the manifest names {in_manifest} documents, stats.json says {self.written} written")
        return out

    def unmet_after(self, per_file: dict) -> list[str]:
        """What differs in the shards' lines and bytes (``per_file``: the line check's counts and hashes)."""
        out = []
        for name, shard in self.shards.items():
            got = per_file.get(name)
            if got is None:
                continue
            if shard.get("sha1") and got["sha1"] != shard["sha1"]:
                out.append(f"collection/{name} is not the file preprocess wrote (its bytes changed)")
            elif got["documents"] != shard["documents"]:
                out.append(f"collection/{name} holds {got['documents']} valid documents, the manifest "
                           f"{shard['documents']}")
        return out


def promise(path: Path) -> Promise | None:
    """The promise of a preprocess output folder ``path``; None for a folder that is not one (shards alone)."""
    from preprocess.folder.lock import LOCK, OutputLock, _alive, describe
    from preprocess.folder.owned import RECORD, OwnedFiles
    from preprocess.core.paths import filesystem

    if not (path / RECORD).is_file():
        return None
    fs, root = filesystem(str(path))
    owned = OwnedFiles.load(fs, root, str(path))
    if owned is None or owned.kind != "preprocess":
        return None
    running = None
    holder = OutputLock(fs, root, str(path))._read()[0] if (path / LOCK).exists() else None
    if holder is not None and _alive(holder):
        running = describe(holder)
    planned = sum(1 for n in owned.names if n.startswith("units/"))
    done = sum(1 for n in owned.names if n.startswith("units/") and (path / n).is_file())
    stats, manifest = _read(path / "stats.json"), _read(path / "manifest.json")
    if stats is None or manifest is None:
        return Promise(path, None, {}, planned, done, running)
    shards = {s["shard"]: s for s in manifest.get("shards", [])}
    return Promise(path, stats.get("written"), shards, planned, done, running)


def _read(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None
