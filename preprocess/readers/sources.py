"""Input discovery over ``pyarrow.fs``: local paths, or any URI it supports (``s3://``, ``gs://``, ``hdfs://``).

A :class:`Source` is one input file (or a folder of loose ``.html`` pages): one unit
of work, one output shard. Its identity (URI, size, modification time; on a local disk also the
status change time, ctime, which an edit that keeps size and mtime still changes; for a folder of
pages the names of its pages) goes into the unit's key, so a changed input is redone on resume. Each file is read once: on a
local disk files are told apart by device and inode (a file given twice, through a
symbolic or hard link, as ``d/../d/f``, or inside a folder also given), and a folder
reached again through a link is not entered twice (link loops end).
"""
from __future__ import annotations

import hashlib
import logging
import os
import stat
from dataclasses import dataclass

import pyarrow.fs as pafs

from preprocess.core.paths import filesystem, join, open_input  # noqa: F401 (join, open_input: this room's users)

log = logging.getLogger("webprune.preprocess")

ARCHIVE_SUFFIXES = (".warc", ".warc.gz", ".arc", ".arc.gz", ".wat.gz", ".wet.gz", ".wat", ".wet")
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz")
HTML_SUFFIXES = (".html", ".htm")


@dataclass(frozen=True)
class Source:
    """One input: kind warc | tar | htmldir, its URI (or absolute local path), size and mtime. An htmldir holds
    the paths of its pages, relative to it (each file once, even when reached twice)."""

    kind: str
    uri: str
    size: int = 0
    mtime_ns: int = 0
    members: tuple[str, ...] = ()
    change_ns: int = 0  # a local file's status change time (ctime): an edit that keeps size and mtime changes it

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
        ident = [self.kind, self.uri, self.size, self.mtime_ns] + ([self.change_ns] if self.change_ns else [])
        if self.members:
            ident.append(hashlib.sha1("\0".join(self.members).encode("utf-8", "surrogatepass")).hexdigest())
        return ident

    def open(self):
        """A binary input stream (seekable for local files)."""
        fs, path = filesystem(self.uri)
        return open_input(fs, path)


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


def _mtime(info) -> int:
    return int(info.mtime_ns or 0) if info.mtime_ns is not None else 0


@dataclass(frozen=True)
class _LocalInfo:
    """What discovery reads of a local path pyarrow cannot name (not UTF-8): pyarrow.fs.FileInfo's fields."""

    type: pafs.FileType
    base_name: str
    size: int | None
    mtime_ns: int | None


