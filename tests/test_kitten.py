"""The kitten normalisation pass (tables, lists, abbreviations, punctuation) on hand-made and real pages."""
import time

from eval.cleaning.gold import gold_pages
from eval.cleaning.score import word_prf
from preprocess.filters.kitten import FINAL_PUNCT, KittenNormalise, KittenPunctuate
from preprocess.core.document import Document
from preprocess.run.pipeline import run_steps
from preprocess.core.stats import Stats
from preprocess.steps.decode import Decode
from preprocess.steps.parse import Parse
from preprocess.steps.tags import TagRemoval
from tests.conftest import shared


def chain(kitten: bool = True, line_features: bool = False):
    steps = [Decode(max_bytes=64 << 20), Parse()]
    if kitten:
        steps += [KittenNormalise(), TagRemoval(line_features), KittenPunctuate()]
    else:
        steps += [TagRemoval(line_features)]
    stats = Stats()  # one Stats for the chain, as Pipeline does
    for step in steps:
        step.stats = stats
    return steps, stats


def clean(html: str | bytes, kitten: bool = True, line_features: bool = False):
    raw = html.encode() if isinstance(html, str) else html
    steps, stats = chain(kitten, line_features)
    docs = run_steps(steps, [Document(id="p", content_type="text/html", raw=raw)])
    return (docs[0] if docs else None), stats


def lines(html: str, kitten: bool = True) -> list[str]:
    doc, stats = clean(html, kitten)
    assert not stats.group("failed"), stats.to_dict()
    return doc.text.split("\n")


def page(body: str) -> str:
    return f"<html><head><title>Test page</title></head><body>{body}</body></html>"


# -- tables --------------------------------------------------------------------------
DATA_TABLES = page("""
<p>Before the table.</p>
<table><caption>Staff</caption>
  <thead><tr><th>Name</th><th>Age</th><th>Town</th></tr></thead>
  <tbody><tr><td>Ann</td><td>31</td><td>Leeds</td></tr>
         <tr><td>Bob<br>Smith</td><td></td><td><a href="/y">York</a></td></tr></tbody></table>
<table>
  <tr><th>Planet</th><th>Moons</th></tr>
  <tr><td>Mars</td><td>2</td></tr>
  <tr><td>Earth</td><td>1</td></tr></table>
<table>
  <tr><th></th><th colspan="2">2023</th></tr>
  <tr><th>Region</th><th>Q1</th><th>Q2</th></tr>
  <tr><th>North</th><td>10</td><td>12</td></tr></table>
<p>After the tables.</p>""")


def test_data_tables_become_one_header_data_sentence_per_row():
    doc, stats = clean(DATA_TABLES)
    assert doc.text.split("\n") == [
        "Before the table.",
        "Staff.",
        "Name ; Ann / Age ; 31 / Town ; Leeds.",
        "Name ; Bob Smith / Town ; York.",  # <br> is a space, the empty Age cell is left out
        "Planet ; Mars / Moons ; 2.",
        "Planet ; Earth / Moons ; 1.",
        "Region ; North / 2023 Q1 ; 10 / 2023 Q2 ; 12.",  # two header rows combined, colspan expanded
        "After the tables.",
    ]
    assert doc.title == "Test page"
    assert stats.counts["kitten.tables_data"] == 3 and stats.counts["kitten.table_rows"] == 6
    # tag removal alone writes the same table as bare rows, cells glued with spaces
    assert "Ann 31 Leeds" in lines(DATA_TABLES, kitten=False)


def test_headerless_leaf_table_joins_a_rows_cells_with_semicolons():
    html = page("<table><tr><td>Born</td><td>1950, Oslo</td></tr><tr><td>Died</td><td>2020</td></tr></table>")
    doc, stats = clean(html)
    assert doc.text.split("\n") == ["Born ; 1950, Oslo.", "Died ; 2020."]
    assert stats.counts["kitten.tables_headerless"] == 1


