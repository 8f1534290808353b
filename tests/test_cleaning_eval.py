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
