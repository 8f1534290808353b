"""Parse step: build the DOM once (lexbor via resiliparse) for every later step, within a cost budget.

Parser chosen by ``scripts/bench/bench_preprocess.py`` (its first table rows): on the
~2,900 shared cleaning pages lexbor parses 2.5-3x faster than lxml, and the
same tree serves tag removal (resiliparse's C++ extractor) and the DOM cleaners.

lexbor is superlinear on some markup (distinct tag or attribute names by the
hundred thousand, thousands of attributes on one element, unclosed ``<option>``s:
a 10 MB page can take minutes). Before a page over 128 KiB is parsed, prefixes of
it are (32 KiB, doubling, up to a quarter of the page, straight to it when that is safe): when the growth of their
parse times predicts the whole page past ``--max-parse-seconds``, the page is
skipped as ``too_complex`` -- bounded work, never a worker stuck until the page
timeout. Normal pages grow linearly and stay far below the budget; probing costs
them about a third of a parse more.

A page whose text is mostly inside ``<noscript>`` -- the crawler's copy of a
JavaScript application (Discourse and Flarum forums, some shops) -- has those elements
unwrapped, so every cleaner reads it (``noscript`` is noise everywhere else). The
text of ``<script>`` and ``<style>`` is not the page's text: it is left out of that share.
"""
from __future__ import annotations

import math
import time

from resiliparse.parse.html import HTMLTree

from preprocess.core.document import Document
from preprocess.steps.base import BuildContext, Step

_PYTHON_ONLY = {"utf-8-sig", "utf-16", "utf-16-le", "utf-16-be"}  # BOM handling stays with Python
PROBE_FROM = 128 << 10   # pages larger than this are probed before they are parsed
FIRST_PROBE = 32 << 10   # the first prefix parsed
WORST_GROWTH = 3.0       # the growth assumed past the last probe until two probes measure it
SUPERLINEAR = 1.3        # a measured growth above this is assumed to climb (ordinary pages stay near 1)
MIN_TIMED = 0.005        # seconds: shorter probe times are too noisy to measure growth from
NOSCRIPT_CHARS = 1000    # a <noscript> copy of the page holds at least this much text ...
NOSCRIPT_SHARE = 0.5     # ... and this share of the body's text (scripts and styles are not the page's text)
# appended to a prefix so that a tag it cuts is still parsed, attributes and all, wherever the cut falls: "x"
# gives a value an opening character (after "=" a bare quote would open a value that swallows the rest, and
# lexbor drops a tag left open at the end: a 100,000-attribute tag cut there parsed in 0.03 s, whole in 19 s),
# a quote closes a quoted value, ">" the tag
CLOSE = "x'\">"


