"""The density cleaner (Baisa's WC Cleaner, single-file mode) on hand-made and real pages."""
import time

from eval.cleaning_gold import gold_pages
from eval.cleaning_score import word_prf
from preprocess.document import Document
from preprocess.pipeline import CleanOptions, Pipeline
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
