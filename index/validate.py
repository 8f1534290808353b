"""Every line of a JsonCollection checked before Anserini reads it: no document lost unaccounted.

Anserini's JsonCollection silently stops reading a file at its first malformed line or at the break of a
truncated ``.gz``, indexes two documents with the same id, and skips an empty one. So each file it would
read (any name ending ``.json``, ``.jsonl`` or ``.gz``, in any subfolder) is read here line by line first:
a line is a document when it is a JSON object with a non-empty string ``id`` without whitespace (a TREC
run's columns are split on it) and a string ``contents`` that Java's ``trim()`` leaves non-empty; any other
non-blank line is a bad line, named by file and line number. An id seen before is a duplicate: the first
(in file-name, then line order) is kept.

When every file is clean, Anserini reads the collection folder itself. Otherwise :func:`stage` builds a
folder of links to the clean files and repaired copies (valid lines only) of the others; the user's files
are only read.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import zlib
from array import array
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import orjson

SUFFIXES = (".json", ".jsonl", ".gz")  # what Anserini 1.7's JsonCollection reads (case-sensitive, recursive)
MAX_EXAMPLES = 20
_JAVA_TRIM = bytes(range(33)).decode()  # String.trim() drops these; Anserini calls what is left empty "empty"
_CHUNK = 1 << 20
CUT = "incomplete: cut off where the .gz breaks"


def collection_files(coll: Path) -> list[Path]:
    """The files Anserini would index under ``coll``, sorted by path (symlinked files included, as Anserini does)."""
    out = []
    for root, dirs, files in os.walk(coll):
        dirs.sort()
        out += [Path(root) / f for f in sorted(files) if f.endswith(SUFFIXES) and (Path(root) / f).is_file()]
    return sorted(out, key=lambda p: p.relative_to(coll).parts)


class Lines:
    """``(line number, bytes)`` of a file, plain or gzip; ``truncated`` says afterwards why a .gz ended early."""

    def __init__(self, path: Path):
        self.path, self.truncated = path, None
        self.sha1 = hashlib.sha1()  # of the file's bytes, once read whole (what preprocess's manifest holds)

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        if self.path.name.endswith(".gz"):
            yield from enumerate(self._split(self._gunzip()), 1)
        else:
            with open(self.path, "rb") as f:
                for n, line in enumerate(f, 1):
                    self.sha1.update(line)
                    yield n, line

    def _gunzip(self) -> Iterator[bytes]:
        d, fed, read = zlib.decompressobj(31), False, 0
        with open(self.path, "rb") as f:
            while chunk := f.read(_CHUNK):
                read += len(chunk)
                self.sha1.update(chunk)
                while chunk:
                    try:
                        yield d.decompress(chunk)
                    except zlib.error as exc:
                        self.truncated = f"is corrupt (bad gzip data within its first {read:,} bytes: {exc})"
                        return
                    fed, chunk = True, b""
                    if d.eof:  # a member ended; another may follow (concatenated gzip)
                        chunk, d, fed = d.unused_data, zlib.decompressobj(31), False
        if read == 0:
            self.truncated = "is empty (0 bytes: not even a gzip header)"
        elif fed:
            self.truncated = "is truncated (ends inside its gzip stream)"

    @staticmethod
    def _split(chunks: Iterator[bytes]) -> Iterator[bytes]:
        rest = b""
        for chunk in chunks:
            if not chunk:
                continue
            parts = (rest + chunk).split(b"\n")
            rest = parts.pop()
            for p in parts:
                yield p + b"\n"
        if rest:
            yield rest


def problem(line: bytes) -> tuple[str | None, str | None]:
    """``(id, None)`` for a document, ``(None, reason)`` for a bad line, ``(None, None)`` for a blank one."""
    if not line.strip():
        return None, None
    try:
        doc = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        return None, "not UTF-8" if "utf-8" in str(exc).lower() else "not JSON"
    if not isinstance(doc, dict):
        return None, "not a JSON object (one document a line)"
    doc_id = doc.get("id")
    if doc_id is None:
        return None, "no id"
    if not isinstance(doc_id, str) or not doc_id:
        return None, "id not a non-empty string"
    if len(doc_id.split()) != 1 or doc_id.strip() != doc_id:
        return None, "id holds whitespace (a TREC run splits on it)"
    contents = doc.get("contents")
    if contents is None:
        return None, "no contents"
    if not isinstance(contents, str):
        return None, "contents not a string"
    if not contents.strip(_JAVA_TRIM):
        return None, "empty contents"
    return doc_id, None


@dataclass
class Report:
    """What the check found; ``lines == documents + bad + blank + duplicates`` always."""

    files: int = 0
    lines: int = 0
    documents: int = 0          # valid lines, first of their id: what the index must hold
    blank: int = 0              # whitespace-only lines (Anserini skips them too)
    bad: Counter = field(default_factory=Counter)          # reason -> lines
    duplicates: int = 0
    examples: dict = field(default_factory=lambda: {"bad": [], "duplicates": []})
    truncated: list = field(default_factory=list)         # {"file", "reason", "complete_lines"}
    repaired: list = field(default_factory=list)          # files indexed from a repaired copy
    per_file: dict = field(default_factory=dict)          # name -> {"documents": valid lines, "sha1": its bytes}

    def note(self, kind: str, text: str) -> None:
        if len(self.examples[kind]) < MAX_EXAMPLES:
            self.examples[kind].append(text)

    @property
    def clean(self) -> bool:
        return not (self.bad or self.duplicates or self.truncated)

    def summary(self) -> str:
        """``1 bad line skipped: shard.jsonl:7 not JSON; ...`` ('' when clean)."""
        parts, bad = [], sum(self.bad.values())
        if bad:
            first = self.examples["bad"][0].replace(": ", " ", 1)
            parts.append(f"{bad} bad line{'s' * (bad > 1)} skipped: {first}{f' and {bad - 1} more' if bad > 1 else ''}")
        for t in self.truncated[:3]:
            parts.append(f"{t['file']} {t['reason']}: its {t['complete_lines']} complete line(s) read")
        if len(self.truncated) > 3:
            parts.append(f"{len(self.truncated) - 3} more damaged .gz files")
        if self.duplicates:
            parts.append(f"{self.duplicates} duplicate id{'s' * (self.duplicates > 1)} skipped (first kept), e.g. "
                         + self.examples["duplicates"][0])
        return "; ".join(parts)

    def to_dict(self) -> dict:
        return {"files": self.files, "lines": self.lines, "valid_documents": self.documents,
                "blank_lines": self.blank, "bad_lines": sum(self.bad.values()), "bad_reasons": dict(self.bad),
                "bad_examples": self.examples["bad"], "duplicates": self.duplicates,
                "duplicate_examples": self.examples["duplicates"], "truncated": self.truncated,
                "repaired": self.repaired, "per_file": self.per_file}


@dataclass
class _File:
    path: Path
    name: str                   # relative to the collection, / separated
    first: int                  # ordinal of its first valid line among all valid lines
    end: int
    damaged: bool               # bad lines or a truncated .gz: indexed from a repaired copy


def _first_pass(coll: Path, report: Report) -> tuple[list[_File], array]:
    files, ids = [], array("q")  # ids: hash() of each valid line's id, 8 bytes a document
    for path in collection_files(coll):
        name, lines, bad, first = path.relative_to(coll).as_posix(), Lines(path), 0, len(ids)
        n, reason = 0, None
        for n, line in lines:
            doc_id, reason = problem(line)
            if doc_id is not None:
                ids.append(hash(doc_id))
            elif reason is None:
                report.blank += 1
            else:
                if lines.truncated and not line.endswith(b"\n"):
                    reason = CUT
                bad += 1
                report.bad[reason] += 1
                report.note("bad", f"{name}:{n}: {reason}")
        report.lines += n
        report.per_file[name] = {"documents": len(ids) - first, "sha1": lines.sha1.hexdigest()}
        if lines.truncated:
            complete = n - (reason == CUT)
            report.truncated.append({"file": name, "reason": lines.truncated, "complete_lines": complete})
        files.append(_File(path, name, first, len(ids), bool(bad or lines.truncated)))
    report.files = len(files)
    return files, ids


def _same_hash(ids: array):
    """Ordinals of valid lines whose id hash occurs more than once (every occurrence), sorted."""
    import numpy as np

    h = np.frombuffer(ids, dtype=np.int64) if len(ids) else np.zeros(0, dtype=np.int64)
    order = np.argsort(h, kind="stable")
    same = h[order][1:] == h[order][:-1]
    return np.unique(np.concatenate([order[1:][same], order[:-1][same]]))


def check(coll: Path, staging: Path) -> tuple[Path, Report]:
    """The folder Anserini should read (``coll`` itself when clean, else ``staging``) and the report."""
    import numpy as np

    report = Report()
    files, ids = _first_pass(coll, report)
    candidates = _same_hash(ids)
    report.documents = len(ids)
    if report.clean and not candidates.size:
        return coll, report
    seen: dict[str, str] = {}  # id -> file:line, for ids whose hash is shared
    for f in files:
        target = staging / f.name
        target.parent.mkdir(parents=True, exist_ok=True)
        mine = set(candidates[np.searchsorted(candidates, f.first):np.searchsorted(candidates, f.end)].tolist())
        if not (f.damaged or mine):
            os.symlink(f.path.resolve(), target)
            continue
        dropped = _copy_valid(f, target, mine, seen, report)
        if f.damaged or dropped:
            report.repaired.append(f.name)
        else:  # its shared hashes were first occurrences or collisions: the file itself is clean
            target.unlink()
            os.symlink(f.path.resolve(), target)
    report.documents = len(ids) - report.duplicates
    return staging, report


def _copy_valid(f: _File, target: Path, mine: set, seen: dict, report: Report) -> int:
    """Write ``f``'s valid, first-of-their-id lines to ``target``; returns the duplicates dropped."""
    ordinal, dropped = f.first, 0
    opener = (lambda p: gzip.open(p, "wb", compresslevel=1)) if f.name.endswith(".gz") else (lambda p: open(p, "wb"))
    with opener(target) as out:
        for n, line in Lines(f.path):
            doc_id, _ = problem(line)
            if doc_id is None:
                continue
            if ordinal in mine:
                where = seen.setdefault(doc_id, f"{f.name}:{n}")
                if where != f"{f.name}:{n}":
                    dropped += 1
                    report.duplicates += 1
                    report.note("duplicates", f"{f.name}:{n}: id {doc_id!r} (first at {where})")
                    ordinal += 1
                    continue
            ordinal += 1
            out.write(line if line.endswith(b"\n") else line + b"\n")
    return dropped
