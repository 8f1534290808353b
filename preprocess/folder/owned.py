"""What webprune wrote in an output folder: the only files it ever replaces or deletes there.

``OUT/.webprune-files.jsonl`` names every file webprune wrote (or is about to write)
in OUT, relative to OUT; a name ending in ``/`` is a folder webprune created whole
(an experiment's index or plots). Its first line says what the folder is::

    {"webprune": "preprocess", "version": 1}
    {"+": ["run.json", "collection/00000-a.jsonl.gz", "units/00000.json", ...]}
    {"-": ["units/00007.json"]}

Names are added *before* their files are written (so a killed run never leaves a
file of its own unlisted) and removed after their files are deleted. A file that is
not listed is someone else's: webprune neither replaces nor deletes it, and a run
that would write such a name is refused. A temporary file is webprune's when it
has the form ``<listed name>.wp-<pid>-<random>.tmp`` (:func:`temporary_name`).

Only the driver of a run writes this record (under the folder's lock, :mod:`preprocess.folder.lock`);
on a local disk a change is one appended line, elsewhere the record is rewritten.
"""
from __future__ import annotations

import errno
import json
import os
import re
import uuid
from contextlib import contextmanager

import pyarrow.fs as pafs

RECORD = ".webprune-files.jsonl"
VERSION = 1
_TMP = re.compile(r"^(?P<final>.+)\.wp-[0-9a-f]+-[0-9a-f]{8}\.tmp$")


class NotOurs(ValueError):
    """The output folder, or a name in it, holds files webprune did not write."""


PERMANENT = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EFBIG}
_WHY = {errno.ENOSPC: "no space left on the device", errno.EDQUOT: "the disk quota is used up",
        errno.EROFS: "the file system is read-only", errno.EACCES: "no permission to write there",
        errno.EPERM: "no permission to write there", errno.EFBIG: "the file is too large for the file system"}


class OutputUnwritable(OSError):
    """The output cannot be written (no space, a quota, read-only, no permission): no record's fault, and no
    retry mends it. Raised as ``OutputUnwritable(errno, message)`` (plain OSError args: it crosses processes)."""

    def __str__(self) -> str:
        return self.strerror or super().__str__()


def unwritable(path: str, exc: OSError) -> OutputUnwritable | None:
    """An :class:`OutputUnwritable` for ``exc`` met writing ``path``; None for an error a retry may mend."""
    if isinstance(exc, OutputUnwritable):
        return exc
    if getattr(exc, "errno", None) not in PERMANENT:
        return None
    return OutputUnwritable(exc.errno, f"cannot write {path}: {_WHY[exc.errno]}; make room there (or choose "
                                       "another output) and run the same command again: what is done is kept and "
                                       "the output comes out the same")


@contextmanager
def writing(path: str):
    """Turn an OSError that no retry mends, met while writing ``path``, into :class:`OutputUnwritable`."""
    try:
        yield
    except OSError as exc:
        stop = unwritable(path, exc)
        if stop is None:
            raise
        raise stop from None


def temporary_name(final: str) -> str:
    """``<final>.wp-<pid>-<random>.tmp``: unique to its writer (a unit redone while an orphan of a killed run
    still writes it must not share its file), and recognisably webprune's."""
    return f"{final}.wp-{os.getpid():x}-{uuid.uuid4().hex[:8]}.tmp"


def foreign(uri: str, name: str) -> NotOurs:
    return NotOurs(f"{uri}/{name} exists and webprune did not write it: webprune never replaces a file of "
                   "someone else's; move it away or choose another output folder")


def _join(root: str, rel: str) -> str:
    return root.rstrip("/") + "/" + rel


