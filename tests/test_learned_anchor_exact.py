"""The heading columns' fast paths (anchor.py) give exactly what their references give: the page's names, read off
the few elements a narrow selector finds, are those read off every ``meta[content]``, on real pages and on pages
built to hit the edge cases (keys in capitals or other letters, name beside property, no content, JSON-LD only,
templates, foreign elements), also when only ``<head>`` is searched because the serialised ``<body>`` cannot
hold any; the compiled search for a heading without an ``<h1>`` finds the block and share the
Python one finds, on real pages and on texts of every code point."""
import json
import random
import sys

import numpy as np
import pytest
from resiliparse.parse.html import HTMLTree

from eval.cleaning.gold import gold_pages
from preprocess.cleaners.learned import anchor, compiled
from preprocess.cleaners.learned.anchor import page_head
from preprocess.cleaners.learned.blocks import Page, split_body
from tests.conftest import shared

needs_compiled = pytest.mark.skipif(not compiled.BUILT, reason="the compiled twins were not built (no C compiler)")


def selector_names(tree) -> list[str]:
    """The reference: every ``meta[content]`` and JSON-LD script, in document order (what page_head read before)."""
    names = []
    for el in tree.document.query_selector_all('meta[content], script[type="application/ld+json"]').values():
        if el.tag == "meta":
            key = (el.getattr("name") or el.getattr("property") or "").lower()
            if key in anchor.NAME_KEYS and (el.getattr("content") or "").strip():
                names.append(el.getattr("content"))
            continue
        text = el.text
        if len(text) > anchor.MAX_LD_CHARS or ("name" not in text and "headline" not in text):
            continue
        try:
            anchor._walk_ld(json.loads(text), names, 0)
        except (ValueError, RecursionError):
            continue
    return names


KEYS = ["og:title", "OG:TITLE", "Og:Title", "twitter:title", "TWITTER:TITLE", "og:title ", " og:title", "og:titlé",
        "og:tit\u212ale", "og:t\u0130tle", "og&#58;title", "og:description", "description", "", "og:title:x"]
TYPES = ["application/ld+json", "Application/LD+JSON", "APPLICATION/LD+JSON", "application/ld+json ",
         "text/javascript", "application/json", ""]
LD = [json.dumps({"@type": "Product", "name": "Oak chair"}), json.dumps({"@type": "Organization", "name": "Shop"}),
      json.dumps({"@graph": [{"@type": "Article", "headline": "Big news"}, {"@type": "WebSite", "name": "Site"}]}),
      "{ not json", json.dumps({"nothing": 1}), json.dumps([{"name": "A list"}, {"name": "  "}])]
WRAPS = ["{}", "<template>{}</template>", "<svg>{}</svg>", "<math>{}</math>", "<noscript>{}</noscript>",
         "<div><section>{}</section></div>", "<svg><foreignObject>{}</foreignObject></svg>", "<iframe>{}</iframe>"]


def meta(rng: random.Random) -> str:
    attrs = []
    names = ["name", "property", "NAME", "Property", "content", "CONTENT", "itemprop"]
    for attr in rng.sample(names, rng.randint(1, 4)):
        value = rng.choice(KEYS) if attr.lower() != "content" else rng.choice(["Oak chair", "  ", "", "A &amp; B"])
        attrs.append(f'{attr}="{value}"' if rng.random() < 0.9 else attr)
    return f"<meta {' '.join(attrs)}>"


def script(rng: random.Random) -> str:
    return f'<script type="{rng.choice(TYPES)}">{rng.choice(LD)}</script>'


def random_page(rng: random.Random) -> str:
    parts = [rng.choice(WRAPS).format(rng.choice([meta, script])(rng)) for _ in range(rng.randint(0, 6))]
    cut = rng.randint(0, len(parts))
    return (f"<html><head><title>t</title>{''.join(parts[:cut])}</head><body><p>x</p>{''.join(parts[cut:])}"
            "</body></html>")


