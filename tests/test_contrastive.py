"""Contrastive pruning on real pages: pseudo-labels from a crawl, the model directory and its card, one
scoring convention for both model kinds, the pruner and its thresholds, text-only (WET) input, errors."""
import json
import subprocess
import sys

import pytest

from preprocess.core.document import Document
from preprocess.filters.prune.options import is_contrastive as options_contrastive
from preprocess.lm.contrastive import (
    CARD,
    DEFAULT_THRESHOLD,
    OOV,
    ContrastiveScorer,
    is_contrastive,
    normalize_many,
    open_model,
)
from preprocess.driver.train_crawl import train_crawl
from preprocess.train_crawl.options import CrawlOptions
from preprocess.learning.labels import LabelOptions, kept_flags, label_pipeline, labelled, lines_before
from preprocess.lm.normalize import normalize
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from preprocess.core.stats import Stats
from tests.conftest import ROOT, local_run, shared

MENU = ["Skip to content", "Most Popular", "All rights reserved.", "Share this story"]
PROSE = ["The senator said on Tuesday that the committee would vote on the bill next week.",
         "Scientists found that the new drug reduced the risk of heart attacks in older patients."]


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    """40 real CleanPortalEval pages (news portals, several pages per host) as two crawl WARCs."""
    from eval.cleaning.gold import page_url
    from eval.cleaning.harness import strip_wrapper
    from webprune.warcpack import pack_pages

    files = sorted(shared("cleaning", "cleanportaleval", "input").glob("*.html"))[:40]
    pages = [(f.stem, page_url(f.read_bytes()) or f"http://cpe.invalid/{f.stem}", strip_wrapper(f.read_bytes()))
             for f in files]
    root = tmp_path_factory.mktemp("crawl")
    pack_pages(pages[0::2], root / "a.warc.gz")
    pack_pages(pages[1::2], root / "b.warc.gz")
    return root


@pytest.fixture(scope="module")
def model(crawl, tmp_path_factory):
    out = tmp_path_factory.mktemp("model") / "cpe"
    card = train_crawl([str(crawl)], str(out), CrawlOptions(order=3), executor="local")
    return out, card


def test_card_has_the_documented_fields(model):
    path, card = model
    assert is_contrastive(path) and not is_contrastive(path / "content.bin")
    assert json.loads((path / CARD).read_text()) == card
    assert not (path / "work").exists()  # the spooled lines go once the model is written
    assert card["main_language"] == "en" and list(card["languages"]) == ["en"] and card["version"] == 2
    en = card["languages"]["en"]
    assert en["dir"] == "en" and en["documents"] == 40 and en["tokens"] == "words"
    for side in ("content", "boilerplate"):
        assert card[side]["lines"] > 100 and card[side]["tokens"] > card[side]["lines"]
        assert (path / "en" / en[side]["file"]).stat().st_size == en[side]["bytes"]
        assert {k: en[side][k] for k in ("lines", "tokens")} == card[side]  # one language: the totals are its own
    assert card["duplicates"]["pages"] == 40 and card["duplicates"]["duplicates"] == 0  # 40 distinct pages
    assert card["without_model"] == {"documents": {}, "lines": {}, "left_out": {}}
    assert card["order"] == 3 and card["sample"]["documents"] == 40 and card["sample"]["records_read"] == 40
    assert card["sample"]["units"] == 2
    assert card["labels"] == {"cleaner": "tags", "drop_hinted": True, "max_link_density": 0.5, "kitten": None,
                              "min_repeat_pages": 3, "min_word_count": 2}
    n = card["label_counts"]
    assert n == en["label_counts"]
    assert n["boilerplate"] == n["removed"] + n["kept_but_repeated"] == card["boilerplate"]["lines"]
    assert n["content"] == card["content"]["lines"]
    assert n["kept_but_repeated"] > 0  # the portals' templates survive the DOM cleaner; repetition catches them
    assert card["training"]["wall_s"] > 0 and card["default_threshold"] == DEFAULT_THRESHOLD
    assert en["vocabulary"]["words"] == len((path / "en" / "vocab.txt").read_text().split())