class OwnedFiles:
    """The record of one output folder (``fs``/``root``; ``uri`` for messages)."""

    def __init__(self, fs: pafs.FileSystem, root: str, uri: str, kind: str, names: set[str]):
        self.fs, self.root, self.uri, self.kind, self.names = fs, root, uri, kind, names

    # -- reading ---------------------------------------------------------------------------------------------
    @classmethod
    def load(cls, fs: pafs.FileSystem, root: str, uri: str) -> "OwnedFiles | None":
        """The folder's record, or None when it has none; NotOurs when the file is not webprune's record."""
        path = _join(root, RECORD)
        try:
            with fs.open_input_stream(path) as fh:
                lines = fh.read().decode("utf-8", "replace").split("\n")  # (a name may hold U+2028: not splitlines)
            if lines and not lines[-1]:
                lines.pop()
        except FileNotFoundError:
            return None
        except OSError as exc:
            if fs.get_file_info(path).type == pafs.FileType.NotFound:
                return None
            raise NotOurs(f"{uri}/{RECORD} cannot be read ({exc}); choose another output folder") from None
        try:
            head = json.loads(lines[0])
            kind = head["webprune"]
            if not isinstance(kind, str) or head.get("version") != VERSION:
                raise ValueError
        except (IndexError, ValueError, KeyError, TypeError):
            raise NotOurs(f"{uri}/{RECORD} is not webprune's record of its files; choose another output "
                          "folder") from None
        names: set[str] = set()
        for i, line in enumerate(lines[1:], 2):
            try:
                change = json.loads(line)
                names.update(change.get("+", []))
                names.difference_update(change.get("-", []))
            except (ValueError, AttributeError, TypeError):
                if i != len(lines):  # only the last line can be cut short (a run killed while appending it)
                    raise NotOurs(f"{uri}/{RECORD}: line {i} is damaged; choose another output folder") from None
        return cls(fs, root, uri, kind, names)

    def owns(self, rel: str) -> bool:
        if rel in self.names:
            return True
        return any(rel.startswith(n) for n in self.names if n.endswith("/"))

    def owns_temporary(self, rel: str) -> bool:
        m = _TMP.match(rel)
        return bool(m) and self.owns(m.group("final"))

    # -- writing ---------------------------------------------------------------------------------------------
    @classmethod
    def create(cls, fs: pafs.FileSystem, root: str, uri: str, kind: str) -> "OwnedFiles":
        owned = cls(fs, root, uri, kind, set())
        owned.compact()
        return owned

    def _append(self, change: dict) -> None:
        line = (json.dumps(change, ensure_ascii=False) + "\n").encode("utf-8")
        path = _join(self.root, RECORD)
        if isinstance(self.fs, pafs.LocalFileSystem):
            with writing(path), self.fs.open_append_stream(path) as fh:
                fh.write(line)
            return
        self.compact()  # object stores cannot append: the whole record is written again

    def compact(self) -> None:
        """Write the record anew: its header and one line of the names listed now (atomically)."""
        path = _join(self.root, RECORD)
        tmp = temporary_name(path)
        data = json.dumps({"webprune": self.kind, "version": VERSION}) + "\n"
        if self.names:
            data += json.dumps({"+": sorted(self.names)}, ensure_ascii=False) + "\n"
        with writing(path):
            with self.fs.open_output_stream(tmp) as fh:
                fh.write(data.encode("utf-8"))
            self.fs.move(tmp, path)

    def add(self, names) -> None:
        """List ``names`` before their files are written."""
        new = sorted(set(names) - self.names)
        if new:
            self.names.update(new)
            self._append({"+": new})

    def discard(self, names) -> None:
        """Unlist ``names`` after their files were deleted."""
        gone = sorted(set(names) & self.names)
        if gone:
            self.names.difference_update(gone)
            self._append({"-": gone})

    def claim(self, names, existing: set[str] | None = None) -> None:
        """List ``names`` (files webprune is about to write); NotOurs, before anything is listed, when one of
        them exists and is not webprune's. ``existing``: the files known to exist (else each is looked up)."""
        new = [n for n in dict.fromkeys(names) if not self.owns(n)]
        for n in new:
            there = (n in existing) if existing is not None else \
                self.fs.get_file_info(_join(self.root, n.rstrip("/"))).type != pafs.FileType.NotFound
            if there:
                raise foreign(self.uri, n.rstrip("/"))
        self.add(new)


# -- loose output files (a run file, a JSON result, a model): the record of the folder they are written in ------
FILES = "files"  # the kind of a record made for loose output files


def _folder(path: str) -> tuple[pafs.FileSystem, str, str, str]:
    """(filesystem, folder, folder as given, file name) of a local output file path."""
    full = os.path.abspath(path)
    folder, name = os.path.split(full)
    return pafs.LocalFileSystem(), folder, os.path.dirname(path) or ".", name


def check_outputs(paths) -> None:
    """Before any work: each of ``paths`` (local files a command will write) is new, or webprune's (listed in its
    folder's record); NotOurs naming the first that is neither. Nothing is written."""
    for path in paths:
        if not os.path.lexists(path):
            continue
        fs, folder, shown, name = _folder(path)
        owned = OwnedFiles.load(fs, folder, shown)
        if owned is None or not owned.owns(name):
            raise NotOurs(f"{path} exists and webprune did not write it: webprune never replaces a file of someone "
                          "else's; choose another path, or move that file away")


def claim_outputs(paths) -> None:
    """:func:`check_outputs`, then list ``paths`` in their folders' records (a record of kind ``files`` made
    where there is none) before they are written; their folders are made."""
    check_outputs(paths)
    for path in paths:
        fs, folder, shown, name = _folder(path)
        os.makedirs(folder, exist_ok=True)
        owned = OwnedFiles.load(fs, folder, shown) or OwnedFiles.create(fs, folder, shown, FILES)
        owned.add([name])


def write_output(path: str, data: bytes | str) -> None:
    """Write a listed output file whole (aside, then moved into place: never half a file)."""
    data = data.encode("utf-8") if isinstance(data, str) else data
    tmp = temporary_name(os.path.abspath(path))
    with writing(path):
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
        except OSError:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        os.replace(tmp, path)
