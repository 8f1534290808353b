import pytest
from preprocess.run.pipeline import CleanOptions, Pipeline
from preprocess.core.document import Document
from tests.conftest import EXAMPLE

JUNK = ["cssJunkQuux", "trackingPixelZorg", "commentJunkXyzzy", "noscriptJunkPlugh", "templateJunkFrob", "svgJunkGlorp"]


def clean(html: bytes, ctype="text/html", **options):
    out, stats = Pipeline(CleanOptions(**({"cleaner": "tags"} | options))).process(
        [Document(id="x", content_type=ctype, raw=html)])  # tag removal, unless a test names another cleaner
    return out, stats


def example_docs():
    pages = sorted((EXAMPLE / "pages").glob("*.html"))
    docs = [Document(id=p.stem, content_type="text/html", raw=p.read_bytes()) for p in pages]
    out, stats = Pipeline(CleanOptions()).process(docs)
    return {d["id"]: d for d in out}, stats


def test_example_pages_lose_all_invisible_text_and_keep_the_article():
    docs, stats = example_docs()
    assert len(docs) == 13 and stats.counts["written"] == 0  # writing is the driver's job
    for d in docs.values():
        for junk in JUNK:
            assert junk not in d["contents"], (d["id"], junk)
        assert d["title"] and d["contents"].startswith(d["title"])
    assert "sourdough" in docs["ex-01"]["contents"].lower()


def test_inline_markup_does_not_split_words_and_blocks_are_not_glued():
    out, _ = clean(b"<html><head><title>T</title></head><body><p>sour<b>dough</b> bread</p><p>next</p>"
                   b"<ul><li>one</li><li>two</li></ul><div>a<br>b</div><h2>Head</h2>tail</body></html>")
    lines = out[0]["contents"].split("\n")
    assert lines == ["T", "sourdough bread", "next", "one", "two", "a", "b", "Head", "tail"]


def test_head_is_dropped_except_title():
    out, _ = clean(b"<html><head><title>Only title</title><meta name='description' content='metajunk'>"
                   b"<style>p{}</style></head><body><p>Body text</p></body></html>")
    assert out[0]["title"] == "Only title" and "metajunk" not in out[0]["contents"]


def test_non_english_and_legacy_encodings_survive():
    docs, _ = example_docs()
    assert "café" in docs["ex-11"]["contents"] and "naïve" in docs["ex-11"]["contents"]
    text12 = docs["ex-12"]["contents"]
    assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text12)  # Japanese
    assert "ß" in text12 or "ü" in text12


def test_page_with_no_text_is_counted_as_empty():
    out, stats = clean(b"<html><head><script>x()</script></head><body><img src=a.png></body></html>")
    assert out == [] and stats.counts["skipped.empty"] == 1


def test_deeply_nested_and_unclosed_markup_does_not_crash():
    html = b"<html><body>" + b"<div>" * 10000 + b"deep text" + b"</span>" * 10 + b"<p>unclosed <b>bold"
    out, stats = clean(html)
    assert "deep text" in out[0]["contents"] and not stats.group("failed")


def test_a_page_whose_text_is_all_inside_noscript_is_read_from_there():
    """A JavaScript application's crawler copy (Discourse forums serve posts only inside <noscript>)."""
    posts = "".join(f"<div class=post><p>Post number {i} says something worth indexing.</p></div>" for i in range(40))
    app = f"<html><body><div id=app></div><noscript><h1>Thread title</h1>{posts}</noscript></body></html>"
    out, stats = clean(app.encode())
    assert "Post number 39 says something worth indexing." in out[0]["contents"]
    assert stats.counts["parse.noscript_unwrapped"] == 1
    pixel = "<noscript><iframe src=gtm></iframe><p>noscriptJunkPlugh enable JavaScript please</p></noscript>"
    page = f"<html><body><p>{'Real article text here. ' * 100}</p>{pixel}</body></html>"
    out, stats = clean(page.encode())
    assert "noscriptJunkPlugh" not in out[0]["contents"] and not stats.counts["parse.noscript_unwrapped"]


def test_the_real_discourse_forum_page_keeps_its_posts():
    from eval.cleaning.gold import gold_pages
    from tests.conftest import shared

    page = next(p for p in gold_pages(shared(), ["wcxb-dev"]) if p.name == "0507")
    out, _ = clean(page.raw())
    assert "Continuing the discussion" in out[0]["contents"] and len(out[0]["contents"].split()) > 2000


@pytest.mark.parametrize("cleaner", ["tags", "learned", "density"])
def test_the_real_flarum_forum_page_keeps_its_posts_beside_a_bigger_script(cleaner):
    """Flarum serves its posts inside <noscript> (27 KB) beside a 112 KB JSON payload in a <script>: script text
    is not the page's text, so the <noscript> holds the page and is read."""
    from eval.cleaning.gold import gold_pages
    from tests.conftest import shared

    page = next(p for p in gold_pages(shared(), ["wcxb-dev"]) if p.name == "0557")
    out, stats = clean(page.raw(), cleaner=cleaner)
    assert "Types of Threads" in out[0]["contents"] and len(out[0]["contents"].split()) > 3000
    assert stats.counts["parse.noscript_unwrapped"] == 1


def test_a_small_noscript_beside_a_big_script_stays_out():
    """The same rule the other way: scripts left out, a <noscript> under half the page's text is still noise."""
    page = (f"<html><body><script>var payload = '{'x' * 50000}';</script><p>{'Real article text here. ' * 100}</p>"
            f"<noscript><p>noscriptJunkPlugh {'enable JavaScript please ' * 60}</p></noscript></body></html>")
    out, stats = clean(page.encode())
    assert "noscriptJunkPlugh" not in out[0]["contents"] and not stats.counts["parse.noscript_unwrapped"]
