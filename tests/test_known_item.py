"""The L3S-GN1 known-item benchmark (webprune/known_item.py): headline queries, one relevant page each."""
from eval.trec_files import read_qrels
from search.topics import read_topics
from tests.conftest import shared
from webprune.known_item import build, headline


def test_headline_is_the_outermost_sel1_text_unescaped():
    gold = ('<html><body><span class="x-nc-sel0">Menu</span><h1><span class="x-nc-sel1">Storm &amp; '
            'flood <b class="x-nc-sel1">warnings</b>\n  issued</span></h1><span class="x-nc-sel2">Text</span>'
            '</body></html>')
    assert headline(gold) == "Storm & flood warnings issued"
    assert headline("<html><body><p class='x-nc-sel2'>no headline</p></body></html>") == ""


def test_every_labelled_headline_is_a_topic_judging_its_own_page(tmp_path):
    data = shared()
    out = build(tmp_path / "l3s.warc.gz", data)
    topics, qrels = read_topics(out["topics"]), read_qrels(out["qrels"])
    pages = sorted((data / "cleaning" / "l3s-gn1" / "gold").glob("*.txt"))
    assert len(topics) == len(qrels) == 604 and len(pages) == 621  # 17 pages have no labelled headline
    assert all(len(judged) == 1 and list(judged.values()) == [1] for judged in qrels.values())
    first = next(iter(qrels["1"]))
    assert topics["1"] == headline((data / "cleaning" / "l3s-gn1" / "gold" / f"{first}.txt").read_bytes())
    assert len({d for judged in qrels.values() for d in judged}) == 604  # one page per topic, none twice
