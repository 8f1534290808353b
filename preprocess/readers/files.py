"""Pages that come as files: a tar of .html pages, or a folder of them. Ids: :mod:`preprocess.core.ids`.

A tar is read as a stream, twice: first its member names (for unique ids, and to know
which members hard links point to), then the pages. Every member but a folder is a
record: an .html/.htm file or hard link becomes a page (a hard link with its target's
bytes, kept from earlier in the stream; ``failed.broken_link`` when the target is not
there), any other file is ``skipped.non_html``, a symbolic link ``skipped.symlink`` (a
link holds no page, and its target may lie outside the tar), a device or fifo
``skipped.not_a_file``. Names with ``..`` or a leading ``/`` are only read, never
extracted. A member cut short by the end of the file is ``failed.corrupt``.
"""
from __future__ import annotations

import logging
import tarfile
import zlib
from typing import Iterator

from preprocess.core.document import Document
from preprocess.core.ids import member_path, page_ids, safe_id, shown, stem
from preprocess.core.paths import filesystem, join, open_input
from preprocess.readers.sources import HTML_SUFFIXES, Source, html_members
from preprocess.core.stats import Stats

log = logging.getLogger("webprune.preprocess")
_ERRORS = (tarfile.TarError, OSError, EOFError, zlib.error)


def _corrupt(stats: Stats, path: str, offset, exc: Exception, hint: str) -> None:
    stats.update("records")
    stats.outcome("failed", "corrupt", example=f"{path} @ {offset}: {type(exc).__name__}: {exc}", rid=f"@{offset}")
    log.warning("%s: unreadable from offset %s (%s: %s); %s. Counted as failed.corrupt; going on with the next input.",
                path, offset, type(exc).__name__, str(exc).strip().splitlines()[0] if str(exc).strip() else "", hint)


def _is_page(member: tarfile.TarInfo) -> bool:
    return (member.isfile() or member.islnk()) and member.name.lower().endswith(HTML_SUFFIXES)


def _scan(src: Source) -> list[tarfile.TarInfo]:
    """The members of a tar, headers only, as far as it can be read."""
    members = []
    try:
        with src.open() as fh, tarfile.open(fileobj=fh, mode="r|*") as tar:
            for member in tar:
                members.append(member)
    except _ERRORS:
        pass  # the reading pass meets the same end and counts it
    return members


def unit_page_names(src: Source) -> list[str]:
    """The names of a unit's pages, in reading order (the ids' census)."""
    if src.kind == "tar":
        return [m.name for m in _scan(src) if _is_page(m)]
    return list(src.members or html_members(src.uri))


def _renamed(ids: list[str], names: list[str], renames: dict | None, stats: Stats, uri: str) -> list[tuple[str, dict]]:
    """The final ids (cross-unit renames applied) and their fields (``source_id`` for a name that had to be made
    safe, :mod:`preprocess.core.ids`); pages whose id is not their stem are counted."""
    out = []
    for name, i in zip(names, ids):
        final, fields = (renames or {}).get(i, i), {}
        if safe_id(member_path(name)) != member_path(name) or safe_id(stem(name)) != stem(name):
            fields["source_id"] = shown(member_path(name))
            stats.update("read.id_escaped")
            stats.note("read.id_escaped", f"{shown(uri)}:{shown(name)!r} -> {final}")
        if final != safe_id(stem(name)):
            stats.update("read.duplicate_id_renamed")
            stats.note("read.duplicate_id_renamed", f"{shown(uri)}:{shown(name)} -> {final} (another page has the "
                       f"id {safe_id(stem(name))})")
        out.append((final, fields))
    return out


def _link_targets(members: list[tarfile.TarInfo]) -> set[str]:
    """Members whose bytes a page's hard link needs (through chains of hard links)."""
    links = {member_path(m.name): member_path(m.linkname) for m in members if m.islnk()}
    wanted = {links[member_path(m.name)] for m in members if m.islnk() and _is_page(m)}
    todo = list(wanted)
    while todo:
        target = links.get(todo.pop())
        if target is not None and target not in wanted:
            wanted.add(target)
            todo.append(target)
    return wanted


