"""The density cleaner (Baisa's WC Cleaner, single-file mode) on hand-made and real pages."""
import time

from eval.cleaning.gold import gold_pages
from eval.cleaning.score import word_prf
from preprocess.core.document import Document
from preprocess.run.pipeline import CleanOptions, Pipeline
from tests.conftest import shared

ARTICLE = " ".join(f"Sentence number {i} of the article talks about bees and their hives in some detail." for i in range(12))
PAGE = f"""<html><head><title>Bees</title></head><body>
<div id="nav"><ul><li><a href="/">Home</a></li><li><a href="/a">About</a></li><li><a href="/c">Contact</a></li></ul></div>
<div id="main"><div class="post"><h1>All about bees</h1><p>{ARTICLE}</p><p>{ARTICLE}</p><ul><li>Queen</li><li>Drone</li></ul></div>
<div class="share"><a href="/s">Share</a></div></div>
<div id="footer"><p>Copyright 2024 Bee Site. All rights reserved.</p><script>var tracker = "{'x' * 3000}";</script></div>
</body></html>""".encode()


def clean(html: bytes, cleaner="density", kitten=False):
    """The cleaner alone (Kitten normalisation, on by default for DOM cleaners, is tested in test_kitten)."""
    opts = CleanOptions(cleaner=cleaner, kitten=kitten)
    return Pipeline(opts).process([Document(id="p", content_type="text/html", raw=html)])


def test_density_keeps_the_article_blocks_and_drops_navigation_and_footer():
    out, stats = clean(PAGE)
    lines = out[0]["contents"].split("\n")
    assert lines[0] == "Bees" and "All about bees" in lines and "Queen" in lines and "Drone" in lines
    assert "Home" not in lines and not any("Copyright" in l for l in lines)
    assert stats.counts["density.nodes_removed"] > 0
    tags, _ = clean(PAGE, "tags")
    assert "Home" in tags[0]["contents"]  # tag removal alone keeps the menu
    default, _ = Pipeline(CleanOptions(cleaner="density")).process([Document(id="p", content_type="text/html", raw=PAGE)])
    assert "Queen, Drone." in default[0]["contents"].split("\n")  # with Kitten: a short list is one sentence


def test_pages_without_body_framesets_and_deep_nesting_get_an_outcome():
    frameset = b"<html><head><title>F</title></head><frameset><frame src=a.html></frameset></html>"
    out, stats = clean(frameset)
    assert out[0]["contents"] == "F" and not stats.group("failed")
    deep = b"<html><body>" + b"<div>" * 10000 + b"deep text " * 50 + b"</div>" * 10000 + b"<p>x</p></body></html>"
    t0 = time.perf_counter()
    out, stats = clean(deep)
    assert time.perf_counter() - t0 < 30 and "deep text" in out[0]["contents"] and not stats.group("failed")
    out, stats = clean(b"<html><body></body></html>")
    assert out == [] and stats.counts["skipped.empty"] == 1


def test_density_beats_tag_removal_on_real_article_pages():
    pages = [p for p in gold_pages(shared(), ["l3s-gn1"])][:80]
    f1 = {}
    for cleaner in ("tags", "density"):
        pipe = Pipeline(CleanOptions(cleaner=cleaner))
        scores = []
        for p in pages:
            out, _ = pipe.process([Document(id=p.name, content_type="text/html", raw=p.input.read_bytes())])
            scores.append(word_prf(out[0]["contents"] if out else "", p.gold_text())["f1"])
        f1[cleaner] = sum(scores) / len(scores)
    assert f1["density"] > f1["tags"] + 0.05, f1


def test_five_megabyte_page_is_cleaned_in_bounded_time():
    para = "<p>" + "word " * 200 + "</p>\n"
    html = ("<html><body><div id=nav>" + "<a href=/>x</a>" * 2000 + "</div><div id=main>" + para * 5000 +
            "</div></body></html>").encode()
    assert len(html) > 5_000_000
    for cleaner in ("tags", "density"):
        t0 = time.perf_counter()
        out, stats = clean(html, cleaner)
        assert time.perf_counter() - t0 < 30, cleaner
        assert out[0]["contents"].count("word") == 200 * 5000 and not stats.group("failed")


TRICKY = [
    "<div><p>a &amp; b&nbsp;c</p><!-- <p>not</p> --><p>x<br>y</p></div><div>z</div>",
    "<div><script>if (a<b) document.write('<div>'+\"</div>\");</script><p>" + "word " * 30 + "</p></div><p>short</p>",
    "<div><noscript><p>ns</p><noscript>inner</noscript>after</noscript><p>" + "t " * 40 + "</p></div>",
    "<div><object><object><p>in</p></object>fallback text here</object></div><div><p>" + "q " * 30 + "</p></div>",
    "<div><svg><source></source><image></image><svg><path d=1 /></svg>tail</svg><p>" + "s " * 30 + "</p></div>",
    "<div><img src=x <center><p>" + "attr " * 20 + "</p><script-x>custom</script-x><p>more</p></div><ul><li>a</li></ul>",
    "<div><?php echo 1 ?><p>" + "pi " * 25 + "</p></div><div><template><p>t</p></template>x</div>",
    "<div><textarea><b>raw</b></textarea><STYLE>p{}</STYLE><select><option>o</select><p>" + "w " * 30 + "</p></div>",
    "<table><tr><td><p>" + "cell " * 30 + "</p></td><td>x</td></tr></table><blockquote>q</blockquote><pre>p</pre>",
    "<div><span>\u00e9t\u00e9 \u201cquoted\u201d \U0001F600 emoji</span><p>" + "\u00fc " * 40 + "</p></div><p>\u0131 t\u0131me</p>",
    "<div><iframe><p>if</p></iframe><button><b>b</b></button><math><mi>x</mi></math><p>" + "m " * 30 + "</p></div>",
    # the shadow gives up on these: the per-node path decides
    "<div><script><!-- document.write('<script>x</script>'); //--></script><p>" + "e " * 30 + "</p></div>",
    "<div><p>" + "v " * 30 + "</p></div><plaintext><p>raw</p>",
]


def _walk_both(shadow, k, node):
    """Every element's shadow counts against ``subtree_stats``, the DOM and the shadow side by side."""
    from preprocess.cleaners.density import element_children, subtree_stats

    assert shadow.stats(*shadow.element(k)) == subtree_stats(node), node.html[:80]
    if k in shadow.blob_end:
        return
    kids = shadow.children(k)
    dom = list(element_children(node))
    assert len(kids) == len(dom) and [shadow.tag(c) for c in kids] == [d.tag for d in dom]
    for c, d in zip(kids, dom):
        _walk_both(shadow, c, d)


def test_the_shadow_counts_what_subtree_stats_counts():
    from resiliparse.parse.html import HTMLTree

    from preprocess.cleaners import density

    pages = [f"<html><body>{body}</body></html>" for body in TRICKY]
    pages += [p.input.read_bytes().decode("utf-8", "replace") for p in gold_pages(shared(), ["dragnet"])[:25]]
    modelled = 0
    for page in pages:
        body = HTMLTree.parse(page).body
        try:
            shadow = density._Shadow(body.html)
        except density._Unsupported:
            assert density.content_node(body) == density._content_node_slow(body)
            continue
        modelled += 1
        _walk_both(shadow, 0, body)
        fast, slow = density._content_node_fast(body), density._content_node_slow(body)
        assert fast[1] == slow[1] and fast[0] == slow[0]
    assert modelled >= len(pages) - 3
