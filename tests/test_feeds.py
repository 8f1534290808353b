"""The feeds cleaner (Adaptive Post Recognition): feeds, text matching, templates, cleaning, bad input.

Fixtures (tests/fixtures/feeds/, hand-written): a WordPress-like blog ``dana.example.org`` with an RSS 2.0
feed of 3 items, 3 post pages it links to, 1 post page it does not link to, an about page and an archive
page; a Blogger-like blog ``notes.example.net`` with an Atom feed and its 2 post pages. The feed texts
differ from the pages as real feeds do: truncated ``[...]`` descriptions, curly quotes, a "The post ...
appeared first on" tail, a Blogger feed footer, a summary edited after publishing.
"""
import json
import time
from pathlib import Path

import pytest
from resiliparse.parse.html import HTMLTree

from preprocess.cleaners.density import DensityCleaner
from preprocess.cleaners.feeds import (FeedItem, FeedsCleaner, HostTemplate, Path as DomPath, PathStep,
                                       feed_items, feed_text, induce_template, is_feed, learn_templates,
                                       longest_prefix, match_item, merge_paths, normalize_url, parse_page, url_key)
from preprocess.core.document import Document
from preprocess.run.pipeline import run_steps
from preprocess.steps.decode import Decode
from preprocess.steps.parse import Parse
from preprocess.steps.tags import TagRemoval

FIX = Path(__file__).parent / "fixtures" / "feeds"
DANA, NOTES = "http://dana.example.org", "http://notes.example.net"
FEEDS = {"dana-rss.xml": (f"{DANA}/feed/", "application/rss+xml; charset=UTF-8"),
         "notes-atom.xml": (f"{NOTES}/feeds/posts/default", "application/atom+xml")}
PAGES = {
    "dana-planting-early-potatoes.html": f"{DANA}/2008/03/planting-early-potatoes/",
    "dana-mulching-the-beds.html": f"{DANA}/2008/04/mulching-the-beds/",
    "dana-saving-tomato-seed.html": "https://www.dana.example.org/2008/05/saving-tomato-seed",  # as crawled
    "dana-pruning-the-apple-tree.html": f"{DANA}/2008/01/pruning-the-apple-tree/",  # in no feed
    "dana-about.html": f"{DANA}/about/",
    "dana-archive.html": f"{DANA}/archive/",
    "notes-fixing-dripping-tap.html": f"{NOTES}/2009/05/fixing-dripping-tap.html",
    "notes-oiling-door-hinge.html": f"{NOTES}/2009/04/oiling-door-hinge.html",
}
DANA_CONTENT = "div[@id=page]/div[@id=content]/article[@id=post-*]/div[@class=entry-content]"
NOTES_CONTENT = ("div[@id=outer-wrapper]/div[@id=main-wrapper]/div[@class=blog-posts hfeed]/div[@class=date-outer]/"
                 "div[@class=date-posts]/div[@class=post-outer]/div[@class=post hentry]/div[@id=post-body-*]")


def raw(name: str) -> bytes:
    return (FIX / name).read_bytes()


def records(feeds_first: bool = True) -> list[tuple[str, str, bytes]]:
    feeds = [(url, ct, raw(name)) for name, (url, ct) in FEEDS.items()]
    pages = [(url, "text/html", raw(name)) for name, url in PAGES.items()]
    return feeds + pages if feeds_first else pages + feeds


@pytest.fixture(scope="module")
def learned():
    return learn_templates(records(feeds_first=False))


def chain(cleaner, name: str, url: str | None = None):
    docs = [Document(id=name, url=url or PAGES[name], content_type="text/html", raw=raw(name))]
    return run_steps([Decode(), Parse(), cleaner, TagRemoval()], docs)


def items_by_key() -> dict[str, FeedItem]:
    return {url_key(i.link): i for name, (url, _) in FEEDS.items() for i in feed_items(raw(name), url)}