def test_same_inputs_are_not_trained_again_and_a_sample_is_spread_over_files(model, crawl, tmp_path):
    path, card = model
    before = (path / "en" / "content.bin").stat().st_mtime_ns
    assert train_crawl([str(crawl)], str(path), CrawlOptions(order=3), executor="local") == card
    assert (path / "en" / "content.bin").stat().st_mtime_ns == before
    small = train_crawl([str(crawl)], str(tmp_path / "m"), CrawlOptions(order=2, sample_docs=6), executor="local")
    assert small["sample"]["documents"] == 6 and small["sample"]["units"] == 2  # 3 records of each file


def test_menu_lines_score_as_boilerplate_and_prose_as_content(model):
    scorer = ContrastiveScorer(model[0])
    menu = [scorer.score(m) for m in MENU]
    prose = [scorer.score(p) for p in PROSE]
    assert max(prose) < 0 < min(menu), (menu, prose)
    assert min(menu) - max(prose) > 2  # bits per token
    assert scorer.score("   ") is None
    assert OOV not in scorer.vocab and "the" in scorer.vocab
    # two words outside the vocabulary are the same token to both models
    assert scorer.score("The zqxwv said the committee would vote.") == \
        scorer.score("The qqjjx said the committee would vote.")


def test_lm_score_prints_score_tab_line_for_both_model_kinds(model, tmp_path):
    lines = tmp_path / "lines.txt"
    lines.write_text("\n".join([MENU[0], PROSE[0], ""]) + "\n")
    plain = tmp_path / "toy-2gram.bin"  # a plain model: the example's toy bigram, trained here
    subprocess.run([sys.executable, "-m", "webprune.cli", "lm", "train", str(ROOT / "webprune" / "example" / "toy-lm.txt"),
                    "--order", "2", "--discount-fallback", "-o", str(plain)], capture_output=True, cwd=ROOT, check=True)
    for m, kind in ((plain, "perplexity"), (model[0], "contrastive")):
        out = subprocess.run([sys.executable, "-m", "webprune.cli", "lm", "score", str(m), "-f", str(lines)],
                             capture_output=True, text=True, cwd=ROOT, check=True).stdout.splitlines()
        assert [o.split("\t", 1)[1] for o in out] == [MENU[0], PROSE[0], ""] and out[2] == "-\t"
        scores = [float(o.split("\t")[0]) for o in out[:2]]
        assert scores[0] > scores[1], kind  # higher = more boilerplate-like, for both kinds
        assert open_model(m).kind == kind


def test_the_pruners_compiled_loops_prune_real_pages_as_their_python_twins(model, monkeypatch):
    """Tag removal and contrastive pruning of 300 shared pages: every line and counter the same with the compiled
    segmentation and decision loops (_segment.pyx, _decide.pyx) as with their Python twins."""
    from preprocess.core import segment
    from preprocess.filters.prune import common, contrastive

    pytest.importorskip("preprocess.core._segment")
    pytest.importorskip("preprocess.core._decide")
    files = sorted(shared("cleaning", "dragnet", "input").glob("*.html"))[:150] + \
        sorted(shared("cleaning", "cleaneval-final", "input").glob("*.html"))[:150]
    opts = CleanOptions(cleaner="tags", prune_model=str(model[0]), prune_threshold=0)

    def run():
        docs = [Document(id=f.stem, content_type="text/html", raw=f.read_bytes()) for f in files]
        rows, stats = Pipeline(opts).process(docs)
        return rows, {k: v for k, v in stats.counts.items() if k != "prune.segment_score_s"}

    assert common.decide is not common.decide_python  # (built: the compiled loops run)
    rows, counts = run()
    assert counts["prune.sentences_dropped"] > 1000 and counts["prune.sentences_kept"] > 1000
    monkeypatch.setattr(segment, "sentence_columns", segment.sentence_columns_python)
    monkeypatch.setattr(common, "sentence_columns", segment.sentence_columns_python)
    monkeypatch.setattr(common, "decide", common.decide_python)
    monkeypatch.setattr(contrastive, "quarter_bins", contrastive.quarter_bins_python)
    twin_rows, twin_counts = run()
    assert rows == twin_rows
    assert list(counts.items()) == list(twin_counts.items())


