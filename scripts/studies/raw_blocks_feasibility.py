#!/usr/bin/env python
"""How close are the learned cleaner's blocks read off the raw markup to those read off lexbor's tree?

    scripts/studies/raw_blocks_feasibility.py [--sets cleaneval-dev,...,wcxb-dev] [--limit N] [--tree-rules]
    scripts/studies/raw_blocks_feasibility.py --cost [--sets ...] [--limit N]

Issue 23's remaining cost is lexbor's parse and the ``<body>`` serialisation the learned scan reads (~0.6 ms
of ~2.5 a page). A scan of the raw markup would skip both, but it sees the page before the tree builder's
repairs (implicit ends, misnested blocks, foster parenting). This measures that gap before any such scan is
written: per page, the blocks of ``blocks.split_python`` on lexbor's serialisation against a naive reading
of the raw markup (the standard library's tokenizer, character references decoded, the same noise elements
and block-level tags, a stack of block elements where an end tag closes up to its open element and a stray
one is ignored; ``--tree-rules`` adds the commonest implicit ends of HTML's tree builder). Printed: the share of pages whose block texts are identical, of those whose element
structure (tag, parent, depth per element) is identical too, and the share of block characters in blocks
matched in order (difflib) on the rest. ``--cost`` prints what a raw scan would save instead: CPU ms a page of
lexbor's parse and of the serialisation, and of the compiled block scan (``_scan.scan``, as it is) over the
serialisation and over the decoded page, with the pages where the scan gives up (a noise element's end it cannot
be sure of). Nothing here changes the product.
"""
from __future__ import annotations

import argparse
import difflib
import sys
import time
from html.parser import HTMLParser

from resiliparse.parse.html import HTMLTree

from eval.cleaning.gold import gold_pages
from eval.cleaning.harness import strip_wrapper
from preprocess.cleaners.learned import compiled
from preprocess.cleaners.learned.blocks import BLOCK_TAGS, NOISE, TAG_INDEX, VOID, body_markup, split_python
from preprocess.core.document import Document
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import build_steps, run_steps
from webprune.benchdata import shared_data

BLOCK = frozenset(BLOCK_TAGS) - {"body"}
NOISE_SET = frozenset(NOISE)
HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
CLOSES_P = frozenset(("address", "article", "aside", "blockquote", "center", "details", "dialog", "div", "dl",
                      "fieldset", "figcaption", "figure", "footer", "header", "main", "menu", "nav", "ol", "p",
                      "section", "summary", "ul", "pre", "form", "hr", "table", "li", "dd", "dt")) | HEADINGS
SCOPE = frozenset(("table", "td", "th", "caption", "html", "template", "object"))


class RawBlocks(HTMLParser):
    """Blocks and block elements of the raw markup after the first ``<body>`` (or the first body-only tag)."""

    def __init__(self, tree_rules: bool = False):
        super().__init__(convert_charrefs=True)
        self.tree_rules = tree_rules
        self.texts: list[str] = []
        self.elements: list[tuple[int, int, int]] = []  # (tag index, parent, depth)
        self.stack: list[tuple[str, int]] = []
        self.buf: list[str] = []
        self.noise = 0
        self.in_body = False

    def flush(self) -> None:
        t = " ".join("".join(self.buf).split())
        if t:
            self.texts.append(t)
        self.buf.clear()

    def handle_starttag(self, tag, attrs):
        if not self.in_body:
            if tag != "body" and tag not in BLOCK:
                return
            self.in_body = True
            self.elements.append((TAG_INDEX["body"], -1, 0))
            self.stack.append(("body", 0))
        if tag == "body":
            return
        if tag in NOISE_SET and tag not in ("script", "style"):  # (the tokenizer skips those bodies itself)
            self.noise += 1
            return
        if self.noise or tag not in BLOCK:
            return
        self.flush()
        if tag in VOID:
            return
        if self.tree_rules:
            self.implicit_ends(tag)
        parent = self.stack[-1][1] if self.stack else -1
        self.elements.append((TAG_INDEX[tag], parent, len(self.stack)))
        self.stack.append((tag, len(self.elements) - 1))

    def close_to(self, names, scope) -> None:
        """Pop up to and including the innermost element named in ``names`` unless a ``scope`` element comes
        first."""
        for i in range(len(self.stack) - 1, 0, -1):
            n = self.stack[i][0]
            if n in names:
                del self.stack[i:]
                return
            if n in scope:
                return

    def implicit_ends(self, tag) -> None:
        """The tree builder's commonest implicit ends (HTML's "in body" insertion mode), block elements only."""
        if tag in CLOSES_P:
            self.close_to(("p",), SCOPE | {"button"})
        if tag == "li":
            self.close_to(("li",), SCOPE | {"ul", "ol"})
        elif tag in ("dd", "dt"):
            self.close_to(("dd", "dt"), SCOPE)
        elif tag in HEADINGS and self.stack and self.stack[-1][0] in HEADINGS:
            self.stack.pop()
        elif tag in ("td", "th"):
            self.close_to(("td", "th"), {"table", "tr"})
        elif tag == "tr":
            self.close_to(("tr",), {"table"})
        elif tag in ("thead", "tbody", "tfoot"):
            self.close_to(("thead", "tbody", "tfoot"), {"table"})
        elif tag == "option":
            self.close_to(("option",), SCOPE)
        if tag == "tr" and self.stack and self.stack[-1][0] == "table":  # an implied <tbody>
            self.push("tbody")

    def push(self, tag) -> None:
        parent = self.stack[-1][1] if self.stack else -1
        self.elements.append((TAG_INDEX[tag], parent, len(self.stack)))
        self.stack.append((tag, len(self.elements) - 1))

    def handle_startendtag(self, tag, attrs):
        if tag in BLOCK and not self.noise and self.in_body:
            self.flush()

    def handle_endtag(self, tag):
        if tag in NOISE_SET and tag not in ("script", "style"):
            self.noise = max(0, self.noise - 1)
            return
        if self.noise or tag not in BLOCK or not self.in_body:
            return
        self.flush()
        names = [n for n, _ in self.stack]
        if tag in names[1:]:  # (body stays open)
            while self.stack and self.stack.pop()[0] != tag:
                pass

    def handle_data(self, data):
        if self.in_body and not self.noise and self.lasttag not in ("script", "style", "title"):
            self.buf.append(data)