# --------------------------------------------------------------------------- feeds

def test_is_feed_by_content_type_or_root_element():
    rss, atom = raw("dana-rss.xml"), raw("notes-atom.xml")
    assert is_feed("application/rss+xml; charset=UTF-8", b"")
    assert is_feed("application/atom+xml", None)
    assert is_feed("text/xml", rss) and is_feed("text/html", atom) and is_feed("", b"\xef\xbb\xbf \n\t" + rss)
    assert is_feed("application/octet-stream", b'<?xml version="1.0"?>\n<!-- generator: x -->\n<rss version="2.0">')
    assert is_feed("", '<?xml version="1.0" encoding="utf-16"?><feed xmlns="x">'.encode("utf-16"))
    assert is_feed("", b'<rdf:RDF xmlns="http://purl.org/rss/1.0/"><item/></rdf:RDF>')  # RSS 1.0
    assert not is_feed("application/xml", b'<?xml version="1.0"?><urlset><url><loc>/a</loc></url></urlset>')
    assert not is_feed("application/xhtml+xml", b'<?xml version="1.0"?><html><body>rss feed</body></html>')
    assert not is_feed("text/html", raw("dana-about.html")) and not is_feed("", b"") and not is_feed("", None)


def test_rss_items_have_absolute_normalised_links_and_plain_text():
    items = feed_items(raw("dana-rss.xml"), f"{DANA}/feed/")
    assert [(i.link, i.title, i.author) for i in items] == [
        (f"{DANA}/2008/05/saving-tomato-seed/", "Saving tomato seed", "Dana Smith"),  # host case, :80, #more
        (f"{DANA}/2008/04/mulching-the-beds/", "Mulching the beds", "Dana Smith"),  # relative link
        (f"{DANA}/2008/03/planting-early-potatoes/", "Planting early potatoes", "Dana Smith")]
    assert items[0].content == "Pick the ripest fruit from your best plants and squeeze the seeds into a jar [\u2026]"
    # content:encoded wins over the description; its HTML is gone, its blocks are lines
    assert items[1].content.split("\n") == [
        "A thick layer of compost keeps weeds down all summer.",
        "It\u2019s best spread in spring, once the soil is moist and warm.",
        "Garden compost", "Leaf mould", "Well-rotted manure",
        "The post Mulching the beds appeared first on Dana\u2019s garden."]
    assert feed_items(raw("dana-rss.xml"), f"{DANA}/feed/", max_words=4)[0].content == "Pick the ripest fruit"


def test_atom_items_resolve_xml_base_and_strip_html():
    items = feed_items(raw("notes-atom.xml"), f"{NOTES}/feeds/posts/default")
    assert [(i.link, i.title, i.author) for i in items] == [
        (f"{NOTES}/2009/05/fixing-dripping-tap.html", "Fixing a dripping tap", "Lee Brown"),  # alternate, not replies
        (f"{NOTES}/2009/04/oiling-door-hinge.html", "Oiling a door hinge", "Lee Brown")]
    assert items[0].content.split("\n") == [
        "A dripping tap usually needs a new washer.",
        "Turn off the water at the isolating valve first, then open the tap to drain it.",
        "Unscrew the headgear with a spanner and swap the washer.",
        "Subscribe to Lee's notes by email"]
    assert items[1].content.startswith("Squeaky hinges drive me mad. A drop")
    assert feed_text(raw("notes-atom.xml")).split("\n")[0] == "Fixing a dripping tap"


def test_urls_normalise_and_match_across_scheme_www_and_trailing_slash():
    assert normalize_url("/a/b?x=1#frag", "HTTP://Ex.ORG:80/feed") == "http://ex.org/a/b?x=1"
    assert normalize_url("https://ex.org:8443") == "https://ex.org:8443/"
    assert normalize_url("mailto:a@b.c") == normalize_url("javascript:void(0)") == normalize_url("http://x:99999/") == ""
    assert url_key("https://www.dana.example.org/2008/05/saving-tomato-seed") == \
        url_key("http://Dana.Example.org:80/2008/05/saving-tomato-seed/#more-41") == \
        "dana.example.org/2008/05/saving-tomato-seed"


