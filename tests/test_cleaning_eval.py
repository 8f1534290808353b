"""Gold readers, page URLs and `webprune eval-cleaning` on the shared human gold standards."""
import json

from eval.cleaning.gold import gold_pages, page_url
from tests.conftest import shared
from webprune.cli import main


def test_gold_texts_of_every_format_read_cleanly():
    data = shared()
    dragnet = {p.name: p for p in gold_pages(data, ["dragnet"])}
    assert dragnet["158"].gold_text().startswith("Forgiving your enemies")  # a UTF-16 gold file
    assert "!@#$%^&*()" not in dragnet["158"].gold_text()  # comments after the marker are not main content
    ce = gold_pages(data, ["cleaneval-final"])[0].gold_text()
    assert not ce.startswith("URL:") and "<p>" not in ce and "<h>" not in ce
    l3s = gold_pages(data, ["l3s-gn1"])[0].gold_text()
    assert l3s and "x-nc-sel" not in l3s and "<span" not in l3s


def test_wcxb_pages_come_with_their_type_url_and_plain_gold_text():
    pages = gold_pages(shared(), ["wcxb-dev"])
    assert len(pages) == 1296
    types = {p.page_type for p in pages}
    assert types == {"article", "documentation", "service", "forum", "collection", "listing", "product"}
    p = pages[0]
    assert p.url().startswith("http") and p.raw().lstrip()[:1] == b"<"  # gunzipped
    assert p.gold_text().startswith("Fall isn't just pumpkin spice season")


def test_bag_of_words_f1_ignores_order_and_counts_repeats():
    from eval.cleaning.score import bow_prf

    assert bow_prf("b a a", "a b a")["f1"] == 1.0
    s = bow_prf("a a a x", "a b")  # 1 shared 'a' of 4 cleaned words, of 2 gold words
    assert (s["precision"], s["recall"]) == (0.25, 0.5)
    assert bow_prf("", "")["f1"] == 1.0 and bow_prf("", "a")["f1"] == 0.0


def test_page_urls_come_from_the_wrapper_or_the_canonical_link():
    cpe = gold_pages(shared(), ["cleanportaleval"])
    assert page_url(cpe[0].input.read_bytes()).startswith("http://")
    assert page_url(b'<html><head><link rel="canonical" href="https://a.example/x"></head></html>') == "https://a.example/x"
    assert page_url(b"<html><body>no url</body></html>") == ""


def test_eval_cleaning_scores_cleaners_side_by_side(tmp_path, capsys):
    out = tmp_path / "scores.json"
    rc = main(["eval-cleaning", "--sets", "cleanportaleval", "--limit", "12", "--shared", str(shared()),
               "--tools", "tags,sitediff,webprune/density+hints+links", "--json", str(out)])
    assert rc == 0
    table = capsys.readouterr().out
    assert "| webprune/sitediff |" in table and "### Summary" in table
    doc = json.loads(out.read_text())
    f1 = {t: doc["summary"][t]["cleanportaleval"]["f1"] for t in doc["summary"]}
    assert len(doc["pages"]) == 3 * 12 and all(0 <= v <= 100 for v in f1.values())
    assert f1["webprune/sitediff"] > f1["webprune/tags"] + 5, f1  # template text of one host's pages removed
    assert f1["webprune/density+hints+links"] > f1["webprune/tags"] + 5, f1


def test_eval_cleaning_reports_wcxb_by_page_type(tmp_path, capsys):
    out = tmp_path / "scores.json"
    assert main(["eval-cleaning", "--sets", "wcxb-dev", "--limit", "40", "--shared", str(shared()),
                 "--tools", "tags,webprune/density+hints+links", "--json", str(out)]) == 0
    table = capsys.readouterr().out
    assert "### wcxb-dev by page type: WCXB F1 (bag of words)" in table and "| all (40) |" in table
    doc = json.loads(out.read_text())
    types = doc["page_types"]["webprune/tags"]
    assert types["all"]["pages"] == 40 and sum(a["pages"] for k, a in types.items() if k != "all") == 40
    rows = [r for r in doc["pages"] if r["tool"] == "webprune/tags"]
    assert all(r["page_type"] and 0 <= r["bow_f1"] <= 1 for r in rows)
    tags, density = (doc["summary"][t]["wcxb-dev"] for t in ("webprune/tags", "webprune/density+hints+links"))
    assert tags["bow_recall"] > density["bow_recall"] and density["bow_precision"] > tags["bow_precision"] + 10