LAYOUT = page("""
<table><tr>
  <td><a href="/">Home</a> <a href="/n">News</a></td>
  <td>Main column text about rivers and lakes.</td>
  <td><p>Right para</p><div>Right div</div></td></tr>
  <tr><td>Left cell</td><td>Right cell</td></tr></table>
<table><tr><td>Only one column</td></tr><tr><td>Second row</td></tr></table>""")


def test_layout_tables_write_each_cell_as_its_own_block():
    plain = lines(LAYOUT, kitten=False)
    assert "Left cell Right cell" in plain  # what tag removal does alone: cells of a row glued
    assert "Right para" in plain and "Right div" in plain  # ...but block content already breaks
    doc, stats = clean(LAYOUT)
    assert doc.text.split("\n") == [
        "Home News.",
        "Main column text about rivers and lakes.",
        "Right para.",
        "Right div.",
        "Left cell.",
        "Right cell.",
        "Only one column.",
        "Second row.",
    ]
    assert stats.counts["kitten.tables_layout"] == 2 and stats.counts["kitten.cells_split"] == 3


def test_nested_tables_are_layout_and_a_leaf_data_table_inside_is_still_rewritten():
    html = page("""<table><tr><td>Sidebar</td><td>
        <table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>2 EUR</td></tr></table>
        </td></tr></table>""")
    doc, stats = clean(html)
    assert doc.text.split("\n") == ["Sidebar.", "Item ; Tea / Price ; 2 EUR."]
    assert stats.counts["kitten.tables_data"] == 1 and stats.counts["kitten.tables_layout"] == 1


# -- lists ---------------------------------------------------------------------------
LISTS = page("""
<ul class="menu">
  <li><a href="/">Home</a></li>
  <li> <a href="/about">About us</a> | </li>
  <li><a href="/c"><b>Contact</b></a></li>
</ul>
<h2>Ingredients</h2>
<ul><li>flour</li><li>two <a href="/eggs">eggs</a></li><li>milk;</li><li>salt</li></ul>
<ol>
  <li>Heat the pan until a drop of water dances on its surface<br>and then wait.</li>
  <li>Pour a thin layer of batter and tilt the pan so that it covers the bottom!</li>
</ol>
<ul><li><a href="/a">Read the whole story about pancakes here</a></li><li><a href="/b">Two</a></li></ul>
<ul><li><a href="/x">Pancakes</a> are great</li><li><a href="/y">Crepes</a></li></ul>""")


def test_lists_link_lists_go_short_lists_become_one_sentence_long_ones_a_line_per_item():
    doc, stats = clean(LISTS)
    assert doc.text.split("\n") == [
        "Ingredients.",
        "flour, two eggs, milk; salt.",
        "Heat the pan until a drop of water dances on its surface and then wait.",
        "Pour a thin layer of batter and tilt the pan so that it covers the bottom!",
        "Read the whole story about pancakes here, Two.",  # an item of 7 words: not a link list
        "Pancakes are great, Crepes.",  # words outside the links: not a link list
    ]
    assert stats.counts["kitten.link_lists_removed"] == 1
    assert stats.counts["kitten.lists_flattened"] == 3 and stats.counts["kitten.lists_split"] == 1
    plain = lines(LISTS, kitten=False)
    assert "Home" in plain and "flour" in plain and "salt" in plain  # tag removal alone: a line per item


def test_flattened_list_keeps_its_links_for_line_features():
    html = page("<ul><li><a href='/a'>apples</a></li><li>pears</li><li>plums</li></ul><p>Plain words here.</p>")
    doc, _ = clean(html, line_features=True)
    assert doc.text.split("\n") == ["apples, pears, plums.", "Plain words here."]
    density = [line.link_density for line in doc.lines]
    assert len(density) == 2 and 0.2 < density[0] < 0.5 and density[1] == 0


