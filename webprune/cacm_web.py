"""CACM documents placed inside real web-page boilerplate: a judged collection with templates.

CACM is the only judged collection here whose documents exist, but its documents
are clean. This wraps every CACM document in the boilerplate of a real page from
../shared/data/cleaning (L3S-GN1 news pages and CleanEval pages): the page's
tag-removed lines that are NOT in its human gold text (menus, footers, related
links, ...), half before and half after the document, with link lines kept as
links. Page i gets the template of real page i mod N, so the output is
deterministic. Written as a WARC with WARC-TREC-ID = the CACM id, so the CACM
topics and qrels apply unchanged.
Built by ``configs/cacm-web-*.toml`` (``prepare``) or ``scripts/tools/make_cacm_web.py``.
"""
from __future__ import annotations

import html
import re
import tarfile
from pathlib import Path

from eval.cleaning.gold import gold_pages
from preprocess.core.document import Document
from preprocess.run.pipeline import run_steps
from preprocess.steps.decode import Decode
from preprocess.steps.parse import Parse
from preprocess.steps.tags import TagRemoval
from webprune.benchdata import shared_data
from webprune.warcpack import pack_pages

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


def build(output: str | Path, n_templates: int = 400) -> Path:
    """Write the CACM-web WARC to ``output`` unless it exists; returns its path."""
    output = Path(output)
    if output.exists():
        return output
    shared = shared_data()
    tpls = templates(shared, ["l3s-gn1", "cleaneval-final"], n_templates)
    with tarfile.open(shared / "retrieval" / "cacm" / "cacm.tar.gz") as tar:
        members = sorted((m for m in tar if m.isfile() and m.name.endswith(".html")), key=lambda m: m.name)
        pages = [(Path(m.name).stem, f"http://cacm.example/{Path(m.name).stem}.html",
                  wrap(tar.extractfile(m).read(), tpls[i % len(tpls)])) for i, m in enumerate(members)]
    pack_pages(pages, output)
    return output


def prepare(inputs: list[Path]) -> None:
    """A config's ``prepare`` hook: build the (one) CACM-web input."""
    build(inputs[0])