def test_a_page_sentencex_panics_on_is_pruned_and_written_with_the_rest(model, tmp_path):
    """sentencex panics on "M\\x85." (a Rust PanicException, not an Exception): the line is kept whole, scored
    as one sentence, and every record of the file is written."""
    from pathlib import Path

    from preprocess.driver.preprocess import run_preprocess
    from webprune.warcpack import pack_pages

    prose = "<p>" + " ".join(PROSE) + "</p>"
    pages = [(f"p{i}", f"http://news.invalid/{i}", f"<html><head><title>P{i}</title></head><body>{prose}"
              f"{'<p>M' + chr(0x85) + '.</p>' if i == 1 else ''}</body></html>".encode()) for i in range(3)]
    pack_pages(pages, tmp_path / "in.warc.gz")
    r = run_preprocess([str(tmp_path / "in.warc.gz")], str(tmp_path / "out"),
                       CleanOptions(cleaner="tags", prune_model=str(model[0]), prune_threshold=100), local_run(),
                       progress=False)
    assert (r["written"], r["failed"], r["unaccounted"]) == (3, {}, 0)
    files = sorted(Path(tmp_path / "out" / "collection").glob("*.jsonl"))  # (split at "\n": U+0085 splits a str's lines)
    rows = [json.loads(line) for f in files for line in f.read_text(encoding="utf-8").split("\n") if line]
    assert len(rows) == 3 and any("M\x85." in row["contents"] for row in rows)


def test_kept_and_removed_lines_of_real_pages():
    assert kept_flags(["Home", "A long sentence about cats here.", "Home", "|"],
                      ["A long sentence about cats here.", "Home"]) == [True, True, False, None]
    files = sorted(shared("cleaning", "cleaneval-dev", "input").glob("*.html"))[:5]
    docs = [Document(id=f.stem, content_type="text/html", raw=f.read_bytes()) for f in files]
    rows = labelled(label_pipeline(LabelOptions()), docs, Stats())
    assert len(rows) == 5
    for doc, kept, removed in rows:
        assert kept and removed  # every one of these pages has a menu or a footer the cleaner takes out
        assert kept == [ln.text for ln in doc.lines]
        assert len(kept) + len(removed) <= len(lines_before(doc))


def test_normalize_many_equals_normalize_on_real_lines():
    files = sorted(shared("cleaning", "dragnet", "input").glob("*.html"))[:30]
    docs = [Document(id=f.stem, content_type="text/html", raw=f.read_bytes()) for f in files]
    lines = [line for d in Pipeline(CleanOptions()).process(docs)[0] for line in d["contents"].split("\n")]
    lines += ["Café ｆｕｌｌ “quotes” 2024", "``tex''", "x\u2028y"]
    assert len(lines) > 500
    assert normalize_many(lines) == [normalize(line) for line in lines]


def test_score_norm_is_the_two_models_difference_over_the_vocabulary_mapped_text(model):
    from preprocess.lm.contrastive import LOG2_10

    pair = ContrastiveScorer(model[0]).pair("en")
    files = sorted(shared("cleaning", "dragnet", "input").glob("*.html"))[:20]
    docs = [Document(id=f.stem, content_type="text/html", raw=f.read_bytes()) for f in files]
    norms = normalize_many([line for d in Pipeline(CleanOptions()).process(docs)[0] for line in d["contents"].split("\n")])
    norms += ["zzqx unseenword the", "the the the", ""]
    oov = 0
    for norm in norms:
        toks = norm.split()
        mapped = " ".join(t if t in pair.vocab else OOV for t in toks)
        oov += mapped.count(OOV)
        want = (pair.boiler.score(mapped) - pair.content.score(mapped)) * LOG2_10 / (len(toks) + 1)
        assert pair.score_norm(norm) == want, norm
    assert oov > 100  # the model's vocabulary leaves many of these pages' words out


