"""Composable filters: class/id hints, link-density blocks, broken titles."""
from preprocess.core.document import Document
from preprocess.run.pipeline import CleanOptions, Pipeline

ARTICLE = "<p>" + "The council met on Monday and agreed the new budget for the schools of the town. " * 8 + "</p>"
PAGE = f"""<html><head><title>Budget agreed</title></head><body>
<div class="site-header"><p>Daily Example, the paper of the town</p></div>
<div id="main"><h1>Budget agreed</h1>{ARTICLE}<p>Read more in <a href="/b">our budget guide</a> and the minutes.</p>
<div class="social-tools"><p>Share this story with friends</p></div>
<ul><li><a href="/1">Storm closes schools</a></li><li><a href="/2">Bridge reopens after repairs</a></li></ul></div>
<div id="comments"><p>Great news for the town, says a reader.</p></div>
</body></html>""".encode()


def run(**opts):
    out, stats = Pipeline(CleanOptions(**opts)).process([Document(id="p", content_type="text/html", raw=PAGE)])
    return out[0]["contents"].split("\n"), stats


def test_hints_drop_named_page_parts_but_keep_content_containers():
    lines, stats = run(cleaner="tags", drop_hinted=True)
    assert "Budget agreed" in lines and any(l.startswith("The council met") for l in lines)
    for gone in ("Daily Example", "Share this story", "Great news for the town"):
        assert not any(gone in l for l in lines), gone
    assert stats.counts["hints.elements_dropped"] == 3
    plain, _ = run(cleaner="tags")
    assert any("Great news" in l for l in plain)


def test_hints_spare_an_article_wrapper_named_share():
    page = (f'<html><body><div class="share_wrapper">{ARTICLE}</div><div class="sidebar">{ARTICLE}</div>'
            f'<div id="comments">{ARTICLE}</div></body></html>').encode()
    doc = Document(id="p", content_type="text/html", raw=page)
    out, stats = Pipeline(CleanOptions(drop_hinted=True)).process([doc])
    assert out[0]["contents"].count("The council met") == 8 and stats.counts["hints.elements_dropped"] == 2


def test_hints_never_drop_most_of_the_page():
    page = ("<html><body><div id=pageHeader><p>Menu</p><div>" + ARTICLE * 3 + "</div></div></body></html>").encode()
    out, stats = Pipeline(CleanOptions(drop_hinted=True)).process([Document(id="p", content_type="text/html", raw=page)])
    assert "The council met" in out[0]["contents"] and stats.counts["hints.kept_large"] == 1


def test_link_density_filter_drops_link_blocks_and_keeps_sentences_with_a_link():
    lines, stats = run(cleaner="tags", max_link_density=0.5)
    assert "Storm closes schools" not in lines and "Bridge reopens after repairs" not in lines
    assert "Read more in our budget guide and the minutes." in lines  # one linked phrase in a sentence
    assert stats.counts["links.lines_dropped"] == 2


def test_a_title_left_open_does_not_swallow_the_page():
    page = b"<html><head><title>Real title</titl><script>var x = 1;</script></head><body><p>Body text here.</p></body></html>"
    page = page.replace(b"<script>", b"<script>" + b"var y = 2; " * 100)
    out, stats = Pipeline(CleanOptions()).process([Document(id="p", content_type="text/html", raw=page)])
    title = out[0]["title"]
    assert len(title) <= 500 and "var y" not in title and title.startswith("Real title")
    assert stats.counts["tags.title_cut"] == 1