def _info(fs: pafs.FileSystem, path: str):
    """``fs.get_file_info(path)``; a local path that is not UTF-8 is looked at by ``os.stat``."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        if not isinstance(fs, pafs.LocalFileSystem):
            raise
        try:
            st = os.stat(path)
        except OSError:
            return _LocalInfo(pafs.FileType.NotFound, os.path.basename(path), None, None)
        kind = pafs.FileType.Directory if stat.S_ISDIR(st.st_mode) else pafs.FileType.File
        return _LocalInfo(kind, os.path.basename(path), st.st_size, st.st_mtime_ns)
    return fs.get_file_info(path)


@dataclass(frozen=True)
class _File:
    path: str
    size: int
    mtime_ns: int
    key: tuple | str          # (device, inode) on a local disk, the path elsewhere: the same file, however reached
    change_ns: int = 0        # ctime on a local disk


def _walk_local(root: str, found: dict) -> list[_File]:
    """Every file under ``root``, following symbolic links, each folder entered once (a link loop ends)."""
    files, folders = [], {}
    for here, dirs, names in os.walk(root, followlinks=True, onerror=lambda e: _note(found, "unreadable", str(e))):
        st = os.stat(here)
        if (st.st_dev, st.st_ino) in folders:
            _note(found, "folders_reached_twice", f"{here} (the folder {folders[st.st_dev, st.st_ino]})")
            dirs[:] = []
            continue
        folders[st.st_dev, st.st_ino] = here
        for n in names:
            path = os.path.join(here, n)
            try:
                st = os.stat(path)
            except OSError:
                _note(found, "broken_links", path)
                continue
            if stat.S_ISREG(st.st_mode):
                files.append(_File(path, st.st_size, st.st_mtime_ns, (st.st_dev, st.st_ino), st.st_ctime_ns))
            else:  # a fifo, socket or device: no input, but not ignored unsaid
                _note(found, "not_files", path)
    return files


def _note(found: dict, key: str, what: str) -> None:
    found.setdefault(key, []).append(what)


def html_members(uri: str, found: dict | None = None) -> tuple[str, ...]:
    """The .html/.htm pages under a folder, relative to it, each file once (discovery's listing)."""
    found = {} if found is None else found
    fs, root = filesystem(uri)
    files, seen, members = _listing(fs, root, found), set(), []
    for f in files:
        if f.path.lower().endswith(HTML_SUFFIXES) and f.key not in seen:
            seen.add(f.key)
            members.append(f.path[len(root.rstrip("/")) + 1:])
    return tuple(members)


def _listing(fs: pafs.FileSystem, root: str, found: dict) -> list[_File]:
    """The files under a folder, in a stable order (by path components)."""
    if isinstance(fs, pafs.LocalFileSystem):
        files = _walk_local(root, found)
    else:
        files = [_File(f.path, f.size or 0, _mtime(f), f.path)
                 for f in fs.get_file_info(pafs.FileSelector(root, recursive=True)) if f.type == pafs.FileType.File]
    return sorted(files, key=lambda f: f.path.split("/"))


def _file_key(fs: pafs.FileSystem, path: str) -> tuple | str:
    if isinstance(fs, pafs.LocalFileSystem):
        st = os.stat(path)
        return st.st_dev, st.st_ino
    return path


def discover(inputs: list[str], found: dict | None = None) -> list[Source]:
    """Expand files and folders into sources, in a stable order, each file once (however often it is reached:
    given twice, through a link, inside a folder also given; link loops end). ``found``, if given, collects what
    was left out: ``duplicates``, ``folders_reached_twice``, ``broken_links``, ``unreadable``.
    Raises ValueError/FileNotFoundError saying what to do."""
    if isinstance(inputs, (str, bytes)):
        raise ValueError("inputs must be a list of paths or URIs, not one string")
    found = {} if found is None else found
    out: list[Source] = []
    seen: dict = {}  # file key -> the path it was first read as

    def first(key, path: str) -> bool:
        if key in seen:
            _note(found, "duplicates", f"{path} (given more than once)" if seen[key] == path else
                  f"{path} (the same file as {seen[key]})")
            return False
        seen[key] = path
        return True

    for item in map(str, inputs):
        fs, path = filesystem(item)
        info = _info(fs, path)
        if info.type == pafs.FileType.Directory:
            members, html_bytes, ignored, changed = [], 0, [], 0
            for f in _listing(fs, path, found):
                name = f.path.rsplit("/", 1)[-1]
                kind = _kind(name)
                if kind is None and not name.lower().endswith(HTML_SUFFIXES):
                    ignored.append(name)
                elif not first(f.key, f.path):
                    continue
                elif kind:
                    out.append(Source(kind, _uri(fs, f.path, item), f.size, f.mtime_ns, change_ns=f.change_ns))
                else:
                    members.append(f.path[len(path.rstrip("/")) + 1:])
                    html_bytes += f.size
                    changed = max(changed, f.change_ns)  # the newest edit of any page
            if ignored:
                log.warning("%s: ignoring %d file(s) that are neither archives nor .html pages: %s%s", item,
                            len(ignored), ", ".join(ignored[:5]), " ..." if len(ignored) > 5 else "")
            if members:
                out.append(Source("htmldir", _uri(fs, path, item), html_bytes, _mtime(info), tuple(members),
                                  changed))
        elif info.type == pafs.FileType.File:
            kind = _kind(info.base_name)
            if kind is None:
                raise ValueError(f"{item}: not a .warc/.warc.gz/.arc/.arc.gz/.wet.gz/.tar.gz file or a folder; "
                                 "pass archives, tar files of .html pages, or folders of them")
            if first(_file_key(fs, path), path):
                change = os.stat(path).st_ctime_ns if isinstance(fs, pafs.LocalFileSystem) else 0
                out.append(Source(kind, _uri(fs, path, item), info.size or 0, _mtime(info), change_ns=change))
        else:
            raise FileNotFoundError(f"{item}: no such file or folder")
    for key, what in (("duplicates", "input file(s) reached more than once (given twice, through a link, or "
                                     "inside a folder also given) are read once"),
                      ("folders_reached_twice", "folder(s) reached a second time through a link (a loop?) are "
                                                "read once"),
                      ("broken_links", "link(s) lead nowhere and are left out"),
                      ("not_files", "entries are not files (a fifo, socket or device) and are left out"),
                      ("unreadable", "folder(s) could not be listed")):
        if found.get(key):
            log.warning("%d %s, e.g. %s", len(found[key]), what, found[key][0])
    if not out:
        raise ValueError(f"no WARC/ARC archives, tar files or .html pages found in {', '.join(map(str, inputs))}")
    return out
