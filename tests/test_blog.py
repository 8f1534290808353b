"""The blog cleaner (BlogBuster's rules) on a hand-written blog page and real blog pages."""
import re

from eval.cleaning.gold import gold_pages
from eval.cleaning.score import word_prf
from preprocess.core.document import Document
from preprocess.run.pipeline import CleanOptions, Pipeline
from tests.conftest import shared

BLOG = b"""<html><head><title>Dana's garden blog</title></head><body>
<div id="header"><h1>Dana's garden</h1><ul class="menu"><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul></div>
<div id="main"><div class="posts">
 <h2 class="date-header">Monday, 3 March 2008</h2>
 <div class="post hentry" id="post-11">
  <h3 class="post-title entry-title"><a href="/p/11">Planting early potatoes</a></h3>
  <div class="post-body entry-content"><p>Chit the seed potatoes in a cool bright place for six weeks.</p>
  <p>Plant them when the soil has warmed a little.</p></div>
  <div class="post-footer">Posted by Dana at 10:02 | <a href="#c">3 comments</a></div>
 </div>
 <div class="post hentry" id="post-12">
  <h3 class="post-title entry-title"><a href="/p/12">Mulching the beds</a></h3>
  <abbr class="published" title="2008-03-05">5 March 2008</abbr>
  <div class="post-body entry-content"><p>A thick layer of compost keeps weeds down all summer.</p></div>
 </div>
</div></div>
<div id="sidebar"><h2>Archive</h2><ul><li><a href="/2008">2008</a></li><li><a href="/2007">2007</a></li></ul>
<p>Subscribe to my feed</p></div>
<div id="footer">Powered by Blogger</div>
</body></html>"""


def clean(html: bytes, cleaner="blog"):
    return Pipeline(CleanOptions(cleaner=cleaner)).process([Document(id="b", content_type="text/html", raw=html)])


def test_posts_titles_and_dates_are_found_and_the_rest_is_removed():
    out, stats = clean(BLOG)
    text = out[0]["contents"]
    assert "Chit the seed potatoes" in text and "thick layer of compost" in text
    for junk in ("Home", "Archive", "Subscribe", "Powered by", "Dana's garden\n"):
        assert junk not in text.split("\n", 1)[1], junk
    assert stats.counts["blog.posts"] == 2
    assert out[0]["date"] == "Monday, 3 March 2008"  # Blogger's date header precedes the first post
    from preprocess.cleaners.blog import find_posts, post_date, post_title
    from resiliparse.parse.html import HTMLTree

    posts = find_posts(HTMLTree.parse(BLOG.decode()).body)
    assert [post_title(p) for p in posts] == ["Planting early potatoes", "Mulching the beds"]
    assert [post_date(p) for p in posts] == ["Monday, 3 March 2008", "5 March 2008"]


def test_page_without_posts_falls_back_to_density():
    page = b"<html><body><div id=nav><a href=/>Home</a></div><div id=main><p>" + b"Plain article text here. " * 40 + \
           b"</p></div></body></html>"
    out, stats = clean(page)
    assert stats.counts["blog.fallback"] == 1 and "Home" not in out[0]["contents"]
    assert "date" not in out[0]


def test_blog_rules_beat_density_on_real_blog_pages():
    pages = [p for p in gold_pages(shared(), ["dragnet"])
             if re.search(rb"hentry|post-title|entry-title", p.input.read_bytes())][:60]
    assert len(pages) == 60
    f1 = {}
    for cleaner in ("density", "blog"):
        pipe = Pipeline(CleanOptions(cleaner=cleaner))
        scores = [word_prf((pipe.process([Document(id=p.name, content_type="text/html", raw=p.input.read_bytes())])[0]
                            or [{"contents": ""}])[0]["contents"], p.gold_text())["f1"] for p in pages]
        f1[cleaner] = sum(scores) / len(scores)
    assert f1["blog"] > f1["density"] + 0.05, f1


def test_one_walk_back_finds_what_post_title_and_post_date_find():
    from resiliparse.parse.html import HTMLTree

    from preprocess.cleaners.blog import _titles_and_dates, find_posts, post_date, post_title

    pages = [p for p in gold_pages(shared(), ["dragnet"]) if re.search(rb"hentry|post-title", p.input.read_bytes())][:30]
    checked = 0
    for p in pages:
        body = HTMLTree.parse_from_bytes(p.input.read_bytes(), "utf-8").body
        posts = find_posts(body)
        assert _titles_and_dates(posts) == [{"title": post_title(x), "date": post_date(x)} for x in posts]
        checked += len(posts)
    assert checked > 30


def _keep_posts_reference(body, posts) -> int:
    """keep_posts as it was: a walk over every child of every kept node."""
    keep = set(posts)
    for post in posts:
        p = post.parent
        while p is not None and p.tag != "body":
            keep.add(p)
            p = p.parent
    removed, stack = 0, [body]
    while stack:
        node = stack.pop()
        child = node.first_child
        while child is not None:
            nxt = child.next_sibling
            if child in keep:
                if child not in posts:
                    stack.append(child)
            else:
                child.decompose()
                removed += 1
            child = nxt
    return removed


def test_keep_posts_matches_the_walk_for_nested_unordered_and_stray_posts():
    import random

    from resiliparse.parse.html import HTMLTree

    from preprocess.html.dom import keep_nodes as keep_posts

    page = ("<html><head><title>t</title></head><body>x<div id=a>1<p id=b>2<span id=c>3</span></p><p id=d>4</p> "
            "<!--c--> </div>y<div id=e><p id=f>5</p><p id=g>6<b id=h>7</b></p></div>z</body></html>")
    rng = random.Random(0)
    for trial in range(200):
        ids = rng.sample("abcdefgh", rng.randint(0, 4))
        out = []
        for fn in (_keep_posts_reference, keep_posts):
            tree = HTMLTree.parse(page)
            nodes = [tree.body.get_element_by_id(i) for i in ids] + ([tree.head] if trial % 9 == 0 else [])
            out.append((fn(tree.body, nodes), tree.body.html))
        assert out[0] == out[1], ids
