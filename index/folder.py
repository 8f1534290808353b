"""The index folder: new, empty, or an index webprune built; one build at a time; never a file of someone else's.

``INDEX/.webprune-files.jsonl`` (:mod:`preprocess.folder.owned`, kind ``index``) lists the index's files once it is
built, and the folders a build works in (``webprune-build/``, where Anserini writes; ``webprune-staging/``, the
line check's repaired copies) while it runs. On success the old index's files go and the new ones move up, so a
build that stops leaves the old index (or none) and its own listed working folders, which the next build
removes. A folder holding files webprune did not list is refused, whatever they are (another tool's Lucene
index, a user's notes); ``INDEX/.webprune.lock`` holds the folder for one build and names it to a second one.
An index of an earlier webprune version (no record, its ``webprune-index.json`` there) is taken as webprune's.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pyarrow.fs as pafs

from preprocess.folder.lock import LOCK, OutputLock
from preprocess.folder.owned import RECORD, NotOurs, OwnedFiles

KIND = "index"
BUILD = "webprune-build"
STAGING = "webprune-staging"
STATS_FILE = "webprune-index.json"
LOG_FILE = "webprune-index.log"


class IndexFolder:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.fs = pafs.LocalFileSystem()
        self.root = str(self.path.resolve()) if self.path.exists() else os.path.abspath(self.path)
        self.owned: OwnedFiles | None = None
        self.lock = OutputLock(self.fs, self.root, str(self.path))

    def _record(self) -> OwnedFiles | None:
        owned = OwnedFiles.load(self.fs, self.root, str(self.path))
        if owned is not None and owned.kind != KIND:
            raise NotOurs(f"--index {self.path} is the output of webprune {owned.kind}, not an index; choose "
                          "another folder")
        return owned

    def _others(self, owned: OwnedFiles | None) -> list[str]:
        """Files in the folder that webprune did not list (its lock and record aside)."""
        out = []
        for f in sorted(self.path.rglob("*")):
            rel = f.relative_to(self.path).as_posix()
            if f.is_dir() or rel in (RECORD, LOCK) or rel.startswith((LOCK + ".", RECORD + ".")):
                continue
            if owned is None or not (owned.owns(rel) or owned.owns_temporary(rel)):
                out.append(rel)
        return out

    def check(self) -> None:
        """Refuse, writing nothing, a file, a folder of someone else's, or one a live build holds."""
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"--index {self.path} is a file; give a folder for the index")
        if not self.path.is_dir():
            return
        self.lock.check()
        owned = self._record()
        others = self._others(owned)
        if owned is None and others and _earlier_index(self.path):
            return
        if others:
            shown = ", ".join(others[:3]) + (" ..." if len(others) > 3 else "")
            raise NotOurs(f"--index {self.path} holds files webprune did not write ({shown}); webprune never "
                          "replaces them: choose a new or empty folder for the index")

    def __enter__(self) -> "IndexFolder":
        self.check()
        self.path.mkdir(parents=True, exist_ok=True)
        self.lock.acquire()
        try:
            owned = self._record()
            if owned is None:
                adopt = self._others(None) if _earlier_index(self.path) else []
                owned = OwnedFiles.create(self.fs, self.root, str(self.path), KIND)
                owned.add(adopt)
            self.owned = owned
            owned.add([BUILD + "/", STAGING + "/"])
            for work in (BUILD, STAGING):  # left by a build that stopped
                shutil.rmtree(self.path / work, ignore_errors=True)
        except BaseException:
            self.lock.release()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.lock.release()

    @property
    def build(self) -> Path:
        return self.path / BUILD

    @property
    def staging(self) -> Path:
        return self.path / STAGING

    def commit(self) -> None:
        """The built index replaces the old one: the old one's listed files go, the new ones move up."""
        keep = {RECORD, LOCK}
        old = [n for n in sorted(self.owned.names) if not n.endswith("/") and n not in keep]
        for n in old:
            (self.path / n).unlink(missing_ok=True)
        self.owned.discard(old)
        new = sorted(f.name for f in self.build.iterdir())
        self.owned.add(new)
        for name in new:
            os.replace(self.build / name, self.path / name)
        self.build.rmdir()

    def write(self, name: str, text: str) -> None:
        from preprocess.folder.owned import temporary_name

        self.owned.add([name])
        tmp = temporary_name(str(self.path / name))
        Path(tmp).write_text(text)
        os.replace(tmp, self.path / name)


def _earlier_index(path: Path) -> bool:
    """An index an earlier webprune version built: its summary file is there and is webprune's."""
    try:
        data = json.loads((path / STATS_FILE).read_text())
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and {"collection", "documents", "index_bytes"} <= set(data)