# --------------------------------------------------------------------------- matching

def test_longest_prefix_is_word_by_word_shortening():
    words = ["the", "seed", "potatoes", "in", "a", "cool"]
    page = "chittheseedpotatoesinawarmplace"
    linear = next(k for k in range(len(words), 0, -1) if "".join(words[:k]) in page)  # the paper's loop
    assert longest_prefix(words, page, 1) == linear == 5
    assert longest_prefix(words, page, 6) == 0  # may not shorten below min_words
    assert longest_prefix(words, page, 1, min_chars=30) == 0
    assert longest_prefix(["nowhere"], page, 1) == 0 and longest_prefix([], page, 0) == 0


def test_truncated_and_edited_feed_text_still_finds_the_post_node():
    items = items_by_key()
    # description cut with "[...]": all but the "[...]" is found; it spans two paragraphs -> their container
    m = match_item(parse_page(raw("dana-planting-early-potatoes.html")), items[url_key(PAGES[
        "dana-planting-early-potatoes.html"])])
    assert (m.content_words, m.content_total) == (22, 23)
    assert str(m.content) == "div[@id=page]/div[@id=content]/article[@id=post-12]/div[@class=entry-content]"
    assert str(m.title).endswith("article[@id=post-12]/header[@class=entry-header]/h1[@class=entry-title]")
    assert str(m.author).endswith("div[@class=entry-meta]/span[@class=author vcard]")  # not the footer's
    # an excerpt inside the first paragraph: the paragraph climbs to the post's container
    m = match_item(parse_page(raw("dana-saving-tomato-seed.html")), items["dana.example.org/2008/05/saving-tomato-seed"])
    assert (m.content_words, m.content_total) == (15, 16)
    assert str(m.content) == "div[@id=page]/div[@id=content]/article[@id=post-41]/div[@class=entry-content]"
    # full content with curly quotes and a "The post ... appeared first on" tail
    m = match_item(parse_page(raw("dana-mulching-the-beds.html")), items["dana.example.org/2008/04/mulching-the-beds"])
    assert m.content_words == 28 and m.content_total == 38 and str(m.content).endswith("div[@class=entry-content]")
    # a summary whose last sentence was edited on the page afterwards
    m = match_item(parse_page(raw("notes-oiling-door-hinge.html")), items["notes.example.net/2009/04/oiling-door-hinge.html"])
    assert (m.content_words, m.content_total) == (23, 27)
    assert str(m.content).endswith("div[@class=post hentry]/div[@id=post-body-3371]")
    assert str(m.title).endswith("div[@class=post hentry]/h3[@class=post-title entry-title]")  # out of its <a>
    assert str(m.author).endswith("span[@class=post-author vcard]/span[@class=fn]")  # not the profile widget
    # a dateline the page does not show: no prefix is found until its words are dropped from the front
    dated = FeedItem(link="x", content="LONDON (Reuters) - Chit the seed potatoes in a cool, bright place")
    m = match_item(parse_page(raw("dana-planting-early-potatoes.html")), dated)
    assert (m.content_skipped, m.content_words) == (3, 9) and str(m.content).endswith("div[@class=entry-content]")


def test_no_match_when_the_text_is_not_on_the_page():
    item = FeedItem(link=f"{DANA}/x/", title="Planting early potatoes",
                    content="Completely different words that appear nowhere on this page at all.")
    assert match_item(parse_page(raw("dana-planting-early-potatoes.html")), item) is None
    short = FeedItem(link=f"{DANA}/x/", title="", content="Chit the seed")  # too short to anchor a post
    assert match_item(parse_page(raw("dana-planting-early-potatoes.html")), short) is None
    # the JSON-LD copy in a <script> is no page text: on a page without the post, nothing is found
    page = b'<html><body><div id="x">Other text</div><script type="application/ld+json">{"articleBody": ' \
           b'"Chit the seed potatoes in a cool, bright place for about six weeks before planting."}</script></body></html>'
    item = FeedItem(link=f"{DANA}/x/", content="Chit the seed potatoes in a cool, bright place for about six weeks")
    assert match_item(HTMLTree.parse(page.decode()), item) is None