def test_pruner_default_threshold_by_value_and_errors(model):
    path = str(model[0])
    opts = CleanOptions(cleaner="tags", drop_hinted=True, max_link_density=0.5, prune_model=path).check()
    assert options_contrastive(opts)
    html = ("<html><head><title>Portal</title></head><body><p>Most Popular</p><p>{}</p><p>{}</p>"
            "<p>Share this story</p></body></html>").format(*PROSE).encode()
    out, stats = Pipeline(opts).process([Document(id="p", content_type="text/html", raw=html)])
    assert out[0]["contents"] == "Portal\n" + "\n".join(PROSE)
    assert stats.counts["prune.sentences_dropped"] == 2 and stats.counts["prune.model_loads"] == 1
    keep_all = CleanOptions(cleaner="tags", prune_model=path, prune_threshold=100.0).check()  # by value: nothing
    # scores that high
    out, _ = Pipeline(keep_all).process([Document(id="p", content_type="text/html", raw=html)])
    assert out[0]["contents"].count("\n") == 4
    with pytest.raises(ValueError, match="no perplexity"):
        CleanOptions(prune_model=path, max_perplexity=8000).check()
    from preprocess.filters.prune.contrastive import ContrastivePrune

    plain, adjusted = ContrastivePrune(path), ContrastivePrune(path, score="adjusted")  # adjusted: + line length
    short, long = plain.decision_score(MENU[1]), adjusted.decision_score(MENU[1])
    assert short[0] == long[0] and long[1] > short[1]  # a 2-token line looks more like boilerplate
    prose = adjusted.decision_score(PROSE[0])
    assert prose[1] < prose[0]  # 16 tokens: less
    assert not CleanOptions(prune_model=path, prune_score="adjusted").check().line_features
    with pytest.raises(ValueError, match="at most one"):
        CleanOptions(prune_model=path, prune_threshold=1.0, prune_percentile=20).check()
    with pytest.raises(ValueError, match="without contrastive.json"):
        CleanOptions(prune_model=str(model[0].parent), prune_threshold=1.0).check()


def test_percentile_is_calibrated_and_wet_text_is_pruned_without_a_dom(model, crawl, tmp_path):
    from preprocess.driver.preprocess import run_preprocess

    opts = CleanOptions(prune_model=str(model[0]), prune_percentile=30, prune_sample_docs=10)
    r = run_preprocess([str(crawl)], str(tmp_path / "pct"), opts, local_run(), progress=False)
    cal = r["pruning"]["calibration"]
    assert cal["sample_docs"] == 10 and cal["sample_sentences"] > 100 and r["pruning"]["threshold"] == cal["threshold"]
    assert 0.2 < r["counters"]["prune.sentences_dropped"] / r["counters"]["prune.sentences"] < 0.45

    wet = shared("warc", "commoncrawl", "whirlwind-whirlwind.warc.wet.gz")
    plain = run_preprocess([str(wet)], str(tmp_path / "plain"), CleanOptions(), local_run(), progress=False)
    assert (plain["written"], plain["skipped"], plain["unaccounted"]) == (1, {"non_response": 1}, 0)
    doc = json.loads(next((tmp_path / "plain" / "collection").glob("*.jsonl")).read_text())
    assert doc["url"] == "https://an.wikipedia.org/wiki/Escopete" and doc["contents"].count("\n") > 50
    r = run_preprocess([str(wet)], str(tmp_path / "pruned"), CleanOptions(prune_model=str(model[0]), prune_threshold=0),
                       local_run(), progress=False)
    # the page is Aragonese Wikipedia (detected as Galician): no pair in an English model, so left whole and counted
    assert r["written"] == 1 and r["counters"]["prune.docs_without_language_model"] == 1
    assert r["counters"]["prune.unpruned_lang.gl"] == 1 and "prune.sentences" not in r["counters"]
    same = json.loads(next((tmp_path / "pruned" / "collection").glob("*.jsonl")).read_text())["contents"]
    assert same == doc["contents"]

    from io import BytesIO  # an English WET record, built here: pruned without a DOM

    from warcio.warcwriter import WARCWriter

    text = "\n".join(MENU + PROSE + MENU).encode()
    with open(tmp_path / "en.warc.wet.gz", "wb") as fh:
        w = WARCWriter(fh, gzip=True)
        w.write_record(w.create_warc_record("http://news.invalid/a", "conversion", payload=BytesIO(text),
                                            warc_content_type="text/plain", length=len(text)))
    r = run_preprocess([str(tmp_path / "en.warc.wet.gz")], str(tmp_path / "en"),
                       CleanOptions(prune_model=str(model[0]), prune_threshold=0), local_run(), progress=False)
    assert r["written"] == 1 and r["counters"]["prune.lang.en"] == 1
    assert 0 < r["counters"]["prune.sentences_dropped"] < r["counters"]["prune.sentences"]
    pruned = json.loads(next((tmp_path / "en" / "collection").glob("*.jsonl")).read_text())["contents"]
    assert all(p in pruned for p in PROSE) and not any(m in pruned for m in MENU[1:])


