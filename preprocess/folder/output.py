"""The output folder of a preprocess run, on any ``pyarrow.fs`` filesystem (local path or URI).

Layout::

    OUT/.webprune-files.jsonl every file webprune wrote here (:mod:`preprocess.folder.owned`); nothing else is touched
    OUT/.webprune.lock        the run that holds the folder (:mod:`preprocess.folder.lock`)
    OUT/run.json              the options and code the folder was made with (resume refuses others)
    OUT/collection/NNNNN-<source>.jsonl[.gz]   one shard per input file (Pyserini JsonCollection)
    OUT/units/NNNNN.json      one entry per finished unit: its key, shard, documents and stats
    OUT/ids/NNNNN.bin         the digests of the ids a unit wrote (:mod:`preprocess.run.duplicates`)
    OUT/learned/<name>.json   artefacts of the learning passes (thresholds, templates, references)
    OUT/work/                 attempt markers of running units (crash isolation; gone when a unit ends)
    OUT/outcomes/NNNNN.tsv.gz every record's id and outcome (with --outcomes)
    OUT/manifest.json, OUT/stats.json   written by the driver at the end

Every file is written to ``NAME.wp-<pid>-<random>.tmp`` and moved into place, so a reader
never sees half a file; a shard plus its unit entry, both carrying the unit key, is what
"complete" means. Only files listed in OUT/.webprune-files.jsonl are ever replaced or deleted.
"""
from __future__ import annotations

import hashlib
import json
import queue
import re
import threading

import pyarrow.fs as pafs
from isal import igzip

from preprocess.core.ids import json_text
from preprocess.folder.owned import RECORD, OwnedFiles, temporary_name as _tmp, writing
from preprocess.core.paths import filesystem, join

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def shard_name(index: int, source_name: str, compress: bool) -> str:
    return f"{index:05d}-{_UNSAFE.sub('_', source_name)[:80]}.jsonl" + (".gz" if compress else "")


class OutputDir:
    """OUT on its filesystem. The driver attaches ``owned`` (the record of webprune's files): then every file it
    writes is listed first, and one that exists unlisted is refused. Workers write names the driver listed."""

    def __init__(self, uri: str, owned: OwnedFiles | None = None):
        self.uri = str(uri)
        self.fs, self.root = filesystem(self.uri)
        self.owned = owned

    def path(self, *parts: str) -> str:
        return join(self.root, *parts)

    def mkdirs(self, *parts: str) -> None:
        self.fs.create_dir(self.path(*parts), recursive=True)

    def exists(self, *parts: str) -> bool:
        return self.fs.get_file_info(self.path(*parts)).type != pafs.FileType.NotFound

    def size(self, *parts: str) -> int | None:
        info = self.fs.get_file_info(self.path(*parts))
        return info.size if info.type == pafs.FileType.File else None

    def listdir(self, *parts: str) -> list[str]:
        info = self.fs.get_file_info(pafs.FileSelector(self.path(*parts), allow_not_found=True))
        return sorted(f.base_name for f in info)

    def files(self) -> set[str]:
        """Every file under OUT, relative to it."""
        base = self.root.rstrip("/") + "/"
        info = self.fs.get_file_info(pafs.FileSelector(self.root, recursive=True, allow_not_found=True))
        return {f.path[len(base):] for f in info if f.type == pafs.FileType.File and f.path.startswith(base)}

    # -- whole files, written atomically -----------------------------------------------------------------
    def write_bytes(self, data: bytes, *parts: str) -> None:
        if self.owned is not None:
            self.owned.claim(["/".join(parts)])
        final = self.path(*parts)
        tmp = _tmp(final)
        with writing(final):
            try:
                fh = self.fs.open_output_stream(tmp)
            except FileNotFoundError:  # its folder is not there yet
                self.fs.create_dir(final.rsplit("/", 1)[0], recursive=True)
                fh = self.fs.open_output_stream(tmp)
            try:
                with fh:
                    fh.write(data)
            except OSError:
                self._discard(tmp)
                raise
            self.fs.move(tmp, final)

    def _discard(self, tmp: str) -> None:
        """A temporary file whose writing failed (a full disk: what it holds goes at once)."""
        try:
            self.fs.delete_file(tmp)
        except OSError:
            pass

    def write_json(self, data, *parts: str) -> None:
        self.write_bytes((json_text(data, indent=1) + "\n").encode("utf-8"), *parts)

    def read_range(self, offset: int, length: int, *parts: str) -> bytes:
        """``length`` bytes of a file from ``offset`` (one ranged read on an object store)."""
        with self.fs.open_input_file(self.path(*parts)) as fh:
            return fh.read_at(length, offset)

    def shard_lines(self, name: str):
        """The lines of a shard in ``collection/``, streamed (gzipped or not, by its name)."""
        with self.fs.open_input_stream(self.path("collection", name), compression=None) as raw:
            fh = igzip.IGzipFile(fileobj=raw, mode="rb") if name.endswith(".gz") else raw
            rest = b""
            while chunk := fh.read(1 << 20):
                lines = (rest + chunk).split(b"\n")
                rest = lines.pop()
                for line in lines:
                    yield line + b"\n"
            if rest:
                yield rest

    def read_json(self, *parts: str):
        try:
            with self.fs.open_input_stream(self.path(*parts)) as fh:
                return json.loads(fh.read())
        except (FileNotFoundError, OSError, ValueError):
            return None

    def delete(self, *parts: str) -> None:
        """Delete one file of webprune's (a name the driver listed); never a folder."""
        path = self.path(*parts)
        if self.fs.get_file_info(path).type == pafs.FileType.File:
            try:
                self.fs.delete_file(path)
            except FileNotFoundError:  # gone meanwhile (a stray writer moved it into place): as asked
                pass

    def delete_owned(self, names) -> None:
        """Delete files webprune listed (the driver); names it did not list are left alone."""
        names = [n for n in names if self.owned is not None and self.owned.owns(n) and n != RECORD]
        for n in names:
            self.delete(n)
        if self.owned is not None:
            self.owned.discard(names)

    def remove_temporary(self, existing: set[str]) -> None:
        """Half-written files of an interrupted run (their units are redone): only ``<listed name>.wp-*.tmp``."""
        for name in sorted(existing):
            if self.owned is not None and self.owned.owns_temporary(name):
                self.delete(name)

    def delete_own(self) -> None:
        """Remove what webprune wrote here (``--overwrite``); other files in the folder stay."""
        self.delete_owned(sorted(self.owned.names) if self.owned is not None else [])

    # -- shards ------------------------------------------------------------------------------------------
    def open_shard(self, name: str, compress: bool) -> "ShardFile":
        return ShardFile(self, name, compress)


