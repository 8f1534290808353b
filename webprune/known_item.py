"""A known-item benchmark from real news pages: each L3S-GN1 page's headline finds its own page.

L3S-GN1 (../shared/data/cleaning/l3s-gn1) has 621 news pages whose main content people
marked up; the span of class ``x-nc-sel1`` is the headline. The benchmark: every page is
a document (WARC-TREC-ID = the page's file stem), every page with a labelled headline is
a topic whose query is that headline, and the page itself is the one relevant document.
So MRR@10 and P@1 say how often cleaning keeps a page findable by its own title words
while its menus, teasers and related-article links (other pages' headlines) compete.
Built by ``configs/l3s-known-item.toml`` (``prepare``): the WARC plus ``topics.txt``
(TREC format) and ``qrels.txt`` beside it.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from eval.cleaning.gold import gold_pages, page_url
from webprune.benchdata import shared_data
from webprune.warcpack import pack_pages

HEADLINE = "x-nc-sel1"
HOST = "http://l3s-gn1.example/"
_SPACE = re.compile(r"\s+")


def headline(gold_html: bytes | str) -> str:
    """The human-labelled headline of an L3S-GN1 gold page ('' when none is labelled)."""
    import lxml.html

    root = lxml.html.fromstring(gold_html)
    parts = [el.text_content() for el in root.iter()
             if isinstance(el.tag, str) and HEADLINE in (el.get("class") or "").split()
             and not any(HEADLINE in (a.get("class") or "").split() for a in el.iterancestors())]
    return _SPACE.sub(" ", html.unescape(" ".join(parts))).strip()


def build(warc: str | Path, shared: Path | None = None) -> dict:
    """Write the WARC, ``topics.txt`` and ``qrels.txt`` (beside it) unless all exist; returns their paths."""
    warc = Path(warc)
    topics, qrels = warc.parent / "topics.txt", warc.parent / "qrels.txt"
    out = {"warc": warc, "topics": topics, "qrels": qrels}
    if all(p.exists() for p in out.values()):
        return out
    pages = gold_pages(shared or shared_data(), ["l3s-gn1"])
    if not pages:
        raise FileNotFoundError("no L3S-GN1 pages found under ../shared/data/cleaning/l3s-gn1")
    records, items = [], []
    for page in pages:
        raw = page.input.read_bytes()
        records.append((page.name, page_url(raw) or HOST + page.name + ".html", raw))
        title = headline(page.gold.read_bytes())
        if re.search(r"\w", title):
            items.append((page.name, title))
    pack_pages(records, warc)
    topics.write_text("".join(f"<top>\n<num> Number: {i}\n<title> {title}\n</top>\n\n"
                              for i, (_, title) in enumerate(items, 1)), encoding="utf-8")
    qrels.write_text("".join(f"{i} 0 {name} 1\n" for i, (name, _) in enumerate(items, 1)))
    return out


def prepare(inputs: list[Path]) -> None:
    """A config's ``prepare`` hook: build the (one) L3S-GN1 WARC with its topics and qrels."""
    build(inputs[0])
