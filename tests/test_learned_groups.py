"""Repeated-card features (groups.py) on a listing built by hand."""
import numpy as np
from resiliparse.parse.html import HTMLTree

from preprocess.cleaners.learned import compiled
from preprocess.cleaners.learned.blocks import split_body
from preprocess.cleaners.learned.features import TokenVocab, numeric_names, page_features

CARDS = "".join(f'<div class="card"><h3><a href="/p{i}">Product {i}</a></h3><p>A sturdy oak chair number {i}, hand '
                f'finished, with a woven seat and a ten year guarantee.</p></div>' for i in range(6))
LISTING = (f'<html><head><title>Chairs</title></head><body><ul class="menu"><li><a href="/">Home</a></li>'
           f'<li><a href="/c">Chairs</a></li><li><a href="/t">Tables</a></li></ul><div id="grid">{CARDS}</div>'
           f'<div id="footer"><p>Copyright 2026 Oak Shop</p></div></body></html>')


def test_cards_form_the_biggest_repeated_group_and_the_menu_does_not():
    page = split_body(HTMLTree.parse(LISTING))
    cols = {name: i for i, name in enumerate(numeric_names())}
    X = page_features(page, "Chairs", TokenVocab([]))
    card = [i for i, t in enumerate(page.texts) if t.startswith("A sturdy oak chair")]
    menu = [i for i, t in enumerate(page.texts) if t in ("Home", "Chairs", "Tables")]
    assert len(card) == 6 and len(menu) == 3
    # a card's paragraph: its parent is one of six div.card; they hold most of the page and are its biggest group
    assert np.allclose(X[card, cols["parent_group"]], np.log1p(6))
    assert (X[card, cols["parent_group_biggest"]] == 1).all()
    assert (X[card, cols["parent_group_share"]] > 0.5).all()
    # a card's title: its <h3> repeats six times, under the same cards; the grid around them is one
    titles = [i for i, t in enumerate(page.texts) if t.startswith("Product ")]
    assert np.allclose(X[titles, cols["own_group"]], np.log1p(6))
    assert np.allclose(X[titles, cols["parent_group"]], np.log1p(6))
    assert np.allclose(X[titles, cols["grand_group"]], np.log1p(1))
    # the cards' blocks are a short link and a long description: a low link density for the group
    density = X[card, cols["parent_group_link_density"]]
    assert ((density > 0.03) & (density < 0.2)).all()
    # the menu's items: three <li> under one <ul>, not the biggest group
    assert np.allclose(X[menu, cols["own_group"]], np.log1p(3))
    assert np.allclose(X[menu, cols["parent_group"]], np.log1p(1))
    assert (X[menu, cols["parent_group_biggest"]] == 0).all()
    assert (X[menu, cols["parent_group_link_density"]] == 1).all()


def test_group_columns_are_the_same_with_and_without_the_compiled_parts():
    page = split_body(HTMLTree.parse(LISTING))
    fast = page_features(page, "Chairs", TokenVocab(["card", "menu"]))
    on = compiled.ON
    try:
        compiled.ON = False
        slow = page_features(page, "Chairs", TokenVocab(["card", "menu"]))
    finally:
        compiled.ON = on
    assert np.array_equal(fast, slow)