COMPRESS_CHUNK = 1 << 16  # bytes handed to the compressor at a time


class ShardFile:
    """A shard being written: lines go to ``NAME.tmp``; ``commit`` moves it into place and returns its size.

    A compressed shard is compressed and written by a thread of its own, in order, while the next batch is cleaned:
    ISA-L's deflate releases the GIL. The compressor is handed the lines in pieces of ``COMPRESS_CHUNK`` bytes (the
    rest at ``commit``), whatever the batches were: ISA-L's output depends on how its input is split, and a retried
    unit writes its suspect records one at a time, so pieces cut at batch ends gave another gzip stream of the same
    lines. An error there (a full disk) is raised by the next ``write`` or by ``commit``."""

    def __init__(self, out: OutputDir, name: str, compress: bool):
        self.out, self.name = out, name
        self.final = out.path("collection", name)
        self.tmp = _tmp(self.final)
        with writing(self.final):
            self._raw = _Hashed(out.fs.open_output_stream(self.tmp))  # its SHA-1: what index checks it against
        # mtime=0 and no file name in the gzip header: a retried unit writes the very same bytes.
        # ISA-L at level 2: 15x less CPU than zlib at 6 for shards ~11% larger (scripts/profile_steps.py).
        self._fh = igzip.IGzipFile(fileobj=self._raw, mode="wb", mtime=0, filename="", compresslevel=2) \
            if compress else self._raw
        self._behind = _InOrder(self._fh.write) if compress else None
        self._pending = bytearray()  # lines not yet handed to the compressor (less than one piece)
        self.documents = 0

    def write(self, lines: list[bytes]) -> None:
        if lines:
            data = b"".join(lines)
            with writing(self.final):
                if self._behind is not None:
                    self._pending += data
                    whole = len(self._pending) - len(self._pending) % COMPRESS_CHUNK
                    for i in range(0, whole, COMPRESS_CHUNK):
                        self._behind.put(bytes(self._pending[i:i + COMPRESS_CHUNK]))
                    del self._pending[:whole]
                else:
                    self._fh.write(data)
            self.documents += len(lines)

    def commit(self) -> int:
        with writing(self.final):
            if self._behind is not None:
                if self._pending:
                    self._behind.put(bytes(self._pending))
                self._behind.finish()
            if self._fh is not self._raw:
                self._fh.close()
            self._raw.close()
            self.out.fs.move(self.tmp, self.final)
        self.sha1 = self._raw.hash.hexdigest()
        return self.out.size("collection", self.name) or 0

    def abort(self) -> None:
        try:
            if self._behind is not None:
                self._behind.finish(drop=True)
            if self._fh is not self._raw:
                self._fh.close()
            self._raw.close()
            self.out.fs.delete_file(self.tmp)
        except OSError:
            pass


class _Hashed:
    """A byte stream that hashes (SHA-1) what is written through it."""

    def __init__(self, raw):
        self.raw, self.hash = raw, hashlib.sha1()

    def write(self, data) -> int:
        self.hash.update(data)
        return self.raw.write(data)

    def flush(self) -> None:
        self.raw.flush()

    def close(self) -> None:
        self.raw.close()

    @property
    def closed(self) -> bool:
        return self.raw.closed


class _InOrder:
    """``fn(item)`` for every item put, in order, on a thread of its own; at most ``depth`` items wait. After an
    error nothing more is done, and every later ``put`` or ``finish`` raises it."""

    _END = object()

    def __init__(self, fn, depth: int = 2):
        self.fn, self.error = fn, None
        self.queue: queue.Queue = queue.Queue(maxsize=depth)
        self.thread = threading.Thread(target=self._run, name="webprune-shard-writer", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while (item := self.queue.get()) is not self._END:
            if self.error is None:
                try:
                    self.fn(item)
                except BaseException as exc:  # noqa: BLE001 -- raised in the caller's thread
                    self.error = exc

    def put(self, item) -> None:
        if self.error is not None:
            raise self.error
        self.queue.put(item)

    def finish(self, drop: bool = False) -> None:
        """Wait until every item is done and the thread has ended; ``drop``: the waiting items are skipped and no
        error is raised (the output is abandoned)."""
        if self.thread.is_alive():
            if drop and self.error is None:
                self.error = _Dropped()
            self.queue.put(self._END)
            self.thread.join()
        if self.error is not None and not drop:
            raise self.error


class _Dropped(Exception):
    """Items waiting when an abort began are not written."""
