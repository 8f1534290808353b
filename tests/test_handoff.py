"""Declared hand-offs between steps (``Step.provides`` / ``Step.accepts``, ``Document.handed``): the learned cleaner's
kept blocks reach tag removal as lines, wired by the pipeline from the declarations, and the title it writes is the
one tag removal alone writes wherever the page puts its ``<title>``."""
import pytest

from preprocess.cleaners.learned.cleaner import LearnedCleaner
from preprocess.core.document import Document
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline, build_steps
from preprocess.steps.tags import TagRemoval

BODY = (b"<p>The allotment committee met on Tuesday evening to agree the rules for the new season of planting and "
        b"the rota for watering the shared beds during the summer holidays.</p>"
        b"<p>Members who have not yet paid the annual fee of twelve pounds should bring it to the next meeting, "
        b"which will be held in the village hall at seven o'clock as usual.</p>"
        b"<ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li><li><a href='/join'>Join</a></li></ul>")
TITLE = b"Allotment  news &amp; notes"
PAGES = {  # built byte by byte: a <title> in <head>, one inside <body> (as raw CleanEval pages have it), both
    "head": b"<html><head><meta charset='utf-8'><title>" + TITLE + b"</title></head><body>" + BODY + b"</body></html>",
    "body": b"<html><head><meta charset='utf-8'></head><body><div><title>" + TITLE + b"</title></div>" + BODY
            + b"</body></html>",
    "bare": b"<title>" + TITLE + b"</title>" + BODY,
    "both": b"<html><head><title>Head title</title></head><body><title>Body title</title>" + BODY + b"</body></html>",
}


def written(opts: CleanOptions, hand_off: bool | None = None) -> dict[str, dict]:
    pipe = Pipeline(opts)
    if hand_off is not None:
        next(s for s in pipe.steps if s.name == "learned").hand_off = hand_off
    out, stats = pipe.process([Document(id=k, content_type="text/html", raw=v) for k, v in PAGES.items()])
    return {d["id"]: d for d in out}


@pytest.mark.parametrize("kw", [{}, dict(max_link_density=0.5)])
def test_learned_writes_the_title_tags_writes_wherever_the_title_sits(kw):
    tags = written(CleanOptions(cleaner="tags", **kw))
    assert tags["head"]["title"] == tags["body"]["title"] == tags["bare"]["title"] == "Allotment news & notes"
    assert tags["both"]["title"] == "Head title"
    for hand_off in (True, False):  # the lines handed to tag removal, and the kept blocks written into <body>
        learned = written(CleanOptions(cleaner="learned", **kw), hand_off)
        assert {k: d["title"] for k, d in learned.items()} == {k: d["title"] for k, d in tags.items()}
        assert "committee met on Tuesday" in learned["body"]["contents"]


@pytest.mark.parametrize("read_raw", [False, True], ids=["off the tree", "read raw"])
def test_the_hand_off_is_wired_from_the_declarations_and_only_between_adjacent_steps(monkeypatch, read_raw):
    from preprocess.cleaners.learned import raw

    monkeypatch.setattr(raw, "ON", read_raw)  # (the learned cleaner reads the page raw: no tree is built)
    assert "handed" in LearnedCleaner.provides and "handed" in TagRemoval.accepts
    steps = build_steps(CleanOptions(cleaner="learned", max_link_density=0.5))
    learned = next(s for s in steps if s.name == "learned")
    assert learned.hand_off and learned.line_features  # tag removal measures link density for the links filter
    steps = build_steps(CleanOptions(cleaner="learned", kitten=True))  # Kitten reads the tree in between
    assert [s.name for s in steps][2:4] == ["learned", "kitten"]
    assert not next(s for s in steps if s.name == "learned").hand_off
    steps = build_steps(CleanOptions(cleaner="learned"))
    assert [s.name for s in steps] == ["decode", "parse", "learned", "tags"]
    doc = Document(id="x", content_type="text/html", raw=PAGES["body"])
    for s in steps[:3]:
        doc = s.process(doc)
    assert doc.handed and not doc.meta  # the lines travel in the declared field, nothing in meta
    assert any("committee met on Tuesday" in ln.text for ln in doc.handed)
    # the body is not rewritten, so its <title> stays where the page put it, and is still the tree's title
    if read_raw:
        assert doc.tree is None and steps[1].defer and doc.title == "Allotment news & notes"
    else:
        assert doc.tree.head.query_selector("title") is None and "Allotment" in doc.tree.title
    steps[3].process(doc)
    assert doc.handed is None and doc.title == "Allotment news & notes"