def _page(rid: str, data: bytes, source: str, fields: dict) -> Document:
    return Document(id=rid, url="", source=source, content_type="text/html", raw=data, fields=dict(fields))


def read_tar(src: Source, stats: Stats, renames: dict | None = None) -> Iterator[Document]:
    """A tar (optionally gzipped) of .html pages (see the module's docstring for what each member counts as)."""
    scanned = _scan(src)
    pages = [m for m in scanned if _is_page(m)]
    ids = iter(_renamed(page_ids([m.name for m in pages]), [m.name for m in pages], renames, stats, src.uri))
    wanted = _link_targets(scanned)
    kept: dict[str, bytes] = {}  # bytes of members that a later hard link points to
    try:
        with src.open() as fh, tarfile.open(fileobj=fh, mode="r|*") as tar:
            members = iter(tar)
            while True:
                try:
                    member = next(members)
                except StopIteration:
                    return
                except _ERRORS as exc:
                    _corrupt(stats, src.uri, "tar stream", exc, "the tar file is truncated or corrupt")
                    return
                doc = _member(tar, member, src, stats, ids, wanted, kept)
                if doc is False:
                    return
                if doc is not None:
                    yield doc
    except _ERRORS as exc:  # not a tar at all
        _corrupt(stats, src.uri, "tar stream", exc, "the tar file is truncated or corrupt")


def _member(tar, member: tarfile.TarInfo, src: Source, stats: Stats, ids, wanted: set, kept: dict):
    """One member: a Document, None (counted, no page), or False (the stream broke: stop)."""
    if member.isdir():
        return None
    stats.update("records")
    where, name_id = shown(f"{src.uri}:{member.name}"), safe_id(member_path(member.name))
    if member.issym():
        stats.outcome("skipped", "symlink", example=f"{where} -> {shown(member.linkname)}", rid=name_id)
        return None
    if not (member.isfile() or member.islnk()):
        stats.outcome("skipped", "not_a_file", example=where, rid=name_id)
        return None
    page, name = _is_page(member), member_path(member.name)
    data = None
    if member.islnk():
        data = kept.get(member_path(member.linkname))
    elif page or name in wanted:
        try:
            data = tar.extractfile(member).read()
        except _ERRORS as exc:
            stats.outcome("failed", "corrupt", example=f"{where}: {type(exc).__name__}: {exc}", rid=name_id)
            log.warning("%s: the tar file ends inside this member (%s); counted as failed.corrupt", where, exc)
            return False
    if name in wanted and data is not None:
        kept[name] = data
    if not page:
        stats.outcome("skipped", "non_html", example=where, rid=name_id)
        return None
    rid, fields = next(ids, None) or (safe_id(stem(member.name)), {})
    if data is None:  # a hard link whose target is not (readable) earlier in the tar
        stats.outcome("failed", "broken_link", rid=rid,
                      example=f"{where}: a hard link to {shown(member.linkname)}, which is not earlier in the tar")
        return None
    if member.islnk():
        stats.update("read.hard_links")
    return _page(rid, data, src.uri, fields)


def read_html_dir(src: Source, stats: Stats, renames: dict | None = None) -> Iterator[Document]:
    """The .html/.htm pages of a folder (listed at discovery, each file once; archives there are separate sources)."""
    fs, root = filesystem(src.uri)
    names = list(src.members or html_members(src.uri))
    for name, (rid, fields) in zip(names, _renamed(page_ids(names), names, renames, stats, src.uri)):
        stats.update("records")
        path = join(root, name)
        try:
            with open_input(fs, path) as fh:
                data = fh.read()
        except OSError as exc:
            stats.outcome("failed", "unreadable", example=f"{shown(path)}: {exc}", rid=rid)
            log.info("%s: cannot read (%s); skipped", shown(path), exc)
            continue
        yield _page(rid, data, src.uri, fields)

