"""The streaming tag remover (preprocess/steps/stream): its compiled twin equals the Python one, and both give
the tree path's text (lexbor + resiliparse's extractor + tidy) on the constructs and pages it models."""
from __future__ import annotations

import random
import shutil

import pytest
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.html import HTMLTree

from preprocess.core.document import Document
from preprocess.html.dom import tidy_lines
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from preprocess.steps import stream
from preprocess.steps.decode import Decode
from preprocess.steps.parse import Parse
from preprocess.steps.stream import names as N
from preprocess.steps.tags import _OPTIONS, TagRemoval
from tests.conftest import shared

needs_compiled = pytest.mark.skipif(not stream.BUILT and shutil.which("cc") is None,
                                    reason="no C compiler: the compiled scan was not built (pure Python runs)")
PY = stream.scanner(compiled=False)


def tree_text(html: str) -> tuple[str, str | None]:
    tree = HTMLTree.parse(html)
    return tidy_lines(extract_plain_text(tree, preserve_formatting=True, links=False, **_OPTIONS)), tree.title


# constructs whose handling by the HTML5 parser changes the text: implied and misnested ends, raw text,
# comments, skipped elements, tables, <select>, foreign content, <pre>, entities, the head
CONSTRUCTS = [
    "<table><tr><td>a</td><td>b</td></tr><tr><th>c<th>d</table>e", "<div>a</div><span>b</span>",
    "<div>a</div><!--c-->b", "<div>a</div><script>x</script>b", "<p>a<p>b", "<ul><li>a<li>b</ul>c",
    "<pre>a\n  b\n\nc</pre>d", "a&amp;b&nbsp;c&#10;d&copy&#x80;e", "<div>a<div>b</div>c</div>d", "<b>a<p>b</b>c</p>",
    "<div><figure><img><figcaption>cap</figcaption></figure>t</div>", "<label>l</label>x<select><option>s</select>y",
    "<dl><dt>a<dd>b</dl>", "a<br>b<br/>c</br>d", "<form>f</form><fieldset><legend>L</legend>x</fieldset>",
    "<noscript>ns</noscript>x", "<body><div><noscript>ns</noscript>x</div>", "<head><title>T</title><meta>hx</head>b",
    "a<svg><title>st</title><text>t</text></svg>b", "a<math>m</math>b", "a<template>t</template>b",
    "a<button>b1<button>b2</button>c", "<div>a<object>o</div>b", "<title>T1</title><title>T2</title>x",
    "<body><p>x</p><title>bt</title>", "a<textarea>t</b></textarea>b", "a<xmp>&amp;<b>x</b></xmp>c",
    "a<noembed>n</noembed>b<noframes>f</noframes>c", "a\x0bb\x0cc\rd\r\ne", "a<plaintext>x</plaintext>",
    "<svg><p>x</p></svg>y", "<svg>s<div>d</div>t</svg>u", "a<img src='x>y'>b", 'a<b title="x>y">b</b>c',
    'a<b x=y"z>w</b>v', "a<script>x<!--<script>y</script>z</script>b-->c</script>d", "a<style>s</style >b",
    "a<script>s</scriptx>q</script>b", "a<!-- c -- >still-->b", "a<!--->b-->c", "a</ b>c", "a<?x>b", "a<3b", "a</3>b",
    "<table>x<tr><td>a</table>", "<div>a<span>b</div>c</span>", "<ul><li>a<ul><li>b</ul><li>c</ul>",
    "<a href=x><h2><a href=y>About</a></h2><a>Email</a>", "<table><tr><td>a</td></tr><td>b</td></table>",
    "<div><noscript><form>a</noscript>b</div>c", "<p>a<table><tr><td>b</table>c", "<DIV>A</DiV>B<SCRIPT>x</sCrIpT>C",
    "<h1>a<h2>b</h1>c", "<p>one\u00a0 two\u200bthree\u3000four</p>", "<select><div>x</div></select>y<p>z",
    "<table><caption>c</caption><tbody><tr><th>h</th></tr></tbody><tfoot><tr><td>f</td></tr></tfoot></table>x",
    # tag names past the 16 characters of the name cache, and not ASCII: read without it
    "<ABCDEFGHIJKLMNOPQ>x</abcdefghijklmnopq>y", "<abcdefghijklmnop>x</ABCDEFGHIJKLMNOP>y", "<dİv>x</div>y<DİV>z",
]


@pytest.mark.parametrize("html", CONSTRUCTS)
def test_the_python_twin_gives_the_tree_paths_text(html):
    text, title, _, _ = PY(html)
    assert (text, title) == tree_text(html)


@needs_compiled
def test_the_compiled_twin_is_built():
    assert stream.BUILT, "preprocess/steps/stream/_scan.pyx was not built: run scripts/setup.sh (needs a C compiler)"


@needs_compiled
@pytest.mark.parametrize("html", CONSTRUCTS)
def test_the_compiled_twin_equals_the_python_one_on_each_construct(html):
    assert stream.scanner(compiled=True)(html) == PY(html)
    assert stream.scanner(compiled=True)(html, True) == PY(html, True)


@pytest.fixture(scope="module")
def shared_pages():
    """Every shared cleaning page as decode leaves it, with the tree path's (title, text) where decode was strict."""
    root = shared("cleaning")
    dec, par, tags = Decode(), Parse(), TagRemoval()
    pages = []
    for f in sorted(root.glob("*/input/*")):
        d = dec.process(Document(id=f.name, content_type="text/html", raw=f.read_bytes()))
        if d is None:
            continue
        html, strict = d.html, d.raw is None
        d = par.process(d)
        d = tags.process(d) if d is not None else None
        pages.append((html, (d.title, d.text) if d is not None and strict else None))
    assert len(pages) > 2800
    return pages


