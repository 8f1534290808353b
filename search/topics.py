"""Topic readers: TREC ``<top>`` and CACM ``<DOC>`` files, TREC Web Track XML, Decision Track XML.

``read_topics(path, field)`` returns ``{qid: text}`` in file order; ``field`` is
``query`` (TREC ``<title>``, XML ``<query>``) or ``description``. The format is
detected from the content; pass ``fmt`` to force one.
"""
from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

FIELDS = ("query", "description")
FORMATS = ("trec", "cacm", "webxml", "dtxml")


def detect_format(text: str) -> str:
    head = text[:5000]
    if "<topic number=" in head:
        return "webxml"
    if re.search(r"<topic>\s*<number>", head):
        return "dtxml"
    if "<DOCNO>" in head:
        return "cacm"
    if "<top>" in head or "<num>" in head:
        return "trec"
    raise ValueError("unknown topic format: expected TREC <top>, CACM <DOC>, Web Track or Decision Track XML")


def _clean(s: str) -> str:
    return " ".join(s.split())


def _trec(text: str, field: str) -> dict[str, str]:
    out = {}
    for block in re.findall(r"<top>(.*?)</top>", text, re.S | re.I):
        num = re.search(r"<num>\s*(?:Number:)?\s*(\S+)", block, re.I)
        # Each field runs up to the next tag; <title> text may span lines.
        parts = dict((tag.lower(), body) for tag, body in re.findall(r"<(title|desc|narr)>(.*?)(?=<[a-z/]|\Z)", block, re.S | re.I))
        if field == "description":
            body = re.sub(r"^\s*Description:", "", parts.get("desc", ""), flags=re.I)
        else:
            body = re.sub(r"^\s*Topic:", "", parts.get("title", ""), flags=re.I)
        if num:
            out[num.group(1)] = _clean(body)
    return out


def _cacm(text: str, field: str) -> dict[str, str]:
    # CACM has one text per topic: it serves as both query and description.
    return {num: _clean(body) for num, body in re.findall(r"<DOCNO>\s*(\S+)\s*</DOCNO>(.*?)</DOC>", text, re.S)}


def _xml(path: Path, fmt: str, field: str) -> dict[str, str]:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, recover=True)
    root = etree.parse(str(path), parser).getroot()
    out = {}
    for topic in root.iter("topic"):
        qid = topic.get("number") if fmt == "webxml" else topic.findtext("number")
        body = topic.findtext(field) or ""
        if qid:
            out[qid.strip()] = _clean(body)
    return out


def read_topics(path: str | Path, field: str = "query", fmt: str | None = None) -> dict[str, str]:
    if field not in FIELDS:
        raise ValueError(f"--field must be one of {FIELDS}, not {field!r}")
    path = Path(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    fmt = fmt or detect_format(text)
    if fmt in ("webxml", "dtxml"):
        topics = _xml(path, fmt, field)
    elif fmt == "cacm":
        topics = _cacm(text, field)
    elif fmt == "trec":
        topics = _trec(text, field)
    else:
        raise ValueError(f"unknown topic format {fmt!r}; one of {FORMATS}")
    empty = [q for q, t in topics.items() if not t]
    if not topics:
        raise ValueError(f"{path}: no topics found (format {fmt})")
    if empty:
        raise ValueError(f"{path}: topics {', '.join(empty[:5])} have no {field} text; try --field "
                         f"{'description' if field == 'query' else 'query'}")
    return topics
