"""Ids of pages that come as files (tar members, a folder's .html files): unique in the whole collection.

Lucene keeps every document it is given, so two pages with one id would both be
indexed and a qrel would match either. The rule:

* within a unit, a page's id is its file stem (``CACM-0001``) when no other page of
  the unit has that stem, else its path in the unit (``2019/index.html``); a path a tar
  holds twice gets ``#2``, ``#3`` on its later copies;
* across units (two tars that both hold ``index.html``), an id found in more than one
  unit is prefixed, in every unit that has it, with the unit's source name
  (``siteA/index``; the shard's name ``00003-siteA`` when two sources share a name).

The cross-unit step needs every unit's names first: :class:`preprocess.census.IdCensus` is a learning
pass (run only when two or more units hold such pages) that lists them on the workers
and leaves the renames in ``OUT/learned/page_ids.json``; readers apply them. Pages
whose id is not their stem are counted in ``read.duplicate_id_renamed``.
"""
from __future__ import annotations

import posixpath
from collections import Counter

CENSUS = "preprocess.census:IdCensus"
FILE_KINDS = ("tar", "htmldir")


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
    """The ids of a unit's pages, from their names in reading order (see the module's rule)."""
    stems = Counter(stem(n) for n in names)
    return unique([stem(n) if stems[stem(n)] == 1 else member_path(n) for n in names])


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