def test_the_names_are_the_wide_selectors_names_on_pages_built_for_the_edge_cases():
    rng = random.Random(23)
    pages = [random_page(rng) for _ in range(3000)]
    found = shortcut = shortcut_named = 0
    for html in pages:
        tree = HTMLTree.parse(html)
        want = tuple(selector_names(tree))
        assert page_head(tree).names == want == page_head(tree, tree.body.html).names, html
        found += bool(want)
        if not anchor.may_name(tree.body.html) and anchor._head_alone(tree) is not None:  # <head> alone searched
            shortcut += 1
            shortcut_named += bool(want)
    assert found > 500  # (a quarter of the pages have names: the check is not on empty heads only)
    assert shortcut > 500 and shortcut_named > 10, (shortcut, shortcut_named)  # the shortcut itself is tested
    both = HTMLTree.parse('<html><head><meta name="twitter:title" property="og:description" content="B">'
                          '<meta property="OG:TITLE" name="" content="A"><meta name="description" property="og:title"'
                          ' content="no"></head><body><script type="application/LD+json">{"name": "C"}</script>'
                          '</body></html>')
    assert page_head(both).names == ("B", "A", "C")  # the name's key, else the property's, in any case


def test_the_names_are_the_wide_selectors_names_on_real_pages():
    pages = gold_pages(shared(), ["wcxb-dev", "l3s-gn1", "dragnet"])[::3]
    named = 0
    for p in pages:
        tree = HTMLTree.parse_from_bytes(p.raw())
        want = tuple(selector_names(tree))
        assert page_head(tree).names == want == page_head(tree, tree.body.html).names, p.name
        named += bool(want)
    assert named > len(pages) // 3


@pytest.mark.parametrize("html", ["", "<html><body></body></html>", "<frameset><meta property=og:title content=x>"])
def test_pages_without_names_have_an_empty_head(html):
    assert page_head(HTMLTree.parse(html)).names == ()


def compiled_short_titled(page: Page, titled: set, least: float = 0.0) -> tuple[int, float]:
    return compiled._anchor.short_titled(page.texts, page.link_chars, titled, *anchor.SHORT, least, anchor._words)


@needs_compiled
def test_the_compiled_heading_search_is_the_pythons_on_real_pages():
    rng = random.Random(7)
    pages = gold_pages(shared(), ["wcxb-dev", "cleaneval-dev", "dragnet"])[::7]
    found = 0
    for p in pages:
        tree = HTMLTree.parse_from_bytes(p.raw())
        page = split_body(tree)
        if not page.texts:
            continue
        title = set(anchor._words(tree.title or ""))
        some = set().union(*map(anchor._words, rng.sample(page.texts, min(3, len(page.texts)))))
        for titled in (title, title | some, some, {"the", "of"}):
            for least in (0.0, 0.5, anchor.MIN_TITLED, 1.0):
                want = anchor.short_titled(page, titled, least)
                assert compiled_short_titled(page, titled, least) == want, p.name
            found += want[1] >= anchor.MIN_TITLED
    assert found > len(pages)  # (headings found: the shares are not all 0)


@needs_compiled
def test_the_compiled_heading_search_lower_cases_and_splits_every_code_point_as_python_does():
    """Each text: 12 code points, each between letters (U+0130, final sigma, U+212A among them), some words over
    the compiled buffer's 256 characters; every other word titled, so a word split or lower-cased otherwise
    changes the share."""
    points = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    points += ["\u0130", "\u03a3", "\u212a", "\u03a3 ", "A\u03a3'", "x" * 300, "\u00c9" * 257 + "\u03a3",
               "\u00e9" * 256]
    for i in range(0, len(points), 12):
        text = " ".join(f"a{c}B" for c in points[i:i + 12])
        titled = set(anchor._words(text)[::2])
        page = Page(texts=[text, "Plain words here"], link_chars=[0, 0])
        for least in (0.0, 0.5):
            assert compiled_short_titled(page, titled, least) == anchor.short_titled(page, titled, least), ascii(text)
    linked = Page(texts=["Oak chair", "Oak chair too", "x"], link_chars=[5, 4, 0])  # 5 of 9 linked: not a heading
    assert compiled_short_titled(linked, {"oak", "chair"}) == anchor.short_titled(linked, {"oak", "chair"}, 0.0) \
        == (1, 2 / 3)
    assert compiled_short_titled(linked, {"oak", "chair"}, 0.8) == anchor.short_titled(linked, {"oak", "chair"}, 0.8) \
        == (-1, 0.0)


