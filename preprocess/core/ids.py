"""Document ids: one rule for what an id may hold, and unique ids for pages that come as files.

**What an id may hold.** A document id is what Lucene keeps and what a TREC run file names in one
whitespace-separated column, so an id holds no whitespace (Unicode's, not only ASCII's), no control or other
unprintable character, and only valid Unicode; it is at most :data:`MAX_ID_BYTES` bytes of UTF-8. A source id
(a ``WARC-TREC-ID``, a ``WARC-Record-ID``, a tar member's or a file's name) that already keeps the rule is the
document id unchanged. One that does not is made safe by :func:`safe_id`: each character it may not hold, and
each ``%`` in it, is written as ``%XX`` of its UTF-8 bytes, and each byte that was not UTF-8 (a header or file
name in another encoding) as ``%XX`` of that byte, so ``urllib.parse.unquote_to_bytes(id)`` gives the source
id's bytes back exactly and two different source ids never become one id; one still longer than the limit is
cut and ends in ``~`` and 16 hex digits of its SHA-1. The record then also carries the source id as text in
its ``source_id`` field (bytes that were not UTF-8 as ``\\xNN``), and the reader counts it in
``read.id_escaped``. Ids that two records share are resolved where they are written
(:mod:`preprocess.run.duplicates`).

**Pages that come as files** (tar members, a folder's .html files) get ids unique in the whole collection.
Lucene keeps every document it is given, so two pages with one id would both be indexed and a qrel would match
either. The rule:

* within a unit, a page's id is its file stem (``CACM-0001``) when no other page of the unit has that stem, else
  its path in the unit (``2019/index.html``); a path a tar holds twice gets ``#2``, ``#3`` on its later copies;
* across units (two tars that both hold ``index.html``), an id found in more than one unit is prefixed, in every
  unit that has it, with the unit's source name (``siteA/index``; the shard's name ``00003-siteA`` when two
  sources share a name).

The cross-unit step needs every unit's names first: :class:`preprocess.readers.census.IdCensus` is a learning
pass (run only when two or more units hold such pages) that lists them on the workers
and leaves the renames in ``OUT/learned/page_ids.json``; readers apply them. Pages
whose id is not their stem are counted in ``read.duplicate_id_renamed``.
"""
from __future__ import annotations

import hashlib
import posixpath
import re
from collections import Counter

CENSUS = "preprocess.readers.census:IdCensus"
FILE_KINDS = ("tar", "htmldir")
MAX_ID_BYTES = 1024  # far under Lucene's 32,766 bytes a term
_PLAIN = re.compile(r"[!-~]{1,%d}" % MAX_ID_BYTES)  # printable ASCII, no space: the usual id, kept as it is


def _unsafe(c: str) -> bool:
    return c.isspace() or not c.isprintable()  # (a byte that was not UTF-8 is a surrogate: not printable)


def safe_id(source: str) -> str:
    """``source`` as a document id that keeps the module's rule: itself when it does already."""
    if _PLAIN.fullmatch(source):
        return source
    if any(_unsafe(c) for c in source):
        out = []
        for c in source:
            o = ord(c)
            if 0xDC80 <= o <= 0xDCFF:  # a byte that was not UTF-8 (decoded with surrogateescape)
                out.append(f"%{o - 0xDC00:02X}")
            elif c == "%" or _unsafe(c):
                out.append("".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogatepass")))
            else:
                out.append(c)
        source = "".join(out)
    data = source.encode("utf-8")
    if len(data) > MAX_ID_BYTES:
        cut = data[:MAX_ID_BYTES - 17].decode("utf-8", "ignore")
        source = f"{cut}~{hashlib.sha1(data).hexdigest()[:16]}"
    return source


def shown(text: str) -> str:
    """``text`` with each byte that was not UTF-8 (a surrogate escape) as ``\\xNN``: fit for JSON and logs."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def shown_all(data):
    """``data`` (JSON-like) with :func:`shown` applied to every string in it, keys included."""
    if isinstance(data, str):
        return shown(data)
    if isinstance(data, dict):
        return {shown_all(k): shown_all(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [shown_all(v) for v in data]
    return data


def json_text(data, **kw) -> str:
    """``json.dumps(data, ensure_ascii=False, **kw)`` that UTF-8 can hold: a file name or header that was not
    UTF-8 is shown as ``\\xNN`` (:func:`shown`) rather than failing the write."""
    import json

    text = json.dumps(data, ensure_ascii=False, **kw)
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return json.dumps(shown_all(data), ensure_ascii=False, **kw)


def escaped(source: str, stats, where: str = "") -> tuple[str, str | None]:
    """(document id, the source id as text when the id differs from it, else None); a changed id is counted in
    ``read.id_escaped``."""
    doc_id = safe_id(source)
    if doc_id == source:
        return doc_id, None
    stats.update("read.id_escaped")
    stats.note("read.id_escaped", f"{shown(source)!r} -> {doc_id}" + (f" ({shown(where)})" if where else ""))
    return doc_id, shown(source)


def member_path(name: str) -> str:
    """A member's path as an id: normalised, without a leading ``/`` (``..`` kept: names are only read)."""
    return posixpath.normpath(name.replace("\\", "/").lstrip("/")) if name.strip("/") else name


def stem(name: str) -> str:
    base = posixpath.basename(member_path(name))
    return base.rsplit(".", 1)[0] or base  # ".html" alone keeps its name: an id is never empty


def unique(ids: list[str], taken: set[str] | None = None) -> list[str]:
    """``ids`` with a later repeat of an id (or one in ``taken``) suffixed ``#2``, ``#3``..."""
    taken = set() if taken is None else taken
    out = []
    for i in ids:
        new, k = i, 1
        while new in taken:
            k += 1
            new = f"{i}#{k}"
        taken.add(new)
        out.append(new)
    return out


def page_ids(names: list[str]) -> list[str]:
    """The ids of a unit's pages, from their names in reading order (see the module's rule), made safe."""
    stems = Counter(safe_id(stem(n)) for n in names)
    return unique([s if stems[s] == 1 else safe_id(member_path(n)) for s, n in ((safe_id(stem(n)), n) for n in names)])


def needs_census(sources) -> bool:
    return sum(1 for s in sources if s.kind in FILE_KINDS) > 1


def cross_unit_renames(units: list[tuple[int, str, str, list[str]]]) -> dict[str, dict[str, str]]:
    """``units``: (index, source name, shard stem, ids) in unit order -> {index: {id: new id}} for ids that
    more than one unit holds."""
    seen = Counter(i for _, _, _, ids in units for i in set(ids))
    names = Counter(name for _, name, _, _ in units)
    renames: dict[str, dict[str, str]] = {}
    taken = {i for _, _, _, ids in units for i in ids if seen[i] == 1}
    for index, name, shard, ids in units:
        prefix = name if names[name] == 1 else shard
        shared = [i for i in ids if seen[i] > 1]
        new = unique([f"{prefix}/{i}" for i in shared], taken)
        if shared:
            renames[str(index)] = dict(zip(shared, new))
    return renames
