import pytest

from search.topics import detect_format, read_topics
from tests.conftest import EXAMPLE, shared


def test_cacm_topics():
    t = read_topics(shared("retrieval", "cacm", "topics.cacm.txt"))
    assert len(t) == 64 and t["1"].startswith("What articles exist which deal with TSS (Time Sharing System)")
    assert "Pooch, U." in t["2"]  # the whole topic body is the query, as Anserini's CacmTopicReader reads it


def test_web_track_xml_query_and_description():
    path = shared("retrieval", "trec-web-2013", "topics.web.201-250.txt")
    assert detect_format(path.read_text()) == "webxml"
    q, d = read_topics(path, "query"), read_topics(path, "description")
    assert len(q) == len(d) == 50 and q["201"] == "raspberry pi" and d["201"] == "What is a raspberry pi?"
    assert list(q)[:3] == ["201", "202", "203"]


def test_decision_track_xml():
    path = shared("retrieval", "trec-dt-2019", "topics.decision2019.xml")
    q, d = read_topics(path), read_topics(path, "description")
    assert len(q) == 51 and q["1"] == "cranberries urinary tract infections"
    assert d["2"] == "Can acupuncture be a solution to insomnia?"


def test_trec_top_format_and_bad_field():
    t = read_topics(EXAMPLE / "topics.txt")
    assert t["1"] == "sourdough starter feeding" and len(t) == 6
    assert read_topics(EXAMPLE / "topics.txt", "description")["1"].startswith("How often should")
    with pytest.raises(ValueError, match="--field"):
        read_topics(EXAMPLE / "topics.txt", "narrative")


def test_unknown_format_is_a_clear_error(tmp_path):
    p = tmp_path / "t.txt"
    p.write_text("1\tsome query\n")
    with pytest.raises(ValueError, match="unknown topic format"):
        read_topics(p)