def raw_blocks(html: str, tree_rules: bool) -> RawBlocks:
    p = RawBlocks(tree_rules)
    try:
        p.feed(html)
        p.close()
    except Exception:  # (the standard tokenizer gives up on some markup: counted as different)
        pass
    p.flush()
    return p


def decoded_pages(shared, name: str, limit: int | None):
    """The decoded text of each page of a gold set that decodes (the product's own decode step)."""
    decode = build_steps(CleanOptions(cleaner="tags"), stop_before="parse")
    for page in gold_pages(shared, [name])[:limit]:
        docs = run_steps(decode, [Document(id="p", content_type="text/html", raw=strip_wrapper(page.raw()))])
        if docs and docs[0].html is not None:
            yield docs[0].html


def cost_table(shared, sets: list[str], limit: int | None) -> None:
    clock = time.process_time
    print("| set | pages | parse | serialisation | scan of the serialisation | scan of the raw page | "
          "raw scan gave up |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in sets:
        t = dict.fromkeys(("parse", "serialise", "scan", "raw"), 0.0)
        n = gave_up = 0
        for html in decoded_pages(shared, name, limit):
            c = clock()
            tree = HTMLTree.parse(html)
            parse = clock() - c
            if tree.body is None:  # (not counted: neither its parse nor the page)
                continue
            t["parse"] += parse
            c = clock()
            markup = tree.body.html
            t["serialise"] += clock() - c
            c = clock()
            compiled._scan.scan(markup, 400, True)
            t["scan"] += clock() - c
            c = clock()
            gave_up += compiled._scan.scan(html, 400, True) is None
            t["raw"] += clock() - c
            n += 1
        if n:
            ms = {k: 1000 * v / n for k, v in t.items()}
            print(f"| {name} | {n} | {ms['parse']:.3f} | {ms['serialise']:.3f} | {ms['scan']:.3f} | {ms['raw']:.3f} | "
                  f"{gave_up} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="cleaneval-dev,cleaneval-final,cleanportaleval,dragnet,l3s-gn1,wcxb-dev")
    ap.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    ap.add_argument("--tree-rules", action="store_true", help="the commonest implicit ends of the tree builder")
    ap.add_argument("--cost", action="store_true", help="what a raw scan would save, in CPU ms a page")
    a = ap.parse_args(argv)
    try:
        shared = shared_data()
    except FileNotFoundError as e:
        ap.error(str(e))
    sets = a.sets.split(",")
    unknown = [s for s in sets if not (shared / "cleaning" / s).is_dir()]
    if unknown:
        ap.error(f"no cleaning set {', '.join(unknown)} under {shared / 'cleaning'}")
    if a.cost:
        if not compiled.ON:
            ap.error("--cost times the compiled scan, which is not built or is switched off (WEBPRUNE_PURE_PYTHON): "
                     "run scripts/setup.sh with a C compiler")
        cost_table(shared, sets, a.limit)
        return 0
    print("| set | pages | same blocks | same blocks and elements | block characters matched, other pages |")
    print("|---|---:|---:|---:|---:|")
    for name in sets:
        n = same = same_el = 0
        matched = total = 0
        for html in decoded_pages(shared, name, a.limit):
            lex = split_python(body_markup(HTMLTree.parse(html)))
            raw = raw_blocks(html, a.tree_rules)
            n += 1
            if raw.texts == lex.texts:
                same += 1
                same_el += list(zip(lex.el_tag, lex.el_parent, lex.el_depth)) == raw.elements
                continue
            sm = difflib.SequenceMatcher(None, lex.texts, raw.texts, autojunk=False)
            matched += sum(sum(len(t) for t in lex.texts[b.a:b.a + b.size]) for b in sm.get_matching_blocks())
            total += sum(map(len, lex.texts))
        if n:
            print(f"| {name} | {n} | {100 * same / n:.1f}% | {100 * same_el / n:.1f}% | "
                  f"{100 * matched / total if total else 100:.1f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