@pytest.mark.parametrize("argv, fragment", [
    (["lm", "score", "{parent}", "x"], "without contrastive.json"),
    (["lm", "train-crawl", "{crawl}", "-o", "{card}"], "is a file"),
    (["lm", "train-crawl", "{crawl}", "-o", "{tmp}/m", "--order", "3", "--sample-docs", "-1"], "--sample-docs"),
    (["preprocess", "{crawl}", "-o", "{tmp}/o", "--prune-model", "{model}", "--max-perplexity", "5"], "no perplexity"),
])
def test_bad_arguments_are_one_line_errors(model, crawl, tmp_path, capsys, argv, fragment):
    from tests.test_cli_errors import one_line_error

    fill = {"parent": str(model[0].parent), "crawl": str(crawl), "card": str(model[0] / CARD), "tmp": str(tmp_path),
            "model": str(model[0])}
    one_line_error(capsys, [a.format(**fill) for a in argv], fragment)


def test_a_unit_whose_lines_are_spooled_is_not_cleaned_again(crawl, tmp_path, monkeypatch):
    """The engine's spool: round 0 writes the unit's rows under OUT/learned/crawl_lines/spool/ and hands back only
    signatures; run again it reads the spool instead of cleaning; round 1 is handed the spool and its routed rows
    to skip."""
    import preprocess.learning.labels as labels_mod
    from preprocess.driver.train_crawl import CRAWL_LINES
    from preprocess.train_crawl.dedup import DedupOptions
    from preprocess.readers.sources import discover
    from preprocess.run.units import Job, plan
    from preprocess.learning.worker import learn_unit

    labels = LabelOptions()
    job = Job(labels.clean_options(), str(tmp_path))
    unit = plan(discover([str(crawl)]), job)[0]
    state = {"labels": labels.__dict__, "quota": 5, "dedup": DedupOptions().__dict__}
    first, name = learn_unit((job, state), (CRAWL_LINES, 0, unit, None, None))
    assert first["pages"] == 5 and first["records"] == 5 and first["sketches"].shape == (5, 128)
    assert first["langs"] == ["en"] * 5 and (first["lines"] > 0).all()
    spooled = sorted(p.name for p in (tmp_path / "learned" / "crawl_lines" / "spool").iterdir())
    assert spooled == sorted([name, name + ".json"]) and name.startswith(unit.key) and "-t5." in name
    on_disk = (tmp_path / "learned" / "crawl_lines" / "spool" / name).read_bytes()

    def no_cleaning(_labels):
        raise AssertionError("cleaned again")

    monkeypatch.setattr(labels_mod, "label_pipeline", no_cleaning)
    again, same = learn_unit((job, state), (CRAWL_LINES, 0, unit, None, None))
    assert same == name and (tmp_path / "learned" / "crawl_lines" / "spool" / name).read_bytes() == on_disk
    assert (again["sketches"] == first["sketches"]).all() and (again["exact"] == first["exact"]).all()
    assert again["langs"] == first["langs"]
    counts = learn_unit((job, None), (CRAWL_LINES, 1, unit, {"exclude": [], "languages": ["en"]}, name))
    fewer = learn_unit((job, None), (CRAWL_LINES, 1, unit, {"exclude": [0, 1], "languages": ["en"]}, name))
    assert len(counts["digests"]) > 50 and 0 < len(fewer["digests"]) < len(counts["digests"])  # rows 0, 1 skipped
    assert sum(fewer["words"]["en"].values()) < sum(counts["words"]["en"].values()) and fewer["exclude"] == [0, 1]
