"""Contrastive training on crawls as they are: duplicate pages (exact and near) and a language without spaces
(real ClueWeb09 Japanese pages), per-language pairs, and pages of a language without a pair left unpruned."""
import pytest

from preprocess.core.document import Document
from preprocess.lm.contrastive import ContrastiveScorer, normalize_many
from preprocess.driver.train_crawl import train_crawl
from preprocess.train_crawl.options import CrawlOptions
from preprocess.train_crawl.dedup import K, DedupOptions, duplicates, signatures
from preprocess.learning.labels import LabelOptions, label_pipeline, labelled
from preprocess.lm.lang import detect_language, page_text
from preprocess.lm.normalize import normalize, split_cjk
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from preprocess.core.stats import Stats
from tests.conftest import shared

JA = "clueweb09-ja-sample.warc.gz"


def cpe_pages(n: int) -> list[tuple[str, str, bytes]]:
    """(id, url, page) of the first ``n`` CleanPortalEval pages (news portals, several pages per host)."""
    from eval.cleaning.gold import page_url
    from eval.cleaning.harness import strip_wrapper

    files = sorted(shared("cleaning", "cleanportaleval", "input").glob("*.html"))[:n]
    return [(f.stem, page_url(f.read_bytes()) or f"http://cpe.invalid/{f.stem}", strip_wrapper(f.read_bytes()))
            for f in files]


def japanese_docs() -> list[Document]:
    from preprocess.readers import read_source
    from preprocess.readers.sources import discover

    return list(read_source(discover([str(shared("warc", "clueweb09", JA))])[0], Stats(), 1 << 26))


def rows(pages, labels=LabelOptions()):
    docs = [Document(id=i, url=u, content_type="text/html", raw=raw) for i, u, raw in pages]
    out = []
    for d, kept, removed in labelled(label_pipeline(labels), docs, Stats()):
        out.append((d, normalize_many(kept), normalize_many(removed)))
    return out


def test_near_duplicates_need_close_page_and_kept_text():
    pages = cpe_pages(12)
    stamped = [(i + "#1", u, raw.replace(b"</body>", b"<p>Crawled on 2024-06-01 at 11:00 UTC.</p></body>"))
               for i, u, raw in pages]
    r = rows(pages + stamped + pages[:3])  # 12 pages, 12 near copies, 3 exact copies
    exact, sk = signatures([(k, rm) for _, k, rm in r])
    assert sk.shape == (27, 2 * K) and (exact[:12] != exact[12:24]).all()  # the stamp makes each copy differ
    assert (exact[:3] == exact[24:]).all() and (sk[:3] == sk[24:]).all() and (sk[:12, K:] == sk[12:24, K:]).all()
    assert ((sk[:12, :K] == sk[12:24, :K]).mean(axis=1) >= 0.9).all()  # one line more: most minima stay
    assert len({d.host for d, _, _ in r[:12]}) < 12  # pages sharing a host and its template are not close:
    dup, found = duplicates(exact, sk, DedupOptions())
    assert not dup[:12].any() and dup[12:].all()  # the first of each cluster stays
    assert found == {"pages": 27, "duplicates": 15, "exact": 3, "near": 12}
    assert duplicates(exact, sk, DedupOptions(mode="exact"))[1]["duplicates"] == 3
    assert not duplicates(exact, sk, DedupOptions(mode="off"))[0].any()
    again = signatures([(k, rm) for _, k, rm in rows(pages[:2])])  # deterministic: the same bytes again
    assert (again[0] == exact[:2]).all() and (again[1] == sk[:2]).all()
    with pytest.raises(ValueError, match="--dedup"):
        DedupOptions(mode="fuzzy").check()


def test_a_duplicated_crawl_trains_the_single_copys_model(tmp_path):
    from webprune.warcpack import pack_pages

    pages = cpe_pages(24)
    pack_pages(pages, tmp_path / "one" / "a.warc.gz")
    pack_pages([(f"{i}#{c}", u, raw) for c in range(3) for i, u, raw in pages], tmp_path / "x3" / "a.warc.gz")
    one = train_crawl([str(tmp_path / "one")], str(tmp_path / "m1"), executor="local")
    x3 = train_crawl([str(tmp_path / "x3")], str(tmp_path / "m3"), executor="local")
    assert x3["duplicates"]["duplicates"] == 48 == x3["duplicates"]["exact"] and x3["sample"]["documents"] == 72
    assert x3["sample"]["distinct_documents"] == 24 and one["duplicates"]["duplicates"] == 0
    assert x3["content"]["lines"] > 100 and x3["label_counts"] == one["label_counts"]
    for f in ("content.bin", "boilerplate.bin", "vocab.txt"):  # the copies are left out: the same model
        assert (tmp_path / "m3" / "en" / f).read_bytes() == (tmp_path / "m1" / "en" / f).read_bytes()
    with pytest.raises(ValueError, match="one side has no lines"):  # counted per record, every line repeats
        train_crawl([str(tmp_path / "x3")], str(tmp_path / "m0"), CrawlOptions(dedup="off"), executor="local")


