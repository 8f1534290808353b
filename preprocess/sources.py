"""Input discovery over ``pyarrow.fs``: local paths, or any URI it supports (``s3://``, ``gs://``, ``hdfs://``).

A :class:`Source` is one input file (or a folder of loose ``.html`` pages): one unit
of work, one output shard. Its identity (URI, size, modification time) goes into the
unit's key, so a changed input is redone on resume.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

import pyarrow.fs as pafs

log = logging.getLogger("webprune.preprocess")

ARCHIVE_SUFFIXES = (".warc", ".warc.gz", ".arc", ".arc.gz", ".wat.gz", ".wet.gz", ".wat", ".wet")
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz")
HTML_SUFFIXES = (".html", ".htm")


def filesystem(uri: str) -> tuple[pafs.FileSystem, str]:
    """(filesystem, path inside it) for a local path or a URI."""
    if "://" in uri:
        return pafs.FileSystem.from_uri(uri)
    import os

    return pafs.LocalFileSystem(), os.path.abspath(uri)


def join(base: str, *parts: str) -> str:
    return "/".join([base.rstrip("/"), *parts])


@dataclass(frozen=True)
class Source:
    """One input: kind warc | tar | htmldir, its URI (or absolute local path), size and mtime."""

    kind: str
    uri: str
    size: int = 0
    mtime_ns: int = 0

    @property
    def filename(self) -> str:
        return self.uri.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]

    @property
    def name(self) -> str:
        n = self.filename
        for suf in ARCHIVE_SUFFIXES + TAR_SUFFIXES:
            if n.endswith(suf):
                return n[: -len(suf)]
        return n

    @property
    def identity(self) -> list:
        return [self.kind, self.uri, self.size, self.mtime_ns]

    def open(self):
        """A binary input stream (seekable for local files)."""
        fs, path = filesystem(self.uri)
        return fs.open_input_file(path) if isinstance(fs, pafs.LocalFileSystem) else fs.open_input_stream(path)


def _uri(fs: pafs.FileSystem, path: str, like: str) -> str:
    """The URI of ``path`` on the filesystem of ``like``, keeping its options (``?endpoint_override=...``)."""
    if "://" not in like:
        return path
    query = like.split("?", 1)[1] if "?" in like else ""
    return f"{like.split('://', 1)[0]}://{path}" + (f"?{query}" if query else "")


def _kind(name: str) -> str | None:
    if name.endswith(ARCHIVE_SUFFIXES):
        return "warc"
    if name.endswith(TAR_SUFFIXES):
        return "tar"
    return None


def _mtime(info: pafs.FileInfo) -> int:
    return int(info.mtime_ns or 0) if info.mtime is not None else 0


def discover(inputs: list[str]) -> list[Source]:
    """Expand files and folders into sources, in a stable order. Raises ValueError/FileNotFoundError saying what to do."""
    if isinstance(inputs, (str, bytes)):
        raise ValueError("inputs must be a list of paths or URIs, not one string")
    out: list[Source] = []
    for item in map(str, inputs):
        fs, path = filesystem(item)
        info = fs.get_file_info(path)
        if info.type == pafs.FileType.Directory:
            html, html_bytes, ignored = False, 0, []
            files = [f for f in fs.get_file_info(pafs.FileSelector(path, recursive=True))
                     if f.type == pafs.FileType.File]
            for f in sorted(files, key=lambda f: f.path.split("/")):
                kind = _kind(f.base_name)
                if kind:
                    out.append(Source(kind, _uri(fs, f.path, item), f.size or 0, _mtime(f)))
                elif f.base_name.lower().endswith(HTML_SUFFIXES):
                    html, html_bytes = True, html_bytes + (f.size or 0)
                else:
                    ignored.append(f.base_name)
            if ignored:
                log.warning("%s: ignoring %d file(s) that are neither archives nor .html pages: %s%s", item,
                            len(ignored), ", ".join(ignored[:5]), " ..." if len(ignored) > 5 else "")
            if html:
                out.append(Source("htmldir", _uri(fs, path, item), html_bytes, _mtime(info)))
        elif info.type == pafs.FileType.File:
            kind = _kind(info.base_name)
            if kind is None:
                raise ValueError(f"{item}: not a .warc/.warc.gz/.arc/.arc.gz/.wet.gz/.tar.gz file or a folder; "
                                 "pass archives, tar files of .html pages, or folders of them")
            out.append(Source(kind, _uri(fs, path, item), info.size or 0, _mtime(info)))
        else:
            raise FileNotFoundError(f"{item}: no such file or folder")
    if not out:
        raise ValueError(f"no WARC/ARC archives, tar files or .html pages found in {', '.join(map(str, inputs))}")
    return out