# --------------------------------------------------------------------------- templates

def test_paths_of_a_host_generalise_to_a_common_prefix():
    def path(*values):
        return DomPath((PathStep("div", "id", "main"),) + tuple(PathStep("article", "id", v) for v in values)
                       + (PathStep("div", "class", "entry"),))

    merged, pages = merge_paths([path("post-12"), path("post-15"), path("post-37")])
    assert str(merged) == "div[@id=main]/article[@id=post-*]/div[@class=entry]" and pages == 3  # not post-1*
    assert merged.find(parse_page(b'<div id=main><article id=post-99><div class=entry>x</div></article></div>').body)
    assert str(merge_paths([path("a1"), path("b2")])[0]) == "div[@id=main]/article/div[@class=entry]"
    other = DomPath((PathStep("div", "id", "main"), PathStep("div", index=2)))
    assert merge_paths([path("post-1"), path("post-2"), other])[1] == 2  # the majority shape wins ...
    assert merge_paths([path("post-1"), other, DomPath((PathStep("p", index=1),))]) is None  # ... if there is one
    assert str(merge_paths([other, other])[0]) == "div[@id=main]/div[2]"


def test_learned_templates_per_host(learned):
    templates, stats = learned
    assert sorted(templates) == ["dana.example.org", "notes.example.net"]
    dana, notes = templates["dana.example.org"], templates["notes.example.net"]
    assert str(dana.content) == DANA_CONTENT and (dana.pages, dana.support) == (3, 1.0)
    assert str(dana.title) == "div[@id=page]/div[@id=content]/article[@id=post-*]/header[@class=entry-header]/" \
                              "h1[@class=entry-title]"
    assert str(notes.content) == NOTES_CONTENT and notes.pages == 2
    assert {k: stats[k] for k in ("feeds", "feed_items", "pages_linked", "pages_matched", "hosts_with_template")} \
        == {"feeds": 2, "feed_items": 5, "pages_linked": 5, "pages_matched": 5, "hosts_with_template": 2}


def test_learning_reads_pages_before_their_feed_and_refuses_one_shot_iterators(learned):
    before = {h: t.to_json() for h, t in learned[0].items()}
    after = {h: t.to_json() for h, t in learn_templates(records(feeds_first=True))[0].items()}
    assert before == after
    assert {h: t.to_json() for h, t in learn_templates(lambda: iter(records(False)))[0].items()} == before
    with pytest.raises(TypeError):
        learn_templates(r for r in records())
    feeds_only = learn_templates([r for r in records() if "xml" in r[1]])
    assert feeds_only[0] == {} and feeds_only[1]["feed_items"] == 5 and feeds_only[1]["pages_linked"] == 0


def test_templates_round_trip_through_json(learned):
    templates = learned[0]
    shipped = json.loads(json.dumps({h: t.to_json() for h, t in templates.items()}))
    back = {h: HostTemplate.from_json(t) for h, t in shipped.items()}
    assert back == templates
    a = chain(FeedsCleaner(shipped), "dana-mulching-the-beds.html")[0]  # the cleaner takes the JSON too
    b = chain(FeedsCleaner(templates), "dana-mulching-the-beds.html")[0]
    assert (a.text, a.meta) == (b.text, b.meta)
    with pytest.raises(ValueError):
        HostTemplate.from_json({"content": []})
    with pytest.raises(ValueError):
        HostTemplate.from_json({"content": [["div", "style", "x", False, None]]})


