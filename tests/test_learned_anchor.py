"""Heading columns of the learned cleaner (anchor.py): the page's names read off the tree, the main heading found,
and each block's distance to it and the element holding both, on pages built by hand and a real WCXB page."""
import json

import numpy as np
import pytest
from resiliparse.parse.html import HTMLTree

from preprocess.cleaners.learned import compiled
from preprocess.cleaners.learned.anchor import NAMES, PageHead, anchor_columns, main_heading, page_head
from preprocess.cleaners.learned.blocks import split_body
from preprocess.cleaners.learned.cleaner import LearnedCleaner
from preprocess.cleaners.learned.features import LATEST, TokenVocab, feature_names, page_features
from preprocess.cleaners.learned.model import BlockModel
from preprocess.core.document import Document
from tests.test_learned import stump

DESCRIPTION = "A sturdy oak chair with a woven seat, hand finished in our workshop in Devon."
LD = {"@context": "https://schema.org", "@graph": [
    {"@type": "Organization", "name": "Oak Shop", "description": "We sell furniture since 1990."},
    {"@type": "Product", "name": "Oak chair Model 7", "description": DESCRIPTION,
     "offers": {"@type": "Offer", "description": "Free shipping over 50 pounds"},
     "review": [{"@type": "Review", "description": "Lovely chair, arrived quickly."}]}]}
PRODUCT = f"""<html><head><title>Oak chair Model 7 | Oak Shop</title>
<meta name="description" content="{DESCRIPTION}"><meta property="og:title" content="Oak chair Model 7">
<script type="application/ld+json">{json.dumps(LD)}</script>
<script type="application/ld+json">{{ not json </script></head><body>
<div id="nav"><a href="/">Home</a> <a href="/chairs">Chairs</a></div>
<main><section id="product"><h1>Oak chair Model 7</h1><p>{DESCRIPTION} It seats one.</p>
<p>Width 45 cm, depth 50 cm, height 90 cm.</p></section>
<section id="reviews"><h2>Reviews</h2><div class="review"><p>Lovely chair, arrived quickly.</p></div>
<div class="review"><p>Too low for my table.</p></div></section></main>
<div id="recommended"><p>You may also like: the Oak Table, the Oak Stool and the Walnut Bench.</p></div>
<div id="footer"><p>Free shipping over 50 pounds. Prices in GBP.</p></div></body></html>"""


def columns(html: str, head: PageHead | None = None):
    tree = HTMLTree.parse(html)
    head = page_head(tree) if head is None else head
    page = split_body(tree)
    X = anchor_columns(page, tree.title or "", head)
    return page, {name: X[:, i] for i, name in enumerate(NAMES)}


def block(page, start: str) -> int:
    found = [i for i, t in enumerate(page.texts) if t.startswith(start)]
    assert len(found) == 1, (start, page.texts)
    return found[0]


def test_the_head_holds_meta_and_json_ld_names_but_not_the_organisations_offers_or_reviews():
    head = page_head(HTMLTree.parse(PRODUCT))
    assert head.names == ("Oak chair Model 7", "Oak chair Model 7")  # og:title, the Product's (not the shop's)
    assert page_head(HTMLTree.parse("<html><body><p>x</p></body></html>")) == PageHead()


def test_blocks_near_the_heading_and_in_its_section_are_told_from_reviews_recommendations_and_footer():
    page, c = columns(PRODUCT)
    h = block(page, "Oak chair Model 7")
    assert c["is_heading"].tolist() == [i == h for i in range(len(page.texts))]
    assert (c["heading_found"] == 1).all()
    desc, dims = block(page, DESCRIPTION[:20]), block(page, "Width 45")
    review, shop = block(page, "Lovely chair"), block(page, "Free shipping")
    home = block(page, "Home")
    # before the heading negative, after it positive, growing with the distance
    assert c["heading_blocks"][home] < 0 < c["heading_blocks"][desc] < c["heading_blocks"][review]
    assert c["heading_chars"][home] < 0 < c["heading_chars"][dims] < c["heading_chars"][shop]
    # the element holding a block and the heading: the product's section, then <main>, then <body>
    assert c["heading_lca_share"][desc] == c["heading_lca_share"][dims] < c["heading_lca_share"][review] \
        < c["heading_lca_share"][shop] == 1.0
    assert c["heading_lca_up"][desc] == np.log1p(1) and c["heading_lca_up"][review] == np.log1p(2)
    assert c["heading_lca_up"][h] == 0.0


