#!/usr/bin/env python
"""CACM documents placed inside real web-page boilerplate: a judged collection with templates.

CACM is the only judged collection here whose documents exist, but its documents
are clean. This wraps every CACM document in the boilerplate of a real page from
../shared/data/cleaning (L3S-GN1 news pages and CleanEval pages): the page's
tag-removed lines that are NOT in its human gold text (menus, footers, related
links, ...), half before and half after the document, with link lines kept as
links. Page i gets the template of real page i mod N, so the output is
deterministic. Written as a WARC with WARC-TREC-ID = the CACM id, so the CACM
topics and qrels apply unchanged.
Usage: scripts/make_cacm_web.py [--output build/cacm-web/cacm-web.warc.gz]
"""
from __future__ import annotations

import argparse
import html
import re
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from eval.cleaning.gold import gold_pages  # noqa: E402
from preprocess.document import Document  # noqa: E402
from preprocess.pipeline import run_steps  # noqa: E402
from preprocess.steps.decode import Decode  # noqa: E402
from preprocess.steps.parse import Parse  # noqa: E402
from preprocess.steps.tags import TagRemoval  # noqa: E402
from webprune.warcpack import pack_pages  # noqa: E402

_W = re.compile(r"\w+")


def words(t: str) -> str:
    return " ".join(_W.findall(t.lower()))


def templates(shared: Path, sets: list[str], limit: int) -> list[list[tuple[str, float]]]:
    """Boilerplate lines (text, link density) of real pages that have some."""
    steps = [Decode(), Parse(), TagRemoval(line_features=True)]
    out = []
    for page in gold_pages(shared, sets):
        docs = [Document(id=page.name, content_type="text/html", raw=page.input.read_bytes())]
        docs = run_steps(steps, docs)
        gold = " " + words(page.gold_text()) + " "
        if not docs or len(gold) < 200:
            continue
        lines = [(line.text, line.link_density) for line in docs[0].lines
                 if words(line.text) and f" {words(line.text)} " not in gold]
        if len(lines) >= 10:
            out.append(lines)
        if len(out) >= limit:
            break
    return out


def render(block: list[tuple[str, float]]) -> str:
    parts = []
    for line, ld in block:
        text = html.escape(line)
        parts.append(f'<li><a href="#">{text}</a></li>' if ld > 0.5 else f"<p>{text}</p>")
    return "\n".join(parts)


def wrap(doc_html: bytes, template: list[tuple[str, float]]) -> bytes:
    body = doc_html.decode("utf-8", "replace")
    m = re.search(r"<pre>(.*?)</pre>", body, re.S)
    text = m.group(1) if m else re.sub(r"<[^>]+>", " ", body)
    lines = [l.strip() for l in text.strip().splitlines()]
    title = next((l for l in lines if l), "")
    half = len(template) // 2
    page = (f"<html><head><title>{html.escape(title)}</title></head><body>\n"
            f'<div class="header"><ul>\n{render(template[:half])}\n</ul></div>\n'
            f'<div class="article">\n' + "\n".join(f"<p>{html.escape(l)}</p>" for l in lines if l) + "\n</div>\n"
            f'<div class="footer"><ul>\n{render(template[half:])}\n</ul></div>\n</body></html>\n')
    return page.encode("utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--output", type=Path, default=ROOT / "build" / "cacm-web" / "cacm-web.warc.gz")
    ap.add_argument("--templates", type=int, default=400)
    a = ap.parse_args()
    if a.output.exists():
        print(a.output)
        return
    tpls = templates(a.shared, ["l3s-gn1", "cleaneval-final"], a.templates)
    with tarfile.open(a.shared / "retrieval" / "cacm" / "cacm.tar.gz") as tar:
        members = sorted((m for m in tar if m.isfile() and m.name.endswith(".html")), key=lambda m: m.name)
        pages = [(Path(m.name).stem, f"http://cacm.example/{Path(m.name).stem}.html",
                  wrap(tar.extractfile(m).read(), tpls[i % len(tpls)])) for i, m in enumerate(members)]
    n = pack_pages(pages, a.output)
    print(f"{n} CACM documents in {len(tpls)} real templates -> {a.output}", file=sys.stderr)
    print(a.output)


if __name__ == "__main__":
    main()