def test_japanese_is_detected_by_script_and_segmented_into_characters():
    from resiliparse.parse.lang import detect_fast

    docs = japanese_docs()
    labelled_docs = labelled(label_pipeline(LabelOptions(drop_hinted=False)), docs, Stats())
    assert len(labelled_docs) == 29
    texts = [page_text(d.title, kept) for d, kept, _ in labelled_docs]
    assert [detect_language(t) for t in texts] == ["ja"] * 29
    assert {detect_fast(t)[0] for t in texts} >= {"zh", "ja"}  # resiliparse alone takes some for Chinese
    lines = [line for _, kept, _ in labelled_docs for line in kept if len(line) > 40]
    assert len(lines) > 50
    for line in lines[:50]:
        tokens = normalize(line).split()
        cjk = [t for t in tokens if split_cjk(t) != t]
        assert cjk and all(len(t) == 1 for t in cjk)  # every Han/kana character is its own token
        assert len(tokens) > 10  # one whitespace token per line before
    assert detect_language("This page is written in English, as most of this crawl is.") == "en"
    assert detect_language("这是一个中文句子，我们今天去公园散步。") == "zh"
    assert detect_language("오늘은 공원에서 산책을 했습니다") == "ko"
    assert detect_language("12345 -- !!") == "und"


@pytest.fixture(scope="module")
def mixed_model(tmp_path_factory):
    """English news portals and real Japanese shop pages in one crawl; a pair for each language."""
    from webprune.warcpack import pack_pages

    root = tmp_path_factory.mktemp("mixed")
    pack_pages(cpe_pages(40), root / "crawl" / "en.warc.gz")
    (root / "crawl" / JA).symlink_to(shared("warc", "clueweb09", JA))
    out = root / "model"
    card = train_crawl([str(root / "crawl")], str(out), CrawlOptions(min_language_lines=100, drop_hinted=False),
                       executor="local")  # the shop's hinted blocks hold its product text
    return out, card


def test_a_crawl_of_two_languages_trains_a_pair_each(mixed_model):
    path, card = mixed_model
    assert card["main_language"] == "en" and sorted(card["languages"]) == ["en", "ja"]
    ja = card["languages"]["ja"]
    assert ja["documents"] + card["duplicates"]["near"] == 29 and card["duplicates"]["near"] >= 1
    assert ja["tokens"].startswith("characters") and card["languages"]["en"]["tokens"] == "words"
    assert ja["content"]["lines"] >= 100 and ja["boilerplate"]["lines"] >= 100
    assert ja["content"]["tokens"] > 10 * ja["content"]["lines"]  # characters, not one token a line
    assert card["content"]["lines"] == sum(e["content"]["lines"] for e in card["languages"].values())
    scorer = ContrastiveScorer(path)
    vocab = scorer.pair("ja").vocab
    assert "バ" in vocab and "the" not in vocab and "the" in scorer.pair("en").vocab
    # one line goes to its script's pair: a product description is content, the shop's menu boilerplate
    desc = "ナイロン素材なのでタンカーシリーズに比べ、生地が少し硬めで形が崩れにくいです。"
    assert scorer.score(desc) < scorer.score("│ HOME │ 会社紹介 │ 利用案内 │ 会員登録/修正 │ お買い物かご │")
    assert scorer.score(desc) == scorer.pair("ja").score_norm(normalize(desc))


def test_pages_of_a_language_without_a_pair_are_left_unpruned_and_counted(mixed_model, tmp_path, monkeypatch):
    path, card = mixed_model
    docs = japanese_docs()
    en_only = path.parent / "en-only"  # the same model without its Japanese pair
    en_only.mkdir()
    (en_only / "en").symlink_to(path / "en")
    import json

    (en_only / "contrastive.json").write_text(json.dumps({**card, "languages": {"en": card["languages"]["en"]}}))
    base = CleanOptions(cleaner="tags", prune_threshold=1.0)
    plain, _ = Pipeline(CleanOptions(cleaner="tags")).process(japanese_docs())
    for model, lang_counter in ((en_only, "prune.unpruned_lang.ja"), (path, "prune.lang.ja")):
        opts = CleanOptions(**{**base.__dict__, "prune_model": str(model)}).check()
        out, stats = Pipeline(opts).process([Document(id=d.id, url=d.url, content_type=d.content_type, raw=d.raw)
                                             for d in docs])
        assert stats.counts[lang_counter] == len(plain) == 29
        if model == en_only:  # left whole, counted
            assert stats.counts["prune.docs_without_language_model"] == 29 and "prune.sentences" not in stats.counts
            assert [o["contents"] for o in out] == [p["contents"] for p in plain]
        else:  # scored with the Japanese pair: some sentences go
            assert "prune.docs_without_language_model" not in stats.counts
            assert 0 < stats.counts["prune.sentences_dropped"] < stats.counts["prune.sentences"]

    import preprocess.lm.lang as lang_mod

    scorer = ContrastiveScorer(en_only)  # a page taken for French: scored by the pair whose vocabulary it is in
    d, kept, _ = labelled(label_pipeline(LabelOptions()), [Document(id=i, url=u, content_type="text/html", raw=raw)
                                                          for i, u, raw in cpe_pages(1)], Stats())[0]
    english, japanese = page_text(d.title, kept), page_text(plain[0]["contents"], [])
    assert scorer.page_pair(english)[:1] == ("en",) and scorer.page_pair(japanese)[::2] == ("ja", False)
    monkeypatch.setattr(lang_mod, "detect_language", lambda text: "fr")
    lang, pair, by_vocabulary = scorer.page_pair(english)
    assert lang == "fr" and pair is scorer.pair("en") and by_vocabulary
    assert scorer.page_pair(japanese) == ("fr", None, False)  # its words are not the English pair's
