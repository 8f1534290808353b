"""Every cleaner, with every composable filter, on pages that break naive DOM code: an outcome each, no stall."""
import time

import pytest

from preprocess.core.document import Document
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from preprocess.config.registry import CLEANERS

PARA = "<p>" + "Plain words of a long article paragraph. " * 20 + "</p>\n"
BAD = {
    "frameset": b"<html><head><title>Frames</title></head><frameset><frame src=a.html><frame src=b.html></frameset></html>",
    "no_body_fragment": b"<p>Just a fragment of text without html or body tags, but real words.</p>",
    "empty_body": b"<html><head></head><body>   </body></html>",
    "deep_divs": b"<html><body>" + b"<div class=comment>" * 10000 + b"deep text " * 50 + b"</div>" * 10000 + b"</body></html>",
    "deep_lists": b"<html><body>" + b"<ul><li>" * 3000 + b"item text" + b"</li></ul>" * 3000 + b"</body></html>",
    "five_mb": ("<html><body><div id=nav>" + "<a href=/>x</a>" * 2000 + "</div><div id=main>" + PARA * 6000 +
                "</div></body></html>").encode(),
    "binary_garbage": bytes(range(256)) * 40,
    # (prose: the page tests the parse; a block of one word repeated is boilerplate to the learned cleaner)
    "unclosed_everything": b"<html><body><div><table><tr><td><ul><li><span>open <b>bold <i>" + b"Plain words of a sentence. " * 200,
}
OPTIONS = {"plain": {}, "hints+links": {"drop_hinted": True, "max_link_density": 0.5}}


@pytest.mark.parametrize("cleaner", CLEANERS)
@pytest.mark.parametrize("extra", sorted(OPTIONS))
def test_bad_pages_get_an_outcome_in_bounded_time(cleaner, extra):
    pipe = Pipeline(CleanOptions(cleaner=cleaner, **OPTIONS[extra]))
    docs = [Document(id=name, url=f"http://bad.example/{name}", content_type="text/html", raw=raw)
            for name, raw in BAD.items()]
    t0 = time.perf_counter()
    out, stats = pipe.process(docs)
    assert time.perf_counter() - t0 < 60
    written = {o["id"] for o in out}
    skipped = sum(stats.group("skipped").values())
    assert len(written) + skipped == len(BAD), (written, stats.group("skipped"), stats.group("failed"))
    assert not stats.group("failed"), stats.group("failed")
    assert {"frameset", "five_mb", "unclosed_everything", "no_body_fragment"} <= written
    assert "empty_body" not in written
    big = next(o for o in out if o["id"] == "five_mb")["contents"]
    assert "Plain words of a long article paragraph." in big
