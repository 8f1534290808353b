"""A shard being written: its lines serialised (one document a line, compact JSON in UTF-8) and written whole
(to ``NAME.wp-<pid>-<random>.tmp``, moved into place on commit), gzipped or not, with its SHA-1."""
from __future__ import annotations

import hashlib
import json
import queue
import threading

import orjson
from isal import igzip

from preprocess.core.document import Document
from preprocess.folder.owned import temporary_name as _tmp, writing


def json_dumps(data: dict) -> bytes:
    """One shard line, compact JSON in UTF-8 (orjson: ~12x faster than ``json``). A lone surrogate, which
    UTF-8 cannot hold, is written as a ``\\udXXX`` escape instead of failing the record."""
    try:
        return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        return (json.dumps(data, separators=(",", ":")) + "\n").encode("ascii")


def json_line(doc: Document) -> tuple[bytes, int]:
    """The shard line of a document, and the UTF-8 size of its ``contents`` (what gets indexed)."""
    data = doc.to_json()
    return json_dumps(data), len(data["contents"].encode("utf-8"))


COMPRESS_CHUNK = 1 << 16  # bytes handed to the compressor at a time


class ShardFile:
    """A shard being written: lines go to ``NAME.tmp``; ``commit`` moves it into place and returns its size.

    A compressed shard is compressed and written by a thread of its own, in order, while the next batch is cleaned:
    ISA-L's deflate releases the GIL. The compressor is handed the lines in pieces of ``COMPRESS_CHUNK`` bytes (the
    rest at ``commit``), whatever the batches were: ISA-L's output depends on how its input is split, and a retried
    unit writes its suspect records one at a time, so pieces cut at batch ends gave another gzip stream of the same
    lines. An error there (a full disk) is raised by the next ``write`` or by ``commit``."""

    def __init__(self, out, name: str, compress: bool):  # out: the OutputDir (preprocess.folder.output)
        self.out, self.name = out, name
        self.final = out.path("collection", name)
        self.tmp = _tmp(self.final)
        with writing(self.final):
            self._raw = _Hashed(out.fs.open_output_stream(self.tmp))  # its SHA-1: what index checks it against
        # mtime=0 and no file name in the gzip header: a retried unit writes the very same bytes.
        # ISA-L at level 2: 15x less CPU than zlib at 6 for shards ~11% larger (scripts/bench/profile_steps.py).
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