def test_a_host_whose_pages_disagree_gets_no_template():
    a = DomPath((PathStep("div", "id", "a"),))
    b = DomPath((PathStep("section", "id", "b"), PathStep("div", index=1)))
    c = DomPath((PathStep("main"), PathStep("p", "class", "x")))
    from preprocess.cleaners.feeds import MatchResult

    assert induce_template([MatchResult(a), MatchResult(b), MatchResult(c)]) is None
    bare = DomPath((PathStep("div", "id", "x1"), PathStep("div")))
    bare2 = DomPath((PathStep("div", "class", "y"), PathStep("div")))
    assert induce_template([MatchResult(bare), MatchResult(bare2)]) is None  # div/div selects anything


# --------------------------------------------------------------------------- cleaning

POSTS = {
    "dana-planting-early-potatoes.html": ("Planting early potatoes", "Dana Smith", [
        "Chit the seed potatoes in a cool, bright place for about six weeks before planting.",
        "Plant them when the soil has warmed a little, usually in late March.",
        "Earth them up as soon as the shoots show, so that frost cannot reach the leaves."]),
    "dana-mulching-the-beds.html": ("Mulching the beds", "Dana Smith", [
        "A thick layer of compost keeps weeds down all summer.",
        "It's best spread in spring, once the soil is moist and warm.",
        "Garden compost", "Leaf mould", "Well-rotted manure"]),
    "dana-saving-tomato-seed.html": ("Saving tomato seed", "Dana Smith", [
        "Pick the ripest fruit from your best plants and squeeze the seeds into a jar with a little water.",
        "Leave the jar for three days until a mould forms on top, then rinse the seeds and dry them on a plate."]),
    "notes-fixing-dripping-tap.html": ("Fixing a dripping tap", "Lee Brown", [
        "A dripping tap usually needs a new washer.",
        "Turn off the water at the isolating valve first, then open the tap to drain it.",
        "Unscrew the headgear with a spanner and swap the washer."]),
    "notes-oiling-door-hinge.html": ("Oiling a door hinge", "Lee Brown", [
        "Squeaky hinges drive me mad.",
        "A drop of light machine oil on the pin, worked in by swinging the door a few times, usually cures them.",
        "If the squeak comes back, lift the door off and grease the pin properly."]),
}
BOILERPLATE = ("Home", "About", "Recent posts", "Subscribe", "Powered by", "comment", "Leave a reply", "Great tips",
               "Filed under", "Posted by", "Blog Archive", "Retired engineer", "Older Post", "Sam said")


@pytest.mark.parametrize("name", sorted(POSTS))
def test_post_pages_keep_only_the_post_text(learned, name):
    cleaner = FeedsCleaner(learned[0], fallback=DensityCleaner())
    (doc,) = chain(cleaner, name)
    title, author, lines = POSTS[name]
    assert doc.text.split("\n") == lines
    assert not any(junk in doc.text for junk in BOILERPLATE)
    assert doc.fields["post_title"] == title and doc.fields["author"] == author
    assert cleaner.stats.counts["feeds.post"] == 1 and "feeds.non_post" not in cleaner.stats.counts


def test_a_post_no_feed_links_to_is_cut_by_its_hosts_template(learned):
    assert "pruning" not in json.dumps([i.link for i in items_by_key().values()])
    cleaner = FeedsCleaner(learned[0], fallback=DensityCleaner())
    (doc,) = chain(cleaner, "dana-pruning-the-apple-tree.html")
    assert doc.text.split("\n") == ["Prune apple trees in winter, while they are dormant.",
                                    "Remove dead, diseased and crossing branches first.",
                                    "Then thin the crowded spurs so that light reaches the middle of the tree."]
    assert doc.fields["post_title"] == "Pruning the apple tree" and doc.fields["author"] == "Dana Smith"
    assert "Plums are pruned in summer" not in doc.text  # the author's own comment stays out
    assert cleaner.stats.counts["feeds.post"] == 1


