"""Document's lines: made from a text only when read, always the non-empty lines of what set_text was given."""
import dataclasses
import pickle
import random

from preprocess.core.document import Document, Line


def test_set_text_gives_the_non_empty_lines_whether_or_not_they_are_read():
    rng = random.Random(7)
    texts = ["", "\n", "\n\n", "a", "a\n", "\na", "a\n\nb", "a\nb\n\n\nc\n", " \n x "]
    texts += ["".join(rng.choice("ab \n") for _ in range(rng.randint(0, 12))) for _ in range(500)]
    for text in texts:
        want = [t for t in text.split("\n") if t]
        lazy, read = Document(id="x"), Document(id="y")
        lazy.set_text(text)
        read.set_text(text)
        assert read.lines == [Line(t) for t in want]  # made on this read
        assert lazy.text == read.text == "\n".join(want)
        assert lazy.empty == read.empty == (not want)
        assert lazy.to_json() | {"id": "y"} == read.to_json()
        assert [ln.text for ln in lazy.lines] == want
        tidied = Document(id="z")
        tidied.set_tidy_text("\n".join(want))  # a text already its non-empty lines: the same document
        assert tidied.text == lazy.text and tidied.lines == read.lines and tidied.empty == (not want)


def test_lines_set_after_a_text_replace_it_and_documents_copy_and_pickle():
    doc = Document(id="d", title="T")
    assert doc.lines == [] and doc.text == "" and doc.empty
    doc.set_text("one\ntwo")
    doc.lines = [Line("three", 0.5)]
    assert doc.text == "three" and doc.lines[0].link_density == 0.5
    doc.set_text("four\nfive")
    doc.lines.append(Line("six"))  # read, then changed in place: the text follows
    assert doc.text == "four\nfive\nsix"
    doc.set_text("seven")
    back = pickle.loads(pickle.dumps(doc))
    assert back.text == "seven" and back.lines == [Line("seven")] and back.title == "T"
    copy = dataclasses.replace(back, lines=list(back.lines), fields={"date": "x"})
    assert copy.lines == [Line("seven")] and copy.lines is not back.lines and copy.to_json()["date"] == "x"
    assert Document(id="n", lines=[Line("a"), Line("b")]).text == "a\nb"
