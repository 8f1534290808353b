"""The feeds learning pass ships digests: item hashes answer as the item text does, and travel only to the
units that hold the pages they link to.

Inputs: random strings built here (a 4-letter alphabet, so near misses abound, plus non-BMP characters),
real pages of the shared cleaning sets with feed items cut from their own text, and the hand-written
feed fixtures of test_feeds.py.
"""
import pickle
import random

from preprocess.cleaners.feeds import FeedItem, learn_templates, match_item, parse_page, url_key
from preprocess.cleaners.feeds.digest import Haystack, WordsDigest, item_digest
from preprocess.cleaners.feeds.learn import FeedTemplates
from preprocess.cleaners.feeds.match import longest_prefix
from preprocess.core.document import Document
from preprocess.config.options import CleanOptions
from tests.conftest import shared
from tests.test_feeds import FEEDS, PAGES, raw, records
from webprune.benchdata import cleaning_pages


def test_a_hashed_needle_is_found_exactly_where_the_string_is():
    rng = random.Random(7)
    alphabet = "abcd\U0001F600é"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(0, 8))]
        digest, hay = WordsDigest.of(words), Haystack(text)
        for a in range(len(words) + 1):
            for b in range(a, len(words) + 1):
                assert (digest.needle(a, b) in hay) == ("".join(words[a:b]) in text), (text, words, a, b)
                assert digest.chars(a, b) == len("".join(words[a:b]))
        for start in range(min(len(words), 3)):
            for min_words in (1, 2):
                assert longest_prefix(digest, hay, min_words, 3, start) == \
                    longest_prefix(words, text, min_words, 3, start)


def _items_from(text: str, other: str, rng: random.Random) -> list[FeedItem]:
    """Feed items as feeds write them from a page's own text: a slice of it, then words the page does not have
    (a truncated description's tail), sometimes a dateline first; a title and an author from its lines."""
    words, foreign = text.split(), other.split()
    lines = [line for line in text.splitlines() if len(line.split()) >= 3]
    items = []
    for _ in range(3):
        i = rng.randrange(max(len(words) - 20, 1))
        content = words[i:i + rng.randint(8, 300)] + foreign[:rng.randint(0, 30)]
        if rng.random() < 0.3:
            content = ["Posted", "12.3.2008"] + content
        title = rng.choice(lines) if lines else ""
        author = " ".join(rng.choice(lines).split()[:2]) if lines else ""
        items.append(FeedItem(link="http://x.example/p", title=title, content=" ".join(content), author=author))
    items.append(FeedItem(link="http://x.example/q", title=" ".join(foreign[:6]), content=" ".join(foreign[:80])))
    return items


def test_item_digests_match_real_pages_as_the_item_text_does():
    rng = random.Random(25)
    shared("cleaning")  # skips, as every real-data test does, where ../shared/data is missing
    pages = [p for s in ("cleaneval-dev", "l3s-gn1", "dragnet") for p in cleaning_pages([s])[:20]]
    texts = [parse_page(p.read_bytes()).body.text or "" for p in pages]
    matched = compared = 0
    for k, page in enumerate(pages):
        for item in _items_from(texts[k], texts[k - 1], rng):
            by_text = match_item(parse_page(page.read_bytes()), item)
            assert match_item(parse_page(page.read_bytes()), item_digest(item)) == by_text, (page, item.title)
            compared += 1
            matched += by_text is not None and by_text.title is not None
    assert compared == 4 * len(pages) and matched >= len(pages)  # most cut items are found, titles too


def _docs(names_urls: list[tuple[str, str, str]]) -> list[Document]:
    return [Document(id=name, url=url, content_type=ct, raw=raw(name)) for name, url, ct in names_urls]


def test_the_pass_routes_item_digests_to_the_units_holding_their_pages_only():
    units = [_docs([(n, u, "text/html") for n, u in PAGES.items() if n.startswith("dana")]),
             _docs([(n, u, ct) for n, (u, ct) in FEEDS.items()]),
             _docs([(n, u, "text/html") for n, u in PAGES.items() if n.startswith("notes")])]
    learner = FeedTemplates(CleanOptions(cleaner="feeds"))
    partials = [learner.map_docs(0, iter(docs), None) for docs in units]
    shipped = pickle.dumps(partials)
    for phrase in (b"allotment", b"Dana Smith", b"Planting early potatoes"):  # feed text, titles, authors
        assert phrase in b"".join(raw(n) for n in FEEDS) and phrase not in shipped
    state = learner.reduce(0, partials, None)
    routes = learner.route(0, state)
    assert "routes" not in state and routes[1] is None  # the feeds' unit holds no page: no round 1 for it
    assert set(routes[0]) == {url_key(PAGES[n]) for n in ("dana-planting-early-potatoes.html",
                                                          "dana-mulching-the-beds.html", "dana-saving-tomato-seed.html")}
    assert set(routes[2]) == {url_key(u) for n, u in PAGES.items() if n.startswith("notes")}
    assert b"allotment" not in pickle.dumps(routes)
    found = [learner.map_docs(1, iter(docs), route) for docs, route in zip(units, routes) if route is not None]
    state = learner.reduce(1, found, state)
    by_text, stats = learn_templates(records(feeds_first=False))
    assert {h: t.to_json() for h, t in state["templates"].items()} == {h: t.to_json() for h, t in by_text.items()}
    assert state["stats"] == stats