def test_webprune_is_scored_on_its_main_text_unless_with_title(tmp_path, capsys):
    from eval.cleaning.harness import main_text

    assert main_text({"contents": "Title\nBody text", "title": "Title"}) == "Body text"
    assert main_text({"contents": "Title", "title": "Title"}) == ""  # a page with a title and no text
    assert main_text({"contents": "Body text", "title": ""}) == "Body text"
    assert main_text({"contents": "Titles of the body", "title": "Title"}) == "Titles of the body"
    from preprocess.core.document import Document
    for title, text in (("Title", "Body\ntext"), ("Title", ""), ("", "Body"), ("T", "T\nbody")):
        doc = Document(id="p", title=title)  # what the record layout puts in, main_text takes back
        doc.set_text(text)
        assert main_text(doc.to_json()) == text
    runs = {}
    for flag in ([], ["--with-title"]):
        out = tmp_path / f"s{len(flag)}.json"
        assert main(["eval-cleaning", "--sets", "wcxb-dev", "--limit", "15", "--shared", str(shared()),
                     "--tools", "webprune/learned", "--json", str(out)] + flag) == 0
        runs[bool(flag)] = {r["name"]: r for r in json.loads(out.read_text())["pages"]}
    capsys.readouterr()
    pages = [p for p in gold_pages(shared(), ["wcxb-dev"])[:15]]
    for p in pages:  # the <title> line is the difference: as many words more, never fewer
        plain, titled = runs[False][p.name], runs[True][p.name]
        assert titled["out_words"] >= plain["out_words"]
    assert sum(runs[True][p.name]["out_words"] - runs[False][p.name]["out_words"] for p in pages) > 15 * 2
    # the gold leaves the <title> out, so scoring it costs precision on the pages that have one
    assert sum(r["bow_precision"] for r in runs[False].values()) > sum(r["bow_precision"] for r in runs[True].values())


def test_compare_cleaners_pairs_pages_against_each_sets_best_peer():
    from scripts.studies.compare_cleaners import compare

    f1 = {"a": {"x": [0.9, 0.8, 0.7, 1.0], "y": [0.5, 0.6]},
          "readability": {"x": [0.8, 0.8, 0.9, 0.9], "y": [0.1, 0.1]},
          "trafilatura": {"x": [0.1, 0.1, 0.1, 0.1], "y": [0.6, 0.7]}}
    rows = [{"tool": t, "set": s, "name": str(i), "f1": v} for t, sets in f1.items() for s, vs in sets.items()
            for i, v in enumerate(vs)]
    x, y = compare(rows, "a", ("readability", "trafilatura", "boilerpy3"))
    assert (x["set"], x["peer"], x["won"], x["lost"], x["tied"]) == ("x", "readability", 2, 1, 1)
    assert abs(x["diff"] - 100 * (0.1 + 0.0 - 0.2 + 0.1) / 4) < 1e-9 and x["low"] <= x["diff"] <= x["high"]
    assert (y["peer"], y["won"], y["lost"]) == ("trafilatura", 0, 2) and abs(y["diff"] + 10) < 1e-9
    longer = [dict(r, tool="a+hints") for r in rows if r["tool"] == "a"]  # "a" is one tool, not a prefix of two
    assert compare(rows + longer, "a", ("readability",))[0]["diff"] == x["diff"]
    held_out = [dict(r, tool="a+learned_model(m/{set}.json)") for r in rows if r["tool"] == "a"]
    assert compare(held_out + rows[6:], "a", ("readability",))[0]["won"] == 2  # set x: 2 won