def test_nested_lists_innermost_first():
    html = page("""
<ul><li>red</li><li>green</li><li>blue<ul><li>navy</li><li>sky</li></ul></li></ul>
<ul><li><a href="/p">Products</a><ul><li><a href="/p/1">Kettles</a></li><li><a href="/p/2">Pans</a></li></ul></li>
    <li><a href="/s">Support</a></li></ul>
<ul><li>A first point that is long enough to be written as a sentence of its own.
      <ul><li>With a sub point that is also quite long, longer than sixty characters.</li>
          <li>And another sub point that is long enough to stand on its own.</li></ul></li>
    <li>A second point, again long enough to be written as its own sentence.</li></ul>""")
    doc, stats = clean(html)
    assert doc.text.split("\n") == [
        "red, green, blue (navy, sky).",
        "A first point that is long enough to be written as a sentence of its own.",
        "With a sub point that is also quite long, longer than sixty characters.",
        "And another sub point that is long enough to stand on its own.",
        "A second point, again long enough to be written as its own sentence.",
    ]
    assert stats.counts["kitten.link_lists_removed"] == 2  # the submenu, then the menu around it
    assert stats.counts["kitten.lists_flattened_inline"] == 1
    assert stats.counts["kitten.lists_block_items_kept"] == 1


# -- abbreviations and punctuation -----------------------------------------------------
def test_abbreviations_get_their_expansion_in_brackets():
    html = page("""<p>The <abbr title="World Health Organization">WHO</abbr> and
        <acronym title=" North Atlantic  Treaty Organization ">NATO</acronym> met.
        <abbr title="HTML">HTML</abbr> <abbr>CSS</abbr> <abbr title="">JS</abbr></p>
        <ul><li><abbr title="United Nations">UN</abbr></li><li>EU</li></ul>""")
    doc, stats = clean(html)
    assert doc.text.split("\n") == [
        "The WHO (World Health Organization) and NATO (North Atlantic Treaty Organization) met. HTML CSS JS.",
        "UN (United Nations), EU.",
    ]
    assert stats.counts["kitten.abbr_expanded"] == 3


def test_punctuation_is_added_only_where_a_line_has_no_final_mark_and_not_to_the_title():
    html = page("""<h1>A heading</h1><p>Done.</p><p>Really?</p><p>Note:</p><p>He said "yes"</p>
        <p>(see above)</p><p>東京に行きました。</p><div>no stop here</div><p>Wait…</p>
        <p>Ends with a comma,</p>""")
    doc, stats = clean(html)
    assert doc.title == "Test page"
    assert doc.text.split("\n") == ["A heading.", "Done.", "Really?", "Note:", 'He said "yes"', "(see above)",
                                    "東京に行きました。", "no stop here.", "Wait…", "Ends with a comma,."]
    assert stats.counts["kitten_punct.lines_punctuated"] == 3
    # the step alone, on text: nothing else changes
    p = KittenPunctuate()
    d = Document(id="t", title="No stop")
    d.set_text("one\ntwo!\nthree")
    out = list(p.run([d]))
    assert out[0].text == "one.\ntwo!\nthree." and out[0].title == "No stop"
    assert p.stats.counts["kitten_punct.lines_punctuated"] == 2