def test_without_an_h1_the_heading_is_the_short_block_made_of_the_titles_words_and_else_there_is_none():
    html = ("<html><head><title>Walnut bench</title></head><body><div><a href='/'>Walnut shop home</a></div>"
            "<div><p>Our walnut bench</p><p>Walnut bench</p><p>Made from one plank of walnut.</p></div></body></html>")
    page, c = columns(html)
    assert page.texts[int(np.argmax(c["is_heading"]))] == "Walnut bench"  # all its words are the title's
    # (not "Our walnut bench": 2 of 3 words; not the link, however titled)
    untitled = html.replace("<title>Walnut bench</title>", "")
    page, c = columns(untitled)
    assert (c["heading_found"] == 0).all() and (c["heading_lca_share"] == 1).all() and (c["is_heading"] == 0).all()


def test_of_several_h1_the_one_most_like_the_title_is_the_main_heading():
    html = ("<html><head><title>Garden hoses</title></head><body><h1>Oak Shop</h1><div><h1>Garden hoses</h1>"
            "<p>Hoses of every length.</p></div></body></html>")
    tree = HTMLTree.parse(html)
    page = split_body(tree)
    assert page.texts[main_heading(page, "Garden hoses", None)] == "Garden hoses"
    assert page.texts[main_heading(page, "", None)] == "Oak Shop"  # no names: the first
    assert page.texts[main_heading(page, "Oak garden", None)] == "Oak Shop"  # a tie: the first
    assert page.texts[main_heading(page, "", PageHead(("Garden hoses",)))] == "Garden hoses"  # a name
    assert page.texts[main_heading(page, "", lambda: PageHead(("Garden hoses",)))] == "Garden hoses"
    _, c = columns(html)
    assert page.texts[int(np.argmax(c["is_heading"]))] == "Garden hoses"


def test_the_names_are_read_only_when_there_is_no_single_h1():
    asked = []

    def head():
        asked.append(1)
        return PageHead(("Oak chair",))

    one = split_body(HTMLTree.parse("<html><body><p>Oak chair</p><h1>Our shop</h1><p>Oak chair</p></body></html>"))
    assert one.texts[main_heading(one, "Oak chair", head)] == "Our shop" and not asked  # the one <h1>, named or not
    none = split_body(HTMLTree.parse("<html><body><p>Our shop</p><p>An oak chair</p><p>Oak chair</p></body></html>"))
    assert none.texts[main_heading(none, "", head)] == "Oak chair" and asked == [1]  # 2 of 2 words; 2 of 3 less
    assert main_heading(none, "", lambda: PageHead()) == -1  # no title, no names: none


def test_page_features_end_with_the_heading_columns_on_both_paths():
    tree = HTMLTree.parse(PRODUCT)
    head = page_head(tree)
    names = feature_names(TokenVocab(["review"]))
    assert names[-len(LATEST):] == LATEST == NAMES
    fast = page_features(split_body(tree), tree.title, TokenVocab(["review"]), head)
    on = compiled.ON
    try:
        compiled.ON = False
        slow = page_features(split_body(HTMLTree.parse(PRODUCT)), tree.title, TokenVocab(["review"]), head)
    finally:
        compiled.ON = on
    assert fast.shape[1] == len(names) and np.array_equal(fast, slow)
    assert fast[:, names.index("is_heading")].sum() == 1 and (fast[:, names.index("heading_found")] == 1).all()
    # without the head the title alone finds the same <h1>; with no title nor head the first <h1> is taken
    no_head = page_features(split_body(HTMLTree.parse(PRODUCT)), tree.title, TokenVocab(["review"]))
    assert np.array_equal(no_head, fast)


