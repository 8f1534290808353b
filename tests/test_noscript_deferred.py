"""Parse's <noscript> check, left to the learned cleaner's compiled scan: the same pages unwrapped, the same output.

Parse unwraps the ``<noscript>`` elements of a page whose text is nearly all inside them (``unwrap_noscript``);
finding them walks the whole tree (~35 us on the half of the pages that have one). Where the compiled scan is
the first to read the tree, it bounds their text from the ``<body>`` serialisation it reads anyway
(``blocks.noscript_bound``) and asks the tree only when the bound reaches ``NOSCRIPT_CHARS``.
"""
import random

import pytest
from resiliparse.parse.html import HTMLTree

from eval.cleaning.gold import gold_pages
from preprocess.cleaners.learned import compiled
from preprocess.cleaners.learned.blocks import noscript_bound
from preprocess.document import Document
from preprocess.options import CleanOptions
from preprocess.pipeline import Pipeline
from preprocess.steps.parse import NOSCRIPT_CHARS
from tests.conftest import shared

pytestmark = pytest.mark.skipif(not compiled.ON, reason="the compiled scanner is not built")


def inside(tree) -> int:
    """What unwrap_noscript compares with NOSCRIPT_CHARS: the text of the outermost <noscript> elements."""
    outer = [n for n in tree.body.query_selector_all("noscript").values() if n.parent.closest("noscript") is None]
    return sum(len(n.text) for n in outer)


def random_page(rng: random.Random) -> str:
    parts = ["<noscript>", "</noscript>", "<NOSCRIPT title='</noscript>'>", "<div>", "</div>", "<p>", "<td>",
             "<table>", "<script>var s='</noscript>';</script>", "<!-- </noscript> -->", "<svg><noscript>",
             "</svg>", "<template><noscript>t</noscript></template>", "<textarea></noscript></textarea>",
             "text &amp; more ", "x" * 300, "<noscript a=\"b>c\">", "<iframe></noscript></iframe>", "<xmp>",
             "</xmp>", "<script><!--<script></noscript>", "</script>", "&lt;noscript&gt;", "\u00e9\u4e2d"]
    return "<body>" + "".join(rng.choice(parts) for _ in range(rng.randrange(1, 30))) + "</body>"


def test_the_bound_holds_the_noscript_text_of_every_shared_page_and_random_nestings():
    pages = [p.raw().decode("utf-8", "replace") for p in gold_pages(shared())]
    with_noscript = [p for p in pages if "<noscript" in p.lower()]
    assert len(with_noscript) > 1000
    rng = random.Random(9)
    for html in with_noscript + [random_page(rng) for _ in range(3000)]:
        tree = HTMLTree.parse(html)
        if tree.body is None:
            continue
        need = inside(tree)
        assert noscript_bound(tree.body.html, 10 ** 9) >= need, html[:300]
        assert noscript_bound(tree.body.html, NOSCRIPT_CHARS) >= min(need, NOSCRIPT_CHARS)


def run(pages: list[bytes], deferred: bool):
    pipe = Pipeline(CleanOptions(cleaner="learned", drop_hinted=True, max_link_density=0.5))
    parse, learned = (next(s for s in pipe.steps if s.name == n) for n in ("parse", "learned"))
    assert parse.noscript_later and learned.parse is parse  # the check is left to the scan when it is compiled
    if not deferred:
        parse.noscript_later, learned.parse = False, None
    out, stats = pipe.process([Document(id=str(i), content_type="text/html", raw=p) for i, p in enumerate(pages)])
    return out, {k: v for k, v in stats.counts.items() if not k.endswith("_s")}


def test_the_learned_cleaner_unwraps_the_pages_parse_would_and_writes_the_same():
    posts = "".join(f"<div class=post><p>Post number {i} says something worth indexing.</p></div>" for i in range(40))
    app = f"<html><body><div id=app></div><noscript><h1>Thread title</h1>{posts}</noscript></body></html>"
    pixel = "<noscript><iframe src=gtm></iframe><p>noscriptJunkPlugh enable JavaScript please</p></noscript>"
    article = f"<html><body><p>{'Real article text here. ' * 100}</p>{pixel}</body></html>"
    half = f"<html><body><p>{'Visible words. ' * 300}</p><noscript><p>{'Hidden words. ' * 100}</p></noscript></body></html>"
    forum = next(p for p in gold_pages(shared(), ["wcxb-dev"]) if p.name == "0507").raw()  # Discourse: posts in it
    pages = [app.encode(), article.encode(), half.encode(), forum]
    out, counts = run(pages, deferred=True)
    assert counts["parse.noscript_unwrapped"] == 2  # the app and the forum
    assert "Post number 39 says something worth indexing." in out[0]["contents"]
    assert (out, counts) == run(pages, deferred=False)