# -- bad input ---------------------------------------------------------------------------
def test_bad_pages_get_an_outcome_and_never_stall():
    frameset = b"<html><head><title>F</title></head><frameset><frame src=a.html></frameset></html>"
    doc, stats = clean(frameset)
    assert doc.to_json()["contents"] == "F" and not stats.group("failed")
    doc, stats = clean(b"just text, no tags at all")
    assert doc.text == "just text, no tags at all." and not stats.group("failed")
    doc, stats = clean(b"<html><body></body></html>")
    assert doc is None and stats.counts["skipped.empty"] == 1 and not stats.group("failed")
    doc, stats = clean(b"<html><body><ul><li></li></ul><table><tr><td></td><td></td></tr><tr><td></td></tr></table>")
    assert doc is None and stats.counts["skipped.empty"] == 1 and not stats.group("failed")
    deep = {
        "divs": b"<html><body>" + b"<div>" * 10000 + b"deep text " * 50 + b"</div>" * 10000 + b"<p>x</p></body></html>",
        "lists": b"<html><body>" + b"<ul><li>item " * 10000 + b"deep text",
        "menus": b"<html><body>" + b"<ul><li><a href=/>x</a>" * 10000 + b"<p>deep text</p>",
        "tables": b"<html><body>" + b"<table><tr><td>a</td><td>" * 5000 + b"deep text",
        "data tables": b"<html><body>" + b"<table><tr><th>h</th><th>g</th></tr><tr><td>a</td><td>" * 3000
                       + b"deep text",
    }
    for name, html in deep.items():
        t0 = time.perf_counter()
        doc, stats = clean(html)
        assert time.perf_counter() - t0 < 30, name
        assert "deep text" in doc.text and not stats.group("failed"), name
        assert all(line[-1] in FINAL_PUNCT for line in doc.text.split("\n")), name


def test_five_megabyte_page_of_tables_and_lists_in_bounded_time():
    block = ("<ul><li><a href=/>Home</a></li><li><a href=/a>About</a></li></ul>"
             "<ol><li>alpha one</li><li>beta two</li></ol><p>" + "word " * 60 + "</p>"
             "<table><tr><th>Key</th><th>Value</th></tr><tr><td>colour</td><td>blue</td></tr></table>"
             "<table><tr><td>left</td><td>right</td></tr></table><abbr title='expanded form'>EF</abbr>")
    html = ("<html><body>" + block * 12000 + "</body></html>").encode()
    assert len(html) > 5_000_000
    t0 = time.perf_counter()
    doc, stats = clean(html)
    assert time.perf_counter() - t0 < 60 and not stats.group("failed")
    text = doc.text
    assert text.count("word") == 60 * 12000 and "Home" not in text
    assert text.count("alpha one, beta two.") == 12000 and text.count("Key ; colour / Value ; blue.") == 12000
    assert text.count("EF (expanded form)") == 12000
    assert stats.counts["kitten.link_lists_removed"] == 12000 and stats.counts["kitten.cells_split"] == 12000


# -- real pages ------------------------------------------------------------------------
def test_real_pages_never_fail_and_kitten_fires():
    pages = gold_pages(shared(), ["cleaneval-final"])[:100]
    assert len(pages) == 100
    steps, stats = chain(kitten=True)
    docs = run_steps(steps, [Document(id=p.name, content_type="text/html", raw=p.input.read_bytes()) for p in pages])
    assert not stats.group("failed"), stats.group("failed")
    assert len(docs) + sum(stats.group("skipped").values()) == len(pages)
    kitten = stats.group("kitten")
    assert kitten.get("tables_layout", 0) + kitten.get("tables_data", 0) + kitten.get("tables_headerless", 0) > 20
    assert kitten.get("link_lists_removed", 0) > 20 and kitten.get("lists_flattened", 0) > 20, kitten
    assert stats.counts["kitten_punct.lines_punctuated"] > 1000
    assert all(line[-1] in FINAL_PUNCT for d in docs for line in d.text.split("\n")), "a line without final punctuation"
    # no worse than tag removal alone on these pages (measured: slightly better)
    out = {d.id: d.to_json()["contents"] for d in docs}
    base_steps, _ = chain(kitten=False)
    base = {d.id: d.to_json()["contents"] for d in run_steps(
        base_steps, [Document(id=p.name, content_type="text/html", raw=p.input.read_bytes()) for p in pages])}
    f1 = sum(word_prf(out.get(p.name, ""), p.gold_text())["f1"] for p in pages) / len(pages)
    f1_base = sum(word_prf(base.get(p.name, ""), p.gold_text())["f1"] for p in pages) / len(pages)
    assert f1 >= f1_base - 0.002, (f1, f1_base)