@pytest.mark.parametrize("name", ["dana-about.html", "dana-archive.html"])
def test_pages_the_template_does_not_match_are_non_posts_cleaned_by_density(learned, name):
    cleaner = FeedsCleaner(learned[0], fallback=DensityCleaner())
    (doc,) = chain(cleaner, name)
    (dens,) = chain(DensityCleaner(), name)
    assert cleaner.stats.counts["feeds.non_post"] == 1 and "feeds.post" not in cleaner.stats.counts
    assert "post_title" not in doc.fields and doc.text == dens.text
    if name == "dana-about.html":
        assert doc.text.split("\n")[0].startswith("I have grown vegetables on this allotment since 1998")


def test_hosts_without_template_fall_back_to_density(learned):
    cleaner = FeedsCleaner(learned[0], fallback=DensityCleaner())
    (doc,) = chain(cleaner, "dana-planting-early-potatoes.html", url="http://elsewhere.example.com/p/1")
    (dens,) = chain(DensityCleaner(), "dana-planting-early-potatoes.html")
    assert cleaner.stats.counts["feeds.no_template"] == 1 and doc.text == dens.text and "post_title" not in doc.fields


def test_a_feed_reaching_the_cleaner_becomes_its_items_text():
    expected = ["Fixing a dripping tap", "A dripping tap usually needs a new washer.",
                "Turn off the water at the isolating valve first, then open the tap to drain it.",
                "Unscrew the headgear with a spanner and swap the washer.", "Subscribe to Lee's notes by email",
                "Oiling a door hinge", "Squeaky hinges drive me mad. A drop of light machine oil on the pin, worked "
                "in by swinging the door a few times, fixes them for good."]
    for ct in ("application/atom+xml", "text/html"):  # by type, or by the tree's <feed> root
        cleaner = FeedsCleaner({})
        docs = [Document(id="f", url=FEEDS["notes-atom.xml"][0], content_type=ct, raw=raw("notes-atom.xml"),
                         encoding="utf-8")]
        (doc,) = run_steps([Parse(), cleaner, TagRemoval()], docs)
        assert doc.text.split("\n") == expected and doc.title == "Lee's notes"
        assert cleaner.stats.counts["feeds.feed"] == 1
    # lexbor reads CDATA as a comment; the item texts are still recovered (feedparser's text, same lines)
    docs = [Document(id="f", url=FEEDS["dana-rss.xml"][0], content_type="application/rss+xml", raw=raw("dana-rss.xml"),
                     encoding="utf-8")]
    (doc,) = run_steps([Parse(), FeedsCleaner({}), TagRemoval()], docs)
    assert doc.text == feed_text(raw("dana-rss.xml"), FEEDS["dana-rss.xml"][0])
    # before Parse (raw bytes still there) feedparser reads the feed itself
    doc = FeedsCleaner({}).process(Document(id="f", url=DANA, content_type="application/rss+xml", raw=raw("dana-rss.xml")))
    assert [p.text for p in doc.tree.body.query_selector_all("p")][:2] == [
        "Saving tomato seed", "Pick the ripest fruit from your best plants and squeeze the seeds into a jar [\u2026]"]


# --------------------------------------------------------------------------- bad input

