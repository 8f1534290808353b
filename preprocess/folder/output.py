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

import json
import re

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
    def open_shard(self, name: str, compress: bool):
        """A :class:`preprocess.folder.shard.ShardFile` being written in ``collection/``."""
        from preprocess.folder.shard import ShardFile

        return ShardFile(self, name, compress)