@needs_compiled
def test_the_twins_are_equal_on_every_shared_page(shared_pages):
    fast = stream.scanner(compiled=True)
    for html, _ in shared_pages:
        assert fast(html) == PY(html)


def test_the_stream_gives_the_tree_paths_text_on_nearly_every_shared_page(shared_pages):
    from preprocess.steps.tags import clean_title

    checked = [(stream.page_text(html), ref) for html, ref in shared_pages if ref is not None]
    same = sum((clean_title(title)[0], text) == ref for (text, title, _), ref in checked)
    assert same >= 0.99 * len(checked), f"{same} of {len(checked)}"  # 2,827 of 2,840 when this was written


def random_markup(rng: random.Random) -> str:
    names = sorted(N.SPECIAL | N.FORMATTING | N.SKIP | N.BLOCK | N.FOREIGN | {"span", "x-y", "title", "xmp"})
    bits = ["<", ">", "</", "/>", "&", "&amp;", "&#", "&#x3c;", "&nbsp", "\"", "'", "=", " ", "\n", "\r", "\t",
            "\x0c", "\x0b", "\x1c", "\x00", "\u2028", "a b", " \u2003", "\u00a0", "\u200b", "\u3000", "\u2003",
            "\x85", "é", "日本", "\U0001F600", "<!--", "-->", "--!>",
            "<!", "<?", "]]>", "<![CDATA[", "text", "Word", "İK", "\u212a", "&amp", "&ampx", "&notin;", "&notit;",
            "&#x110000;", "&#0;", "&#128;", "&#xD800;", "&#65", "&lt", "&#x", "&#X41", "&#99999999999999;", "&a",
            "&copy=", "&AElig", "&nbsp;;", "&#13;", "&#x1F600;", "&#xfdd0;", "&" + "b" * 40 + ";", "&;"]
    out = []
    for _ in range(rng.randrange(1, 80)):
        r = rng.random()
        name = rng.choice(names)
        name = name.upper() if rng.random() < 0.1 else name
        if r < 0.3:
            attrs = rng.choice(["", " a=b", ' class="x>y"', " a='q", " b=c/", " /", " x", ' c="d" e'])
            out.append(f"<{name}{attrs}{rng.choice(['>', '/>', ''])}")
        elif r < 0.5:
            out.append(f"</{name}{rng.choice(['>', ' x>', ''])}")
        else:
            out.append("".join(rng.choice(bits) for _ in range(rng.randrange(1, 6))))
    return "".join(out)


@needs_compiled
def test_the_twins_are_equal_on_random_and_cut_pages(shared_pages):
    fast, rng = stream.scanner(compiled=True), random.Random(23)
    for _ in range(3000):
        html = random_markup(rng)
        assert fast(html) == PY(html), repr(html)
        assert fast(html, True) == PY(html, True), repr(html)
        assert tidy(fast(html)[0]) and tidy(fast(html, True)[0]), repr(html)
    for html, _ in rng.sample(shared_pages, 60):  # real pages cut anywhere: inside tags, comments, scripts
        for cut in rng.sample(range(len(html)), min(len(html), 5)):
            assert fast(html[:cut]) == PY(html[:cut])
            assert tidy(fast(html[:cut])[0])


def tidy(text: str) -> bool:
    """Only non-empty lines (TagRemoval hands the scan's text to Document.set_tidy_text, which drops none)."""
    return "\n\n" not in text and text[:1] != "\n" and text[-1:] != "\n"


def run(pages: dict[str, str], **opts):
    pipe = Pipeline(CleanOptions(**({"cleaner": "tags"} | opts)))  # the streaming tag remover is tags' own
    out, stats = pipe.process([Document(id=k, content_type="text/html", raw=v.encode()) for k, v in pages.items()])
    return {o["id"]: o for o in out}, stats


@needs_compiled
def test_plain_tags_streams_and_a_run_that_needs_the_tree_parses():
    page = ("<html><head><title> A  title </title><style>p{}</style></head><body><nav>Home <a href=/>page</a></nav>"
            "<div><p>First paragraph, long enough.</p><p>Second &amp; last.</p></div></body></html>")
    out, stats = run({"p": page})
    assert stats.counts["parse.streamed"] == 1
    assert out["p"]["title"] == "A title"
    assert out["p"]["contents"] == "A title\nHome page\nFirst paragraph, long enough.\nSecond & last."
    tree_out, tree_stats = run({"p": page}, max_link_density=0.9)  # line features: the tree path
    assert not tree_stats.counts.get("parse.streamed") and tree_out["p"]["contents"] == out["p"]["contents"]


@needs_compiled
def test_a_partial_plan_streams_only_where_the_whole_run_does():
    from preprocess.run.pipeline import build_steps

    def streams(opts, stop_before=None):
        return build_steps(opts, stop_before=stop_before)[1].stream

    assert streams(CleanOptions(cleaner="tags")) and streams(CleanOptions(cleaner="tags", prune_model="m.bin",
                                                                          max_perplexity=8000), "prune")
    # sitediff's references (stop_before="sitediff") must read pages as its own run does: through the tree
    assert not streams(CleanOptions(cleaner="sitediff", kitten=False), "sitediff")
    assert not streams(CleanOptions(cleaner="sitediff", kitten=False))
    assert not streams(CleanOptions(), "tags")  # decode + parse for the learned cleaner's training: trees