def test_bad_feeds_give_no_items(tmp_path):
    secret = tmp_path / "feed.xml"
    secret.write_bytes(raw("dana-rss.xml"))
    for bad in (b"", b"   ", b"<rss><channel><item><title>cut", b"\x00\xff" * 100, b"<html><body>no</body></html>",
                str(secret).encode(), b'<rss version="2.0"><channel><title>t</title></channel></rss>'):
        assert feed_items(bad, f"{DANA}/feed/") == [], bad[:40]  # a path in the payload is never opened
    cleaner = FeedsCleaner({})
    docs = [Document(id="e", url=DANA, content_type="application/rss+xml",
                     raw=b'<rss version="2.0"><channel><title>t</title></channel></rss>', encoding="utf-8")]
    assert run_steps([Parse(), cleaner], docs) == [] and cleaner.stats.counts["feeds.feed_empty"] == 1
    # an HTML page whose body starts with a <feed> element of its own is still a page
    page = b"<html><body><feed><p>" + b"A page that uses a custom feed element for its text. " * 5 + b"</p></feed></body></html>"
    docs = [Document(id="p", url="http://x.org/", content_type="text/html", raw=page)]
    (doc,) = run_steps([Decode(), Parse(), FeedsCleaner({}), TagRemoval()], docs)
    assert doc.text.startswith("A page that uses a custom feed element")


def test_bad_pages_never_crash(learned):
    deep_post = (b'<html><body><div id="page"><div id="content"><article id="post-9"><div class="entry-content">'
                 + b"<div>" * 5000 + b"deep post text" + b"</div>" * 5000 + b"</div></article></div></div></body></html>")
    pages = {
        "frameset": b"<html><frameset><frame src=a><frame src=b></frameset></html>",
        "no_body": b"<html><head><title>Only a title</title></head></html>",
        "empty_post": b'<html><body><div id="page"><div id="content"><article id="post-9"><div class="entry-content">'
                      b' </div></article></div></div><p>Some page text that is here.</p></body></html>',
        "deep_post": deep_post,
        "binary": bytes(range(256)) * 8,
    }
    cleaner = FeedsCleaner(learned[0], fallback=DensityCleaner())
    docs = [Document(id=k, url=f"{DANA}/p/{k}", content_type="text/html", raw=v) for k, v in pages.items()]
    start = time.perf_counter()
    out = {d.id: d for d in run_steps([Decode(), Parse(), cleaner, TagRemoval()], docs)}
    assert time.perf_counter() - start < 10
    assert not any(k.startswith("failed") for k in cleaner.stats.counts), cleaner.stats.counts
    assert out["deep_post"].text == "deep post text" and out["empty_post"].text == "Some page text that is here."
    assert cleaner.stats.counts["feeds.post"] == 1 and cleaner.stats.counts["feeds.non_post"] == 3
    assert cleaner.process(Document(id="none", url=DANA)) is None  # no tree: dropped, not raised
    # matching: no body, frameset, nesting deeper than any path may be
    item = FeedItem(link=f"{DANA}/x/", title="deep", content="text here " * 30)
    for page in (pages["frameset"], pages["no_body"],
                 b"<html><body>" + b"<div>" * 5000 + b"text here " * 40 + b"</div>" * 5000 + b"</body></html>"):
        assert match_item(parse_page(page), item) is None
    assert match_item(HTMLTree.parse(""), item) is None


def test_learning_survives_bad_records():
    atom = (b"<?xml version='1.0'?><feed xmlns='http://www.w3.org/2005/Atom'><entry><title>Hello</title>"
            b"<link href='/p/1'/><summary>Some words that make up the summary text of this post</summary></entry></feed>")
    recs = [("http://x.org/feed", "application/rss+xml", b""), ("http://x.org/f2", "application/rss+xml", b"<rss><ch"),
            ("http://x.org/f3", "text/xml", atom), ("http://x.org/p/1", "text/html", b"<html><frameset></frameset></html>"),
            ("http://x.org/p/1", "text/html", b"<html><body><p>Some words that make up the summary text</p></body>"),
            ("", "", b"x"), ("not a url", "text/html", None), ("http://[bad", "text/html", b"<p>x</p>")]
    templates, stats = learn_templates(recs)
    assert templates == {}
    assert (stats["feeds"], stats["feed_items"], stats["pages_linked"], stats["pages_unmatched"]) == (2, 1, 1, 1)