@needs_compiled
def test_the_compiled_columns_are_numpys_to_the_bit(monkeypatch):
    """On real pages (their own heading, and every 10th block taken as the heading) and on a heading outside every
    element: the same float64 values and signs on both paths (and the same elements of a tag)."""
    pages = gold_pages(shared(), ["wcxb-dev", "cleaneval-final", "l3s-gn1"])[::9]
    cases = []
    for p in pages:
        tree = HTMLTree.parse_from_bytes(p.raw())
        head, page = page_head(tree), split_body(tree)
        for tag in set(page.el_tag[:50]):
            assert compiled._anchor.elements(page.el_tag, tag) == anchor._elements(page.el_tag, tag)
        cases.append((page, tree.title or "", head))
        cases += [(page, "", anchor.PageHead((page.texts[b],))) for b in range(0, len(page.texts), 10)]
    bare = Page(texts=["Oak chair", "Seats one."], link_chars=[0, 0], owner=[-1, 0], start=[0, 9], el_tag=[0],
                el_parent=[-1], el_depth=[0], el_names=[""], el_start=[9], el_end=[19], chars=19)
    held = Page(texts=["Oak chair", "Seats one."], link_chars=[0, 0], owner=[0, -1], start=[0, 9], el_tag=[0],
                el_parent=[-1], el_depth=[0], el_names=[""], el_start=[0], el_end=[9], chars=19)
    cases += [(bare, "Oak chair", None), (held, "Oak chair", None)]
    fast = [anchor.anchor_columns(*case) for case in cases]
    monkeypatch.setattr(compiled, "ON", False)
    slow = [anchor.anchor_columns(*case) for case in cases]
    assert sum(x[:, 0].any() for x in fast) > len(cases) * 0.8  # (a heading found: the columns are not all 0)
    for a, b in zip(fast, slow):
        assert a.dtype == b.dtype and np.array_equal(a, b) and np.array_equal(np.signbit(a), np.signbit(b))
    assert fast[-2][:, 3].tolist() == [1.0, 0.0] and fast[-2][:, 4].tolist() == [1.0, 1.0]  # no element holds it
    assert fast[-1][:, 4].tolist() == [9 / 19, 1.0] and fast[-1][:, 5].tolist() == [0.0, np.log1p(1)]


@needs_compiled
def test_the_body_is_searched_for_names_in_c_as_in_python_in_every_width():
    markups = [HTMLTree.parse_from_bytes(p.raw()).body.html for p in gold_pages(shared(), ["wcxb-dev"])[::25]]
    rng = random.Random(11)
    parts = ["<meta", "<META", ":title", ":TiTlE", ":titl", "title", "ld+json", "LD+Json", "d+json", "+json", "ld+",
             "<", ":", "+", "x", "\u00e9", "\u2019", "\U0001F600", "\u0130", "\u212a"]
    markups += ["".join(rng.choices(parts, k=rng.randint(0, 6))) for _ in range(5000)]
    assert sum(map(anchor.may_name, markups)) > 1000
    for m in markups:
        assert compiled._anchor.may_name(m) == anchor.may_name(m), ascii(m[:200])


def test_an_element_outside_head_and_body_is_searched_too():
    tree = HTMLTree.parse("<html><head><title>t</title></head><body><p>Oak chair</p></body></html>")
    html = tree.head.parent_element
    extra = tree.create_element("meta")
    extra.setattr("property", "og:title")
    extra.setattr("content", "Oak chair")
    html.append_child(extra)  # (no parser puts one there; a step before the cleaner might)
    markup = tree.body.html
    assert not anchor.may_name(markup) and anchor._head_alone(tree) is None
    assert page_head(tree, markup).names == page_head(tree).names == ("Oak chair",)