def predicted_cost(parse, page, budget: float) -> float | None:
    """Seconds parsing ``page`` whole is predicted to take when that is more than ``budget``; None when it
    is predicted to stay within it. Prefixes are parsed up to a quarter of the page at least: lexbor's slow
    cases start late (a name table that fills up), so a cheap start proves nothing about the end. Sizes double
    from 32 KiB to the quarter; a jump of up to 4x straight to it is taken when the growth assumed at worst
    keeps it within the budget (an ordinary 300 KB page: 32 KiB, then 75 KB).

    Past the quarter a page whose growth was superlinear (or not measured) is assumed to grow at worst: the
    growth of lexbor's costly cases climbs with the prefix, so the last probes' growth under-predicts the whole
    parse. An ordinary large page's growth can jump too (the caches, a busy machine's most of all), so a page
    the quarter predicts past the budget is parsed to its half first when half the budget, less what the probes
    took, affords that probe at worst; from the half it is judged the same way
    (``scripts/studies/costly_markup.py``)."""
    n, size, last, last_size, spent = len(page), FIRST_PROBE, None, None, 0.0
    quarter, half = -(-n // 4), n // 2
    close = CLOSE if isinstance(page, str) else CLOSE.encode()
    while size < n:
        t0 = time.thread_time()
        parse(page[:size] + close)
        t = max(time.thread_time() - t0, 1e-4)
        spent += t
        if t > budget:
            return t * n / size
        measured = last is not None and last >= MIN_TIMED
        growth = max(1.0, math.log(t / last) / math.log(size / last_size)) if measured else WORST_GROWTH
        if size < quarter:
            predicted = t * (n / size) ** growth
            if measured and growth > SUPERLINEAR and predicted > budget:
                return predicted
        else:  # past it, superlinear growth is assumed to climb on, as lexbor's costly cases do
            end = t * (n / size) ** (WORST_GROWTH if growth > SUPERLINEAR else growth)
            if end <= budget:
                return None
            if size >= half or spent + t * (half / size) ** WORST_GROWTH > budget / 2:
                return end
        jump = quarter <= 4 * size and t * (quarter / size) ** WORST_GROWTH <= budget
        last, last_size = t, size
        size = half if size >= quarter else quarter if jump else min(2 * size, quarter)
    return None


def unwrap_noscript(tree) -> bool:
    """Replace the outermost ``<noscript>`` elements by their children when they hold the page's text."""
    body = tree.body
    if body is None:
        return False
    outer = [n for n in body.query_selector_all("noscript").values() if n.parent.closest("noscript") is None]
    inside = sum(len(n.text) for n in outer)
    if inside < NOSCRIPT_CHARS:
        return False
    # scripts and styles are no one's text, inside <noscript> or out (in svg and math a <script> or <style> is an
    # element like any other: its text stays counted, as read raw)
    hidden = [n for n in body.query_selector_all("script, style").values() if n.closest("svg, math") is None]
    inside -= sum(len(n.text) for n in hidden if n.closest("noscript") is not None)
    shown = len(body.text) - sum(len(n.text) for n in hidden)
    if inside < NOSCRIPT_CHARS or inside < NOSCRIPT_SHARE * shown:
        return False
    for n in outer:
        n.replace_with(*n.child_nodes.values())
    return True


class Parse(Step):
    name = "parse"

    def __init__(self, max_seconds: float = 10.0):
        super().__init__()
        self.max_seconds = max_seconds
        self.stream = False  # set by build_steps when only tag removal reads the page: no tree for clean pages
        self.defer = False   # set by build_steps when the learned cleaner reads the markup raw: it calls parse_now

    @classmethod
    def build(cls, ctx: BuildContext) -> "Parse":
        return cls(ctx.opts.max_parse_seconds)

    def process(self, doc: Document) -> Document | None:
        if self.stream and doc.raw is None:  # a strict decode: TagRemoval scans doc.html itself
            self.stat_update("streamed")
            return doc
        if self.defer and doc.raw is None:  # the learned cleaner reads doc.html, and parses where it must
            return doc
        return self.parse_now(doc)

    def parse_now(self, doc: Document) -> Document | None:
        """The page's tree (``doc.tree``), within the cost budget; None after a counted drop."""
        if doc.raw is not None and doc.encoding not in _PYTHON_ONLY:
            # Decode had to substitute characters (or strip NULs): lexbor decodes the bytes itself
            # with the chosen charset, which recovers mixed-encoding pages better.
            page, encoding = doc.raw, doc.encoding

            def parse(p):
                return HTMLTree.parse_from_bytes(p, encoding)
        else:  # a strict decode: parsing the str is ~25% faster than lexbor decoding the bytes again
            page, parse = doc.html, HTMLTree.parse
        if len(page) > PROBE_FROM:
            cost = predicted_cost(parse, page, self.max_seconds)
            if cost is not None:
                self.stat_update("too_complex_predicted_s", round(cost, 1))
                return self.drop(doc, "too_complex", f"parsing it would take about {cost:.0f} s (> "
                                 f"--max-parse-seconds {self.max_seconds:g}): markup that lexbor parses in "
                                 "superlinear time")
        doc.tree = parse(page)
        if doc.tree.document is None:
            return self.drop(doc, "parse_error", "HTML parser returned no document", kind="failed")
        noscript = doc.meta.pop("noscript", None)  # Decode's answer for a strict UTF-8 decode
        if noscript is None:
            noscript = "<noscript" in page if isinstance(page, str) else b"<noscript" in page
        if noscript and unwrap_noscript(doc.tree):
            self.stat_update("noscript_unwrapped")
        doc.html = doc.raw = None  # the tree is the page from here on
        return doc