@pytest.mark.slow
def test_preprocess_learns_templates_from_the_crawls_feeds_and_cleans_every_page(tmp_path):
    """The whole stage: feeds and pages in WARCs (feeds last), a learning pass, then Ray workers."""
    import json as _json

    from preprocess.config.options import CleanOptions
    from preprocess.driver.preprocess import run_preprocess
    from tests.conftest import local_run
    from webprune.warcpack import pack_pages

    pack_pages([(name, url, raw(name)) for name, url in PAGES.items()], tmp_path / "a-pages.warc.gz")
    pack_pages([(name, url, raw(name)) for name, (url, _ct) in FEEDS.items()], tmp_path / "b-feeds.warc.gz",
               content_type="application/rss+xml")
    r = run_preprocess([str(tmp_path / "a-pages.warc.gz"), str(tmp_path / "b-feeds.warc.gz")], str(tmp_path / "out"),
                       CleanOptions(cleaner="feeds"), local_run(executor="ray", workers=2), progress=False)
    feeds = r["learned"]["feed_templates"]
    assert feeds["hosts"] == ["dana.example.org", "notes.example.net"] and feeds["feeds"] == 2
    assert r["written"] == len(PAGES) and not r["unaccounted"]
    assert r["skipped"] == {"non_html": 2}  # the feeds taught the templates; they are not pages
    assert r["counters"]["feeds.post"] == 6 and r["counters"]["feeds.non_post"] == 2
    out = {d["id"]: d for f in (tmp_path / "out" / "collection").glob("*.jsonl")
           for d in map(_json.loads, f.read_text().splitlines())}
    apple = out["dana-pruning-the-apple-tree.html"]
    assert apple["post_title"] == "Pruning the apple tree" and apple["author"] == "Dana Smith"
    assert apple["contents"].split("\n")[1:] == ["Prune apple trees in winter, while they are dormant.",
                                                "Remove dead, diseased and crossing branches first.",
                                                "Then thin the crowded spurs so that light reaches the middle of "
                                                "the tree."]


def test_round_1_reads_only_the_units_holding_pages_an_item_links_to(tmp_path, monkeypatch):
    """The feeds' own file (and a file of pages no item links to) are read once, in round 0; the
    templates are the same."""
    from preprocess.learning import engine as learning
    from preprocess.config.options import CleanOptions
    from preprocess.driver.preprocess import run_preprocess
    from tests.conftest import local_run
    from webprune.warcpack import pack_pages

    pack_pages([(name, url, raw(name)) for name, url in PAGES.items()], tmp_path / "a-pages.warc.gz")
    pack_pages([(name, url, raw(name)) for name, (url, _ct) in FEEDS.items()], tmp_path / "b-feeds.warc.gz",
               content_type="application/rss+xml")
    pack_pages([("other", "http://elsewhere.example/x", raw("dana-mulching-the-beds.html"))], tmp_path / "c-other.warc.gz")
    read = []
    real = learning.learn_unit

    def counting(shared, task, progress=None):
        read.append((task[1], task[2].source.name))
        return real(shared, task, progress)

    monkeypatch.setattr(learning, "learn_unit", counting)
    r = run_preprocess([str(tmp_path / n) for n in ("a-pages.warc.gz", "b-feeds.warc.gz", "c-other.warc.gz")],
                       str(tmp_path / "out"), CleanOptions(cleaner="feeds"), local_run(), progress=False)
    assert sorted(read) == [(0, "a-pages"), (0, "b-feeds"), (0, "c-other"), (1, "a-pages")]
    feeds = r["learned"]["feed_templates"]
    _, by_text = learn_templates(records(feeds_first=False))  # every record in one process, by the items' text
    assert feeds["hosts"] == ["dana.example.org", "notes.example.net"]
    assert {k: feeds[k] for k in ("feed_items", "pages_linked", "pages_matched")} == \
        {k: by_text[k] for k in ("feed_items", "pages_linked", "pages_matched")}
    assert r["written"] == len(PAGES) + 1 and not r["unaccounted"]
