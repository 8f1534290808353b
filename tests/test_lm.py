"""KenLM training/scoring with one normaliser, and the perplexity pruning step."""
import time

import pytest

from preprocess.core.document import Document
from preprocess.lm.normalize import clean_corpus_line, normalize
from preprocess.lm.score import Scorer
from preprocess.lm.train import train
from preprocess.run.pipeline import CleanOptions, Pipeline
from preprocess.filters.prune.perplexity import PerplexityPrune, deciles
from tests.conftest import shared

BOILER = ["Home | About | Contact | Login", "Copyright 2008 All rights reserved", "Subscribe to our newsletter"]


def test_normalize_case_quotes_numbers_unicode():
    assert normalize("The ``Big'' Cat, Café!") == 'the " big " cat , café !'
    assert normalize("It cost $3.50 in 2024") == "it cost $ 0 . 0 in 0"
    assert normalize("“Straße” ｆｕｌｌ—width") == '" strasse " full - width'
    assert normalize("日本語のテキスト。") == "日 本 語 の テ キ ス ト 。"  # no spaces in the script: characters
    assert normalize("ｶﾀｶﾅ 吉田カバン HEADPORTER 1,640円 한국어 문장") == \
        "カ タ カ ナ 吉 田 カ バ ン headporter 0 , 0 円 한국어 문장"  # Hangul keeps its words
    assert normalize("   ") == ""
    assert clean_corpus_line(" = Robert <unk> = ") == "Robert"
    assert clean_corpus_line("a 1 @,@ 000 b") == "a 1,000 b"


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """A bigram trained on 40k lines of the shared Brown corpus (seconds)."""
    src = shared("lm", "brown.txt")
    corpus = tmp_path_factory.mktemp("lm") / "brown40k.txt"
    with open(src, encoding="utf-8") as f:
        corpus.write_text("".join(line for _, line in zip(range(40000), f)))
    out = corpus.with_suffix(".bin")
    info = train([corpus], out, order=2)
    assert info["tokens"] > 500_000 and out.stat().st_size > 0
    return out


def test_trained_model_prefers_prose_to_boilerplate(model):
    s = Scorer(model)
    prose = s.perplexity("The committee said on Friday that the new school would open in the fall.")
    assert prose < 1000
    for b in BOILER:
        assert s.perplexity(b) > 3 * prose, b
    assert s.perplexity("   ") is None


def test_training_errors_say_what_to_do(tmp_path):
    with pytest.raises(FileNotFoundError, match="training corpus not found"):
        train([tmp_path / "missing.txt"], tmp_path / "m.bin")
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("a b c\n" * 3)
    with pytest.raises(RuntimeError, match="discount-fallback"):
        train([tiny], tmp_path / "m.bin", order=3)
    info = train([tiny], tmp_path / "m.bin", order=2, discount_fallback=True)
    assert info["lines"] == 3


def doc(text, title="A title"):
    d = Document(id="d", title=title)
    d.set_text(text)
    return d


def test_prune_drops_boilerplate_sentences_keeps_title_and_counts(model):
    step = PerplexityPrune(str(model), 2000)
    text = "\n".join(["The committee said that the new school would open in the fall. It was a good year."] + BOILER)
    out = list(step.run([doc(text)]))[0]
    assert out.text == "The committee said that the new school would open in the fall. It was a good year."
    assert out.title == "A title"
    c = step.stats.counts
    assert (c["prune.sentences"], c["prune.sentences_kept"], c["prune.sentences_dropped"]) == (5, 2, 3)
    assert c["prune.bytes_after"] < c["prune.bytes_before"] and c["prune.model_loads"] == 1
    assert sum(v for k, v in c.items() if k.startswith("prune.hist.")) == 5
    assert set(deciles(c)) == {f"p{q}" for q in range(10, 100, 10)}


def test_prune_bad_input_is_counted_never_stalls(model):
    step = PerplexityPrune(str(model), 2000)
    minified = "var a=function(b){return b*2};" * 35000  # ~1 MB "sentence"
    docs = [doc("", title=""), doc("!!! ... ---", title=""), doc(minified, title=""),
            doc("Ceci est une phrase française. 日本語の文です。", title="")]
    t0 = time.perf_counter()
    out = list(step.run(docs))
    assert time.perf_counter() - t0 < 20
    assert out == []  # all four end empty after pruning ...
    assert step.stats.counts["skipped.empty_after_pruning"] == 4  # ... and are counted, not lost
    assert step.stats.counts["prune.docs_without_sentences"] == 1  # the empty one
    assert step.stats.counts["prune.sentences_without_words"] >= 1  # "!!! ... ---" (one or two pieces)
    assert not step.stats.group("failed")