def test_the_cleaner_finds_the_heading_for_a_model_with_the_heading_columns_and_runs_one_from_before_them():
    names = feature_names(TokenVocab([]))

    def kept(model: dict) -> list[str]:
        cleaner = LearnedCleaner(BlockModel(model))
        doc = cleaner.process(Document(id="p", content_type="text/html", tree=HTMLTree.parse(PRODUCT)))
        return [t for t in doc.tree.body.text.split("\n") if t.strip()]

    # keep the main heading only: found by the cleaner itself
    assert kept(stump(names, "is_heading", 0.5, -5.0, 5.0)) == ["Oak chair Model 7"]
    # keep what lies after it: not the navigation before it
    after = "".join(kept(stump(names, "heading_blocks", 0.0, -5.0, 5.0)))
    assert after.startswith(DESCRIPTION) and after.endswith("Prices in GBP.") and "Home" not in after
    # keep what shares the product's section with it (0.45 of the page; <main> 0.62)
    assert "".join(kept(stump(names, "heading_lca_share", 0.5, 5.0, -5.0))) == (
        "Oak chair Model 7" + DESCRIPTION + " It seats one." + "Width 45 cm, depth 50 cm, height 90 cm.")
    old = names[:-len(LATEST)]  # a model trained before the heading columns: they are left out of its rows
    assert LearnedCleaner(BlockModel(stump(old, "link_density", 0.5, 5.0, -5.0))).columns == len(old)
    assert "Home" not in kept(stump(old, "link_density", 0.5, 5.0, -5.0))
    with pytest.raises(ValueError, match="other features"):
        LearnedCleaner(BlockModel(stump(old[:-1] + ["x"], "link_density", 0.5, 5.0, -5.0)))


def test_training_reads_each_views_head_and_refuses_a_cache_written_before_the_heading_columns(tmp_path, capsys):
    import pickle

    import scripts.tools.train_learned as tl
    from eval.cleaning.gold import gold_pages
    from preprocess.config.options import CleanOptions
    from preprocess.run.pipeline import build_steps
    from tests.conftest import shared

    page = next(p for p in gold_pages(shared(), ["wcxb-dev"]) if p.page_type == "product")
    views = tl.read_page(page, build_steps(CleanOptions(), stop_before="tags"))
    assert len(views) == 2 and all(len(v) == 5 for v in views)
    head = views[0][4]
    assert head == views[1][4] and head.names  # the hint rule prunes <body>, never the head
    stale = tmp_path / "cache.pkl"
    stale.write_bytes(pickle.dumps({"wcxb-dev": [tl.TrainPage("wcxb-dev", page.name, "wcxb-dev-f0", "product",
                                                              [v[:4] for v in views])]}))
    with pytest.raises(SystemExit) as exit_:
        tl.main(["--sets", "wcxb-dev", "--cache", str(stale), "--all", str(tmp_path / "model.json")])
    assert exit_.value.code == 2 and "give --cache a new path" in capsys.readouterr().err
    assert not (tmp_path / "model.json").exists()


def test_names_in_the_bodys_json_ld_are_read_before_the_python_path_prunes_the_scripts():
    html = ("<html><head><title>Welcome</title></head><body><h1>Our Shop</h1><div><h1>Oak chair Model 7</h1>"
            "<p>Seats one.</p></div><script type=\"application/ld+json\">"
            + json.dumps({"@type": "Product", "name": "Oak chair Model 7"}) + "</script></body></html>")
    model = BlockModel(stump(feature_names(TokenVocab([])), "is_heading", 0.5, -5.0, 5.0))
    on = compiled.ON
    try:
        for compiled.ON in (True, False):
            doc = LearnedCleaner(model).process(Document(id="p", content_type="text/html", tree=HTMLTree.parse(html)))
            assert doc.tree.body.text.strip() == "Oak chair Model 7", compiled.ON  # the JSON-LD's name
        tree = HTMLTree.parse(html)
        split_body(tree)  # (the Python path: the scripts go)
        assert page_head(tree) == PageHead()
    finally:
        compiled.ON = on