def test_pipeline_with_pruning_and_percentile_option_checks(model):
    opts = CleanOptions(prune_model=str(model), max_perplexity=2000)
    html = ("<html><head><title>School news</title></head><body><ul><li><a href=/>Home</a></li><li>Login</li></ul>"
            "<p>The committee said that the new school would open in the fall.</p>"
            "<p>Copyright 2008 All rights reserved</p></body></html>").encode()
    out, stats = Pipeline(opts).process([Document(id="p", content_type="text/html", raw=html)])
    assert out[0]["contents"] == "School news\nThe committee said that the new school would open in the fall."
    with pytest.raises(ValueError, match="--max-perplexity N or --prune-percentile"):
        CleanOptions(prune_model=str(model)).check()
    with pytest.raises(ValueError, match="need --prune-model"):
        CleanOptions(max_perplexity=5).check()


def test_a_percentile_threshold_is_the_one_thing_that_makes_pruning_learn_first(model):
    from preprocess.config.registry import learning_passes

    calibrate = "preprocess.filters.prune.calibrate:PruneThreshold"
    assert learning_passes(CleanOptions(prune_model=str(model), prune_percentile=25)) == (calibrate,)
    assert learning_passes(CleanOptions(prune_model=str(model), max_perplexity=2000)) == ()
    assert learning_passes(CleanOptions(cleaner="sitediff", prune_model=str(model), prune_percentile=25)) == \
        ("preprocess.cleaners.sitediff:SiteReferences", calibrate)


def test_percentile_pruning_after_a_per_host_cleaner_calibrates_in_process(model):
    """eval-cleaning's calibration of ``sitediff+...+prune(p=25)``: the site references come from steps that stop
    before sitediff, so neither the page steps nor the text steps (WET records) may need the threshold yet."""
    from preprocess.learning.engine import learn_in_process

    opts = CleanOptions(cleaner="sitediff", drop_hinted=True, max_link_density=0.5, prune_model=str(model),
                        prune_score="adjusted", prune_percentile=25)
    para = "<p>The committee said that the new school would open in the fall, after the long summer break.</p>"
    docs = [Document(id=str(i), url=f"http://a.example/{i}", content_type="text/html",
                     raw=f"<html><body><ul><li><a href=/>Home</a></li></ul>{para * (i + 1)}</body></html>".encode())
            for i in range(4)]
    threshold = learn_in_process(opts, docs).get("prune_threshold")["threshold"]
    assert isinstance(threshold, float)


def test_segmentation_is_per_line_and_keeps_abbreviations():
    from preprocess.core.segment import sentences_of, split_line

    assert split_line("Dr. Smith paid $3.50 at 9 a.m. today. Then he left!") == [
        "Dr. Smith paid $3.50 at 9 a.m. today.", "Then he left!"]
    assert split_line("1. Preheat the oven. 2. Mix the flour.")[0].startswith("1. Preheat")
    assert split_line("Visit www.example.com for more.") == ["Visit www.example.com for more."]
    # a menu line is never glued to the paragraph below it
    got = list(sentences_of("Home\nAbout us\nThe study began in May. It ended in June."))
    assert got == [(0, "Home"), (1, "About us"), (2, "The study began in May."), (2, "It ended in June.")]
    assert [s for _, s in sentences_of("x" * 250_000)] == ["x" * 100_000, "x" * 100_000, "x" * 50_000]


def test_adjusted_score_uses_link_density_and_needs_a_percentile(model, tmp_path):
    from preprocess.learning.engine import learn_in_process
    from preprocess.readers import read_source
    from preprocess.readers.sources import discover
    from preprocess.core.stats import Stats
    from webprune.warcpack import pack_pages

    with pytest.raises(ValueError, match="use --prune-percentile"):
        CleanOptions(prune_model=str(model), max_perplexity=100, prune_score="adjusted").check()
    step = PerplexityPrune(str(model), 0.0, score="adjusted")
    same = "The committee said that the new school would open in the fall."
    _, plain = step.decision_score(same, 0.0)
    _, linked = step.decision_score(same, 1.0)
    assert linked > plain  # the same words inside a link look more like boilerplate
    page = ("<html><body><ul>" + "".join(f"<li><a href=/{i}>Section {i}</a></li>" for i in range(8)) + "</ul>"
            "<p>The committee said that the new school would open in the fall. It was a good year for the town.</p>"
            "</body></html>").encode()
    warc = tmp_path / "p.warc.gz"
    pack_pages([(f"d{i}", f"http://x.test/{i}", page) for i in range(3)], warc)
    opts = CleanOptions(cleaner="tags", prune_model=str(model), prune_percentile=85, prune_score="adjusted")
    learned = learn_in_process(opts, list(read_source(discover([warc])[0], Stats())))
    info = learned.get("prune_threshold")["info"]
    assert info["sample_docs"] == 3 and info["sample_sentences"] == 30
    assert learned.get("prune_threshold")["threshold"] == pytest.approx(info["threshold"], abs=1e-4)
    out, stats = Pipeline(opts, learned).process([Document(id="x", content_type="text/html", raw=page)])
    assert out[0]["contents"] == ("The committee said that the new school would open in the fall. "
                                  "It was a good year for the town.")
