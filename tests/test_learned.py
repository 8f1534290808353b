"""The learned block cleaner: tree export and evaluation, features, the shipped model on hand-made and real pages."""
import json

import numpy as np
import pytest
from resiliparse.parse.html import HTMLTree

from eval.cleaning.gold import gold_pages
from eval.cleaning.harness import strip_wrapper
from eval.cleaning.score import word_prf
from preprocess.cleaners.learned.blocks import split_body
from preprocess.cleaners.learned.features import TokenVocab, feature_names, page_features
from preprocess.cleaners.learned.text import text_columns
from preprocess.cleaners.learned.model import DEFAULT_MODEL, BlockModel, load_model
from preprocess.core.document import Document
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from preprocess.config.spec import format_spec, parse_spec
from tests.conftest import shared

ARTICLE = " ".join(f"Sentence number {i} of the article talks about bees and their hives, in some detail." for i in range(12))
PAGE = f"""<html><head><title>All about bees</title></head><body>
<div id="nav"><ul><li><a href="/">Home</a></li><li><a href="/a">About</a></li><li><a href="/c">Contact</a></li>
<li><a href="/n">News</a></li><li><a href="/s">Shop</a></li></ul></div>
<div id="main"><div class="post"><h1>All about bees</h1><p>{ARTICLE}</p><p>{ARTICLE}</p><p>{ARTICLE}</p></div>
<div class="share"><a href="/s">Share on Facebook</a> <a href="/t">Tweet this</a></div></div>
<div id="footer"><p><a href="/p">Privacy policy</a> | <a href="/t">Terms of use</a> | <a href="/c">Cookies</a></p></div>
</body></html>""".encode()


def stump(names: list[str], feature: str, limit: float, low: float, high: float) -> dict:
    """A one-split model: margin ``low`` when ``feature <= limit`` else ``high`` (node 0 splits, 1 and 2 are leaves)."""
    return {"features": names, "vocab": [], "base": 0.0, "depth": 1, "threshold": 0.5,
            "trees": {"feature": [[names.index(feature), 0, 0]], "threshold": [[limit, 1e300, 1e300]],
                      "left": [[1, 1, 2]], "right": [[2, 1, 2]], "value": [[0.0, low, high]]}}


def blocks_of(html: str):
    return split_body(HTMLTree.parse(html))


def clean(raw: bytes, **kw):
    return Pipeline(CleanOptions(cleaner="learned", **kw)).process([Document(id="p", content_type="text/html", raw=raw)])


def test_a_stump_model_walks_padded_trees_and_applies_its_threshold():
    names = feature_names(TokenVocab([]))
    m = BlockModel(stump(names, "link_density", 0.5, 2.0, -2.0))
    X = np.zeros((3, len(names)))
    X[:, names.index("link_density")] = [0.0, 0.5, 0.9]
    assert m.margin(X).tolist() == [2.0, 2.0, -2.0]
    assert m.keep(X).tolist() == [True, True, False]
    with pytest.raises(ValueError, match="features"):
        m.margin(np.zeros((2, 3)))


def test_exported_trees_give_scikit_learns_scores():
    sklearn = pytest.importorskip("sklearn.ensemble")
    import scripts.tools.train_learned as tl

    rng = np.random.default_rng(1)
    X = rng.random((2000, 6))
    y = (X[:, 0] + 0.5 * X[:, 3] ** 2 - X[:, 5] * X[:, 1] + rng.normal(0, 0.1, 2000)) > 0.5
    clf = sklearn.HistGradientBoostingClassifier(max_iter=30, max_leaf_nodes=7, random_state=0).fit(X, y)
    model = BlockModel(json.loads(json.dumps(tl.export(clf, [f"f{i}" for i in range(6)], [], {}))))
    assert np.allclose(model.margin(X), clf.decision_function(X), atol=1e-4)  # leaf values kept to 6 decimals
    assert (model.keep(X) == (clf.predict_proba(X)[:, 1] >= model.threshold)).mean() > 0.999


def test_fast_text_columns_count_words_block_by_block_even_with_odd_characters():
    texts = ["Hello world, the best.", "Home", "Odd\u2028line sep and (The) end", "x\u0130y caps"]
    cols, chars, commas = text_columns(texts, np.array([0.0, 4.0, 0.0, 0.0]), "The best news")
    assert cols[:, 1].tolist() == pytest.approx(np.log1p([4, 1, 6, 2]).tolist())  # words, per block
    assert commas.tolist() == [1, 0, 0, 0] and cols[1, 2] == 1.0  # "Home" is all link
    assert cols[0, 7] == pytest.approx(1 / 4)  # stop words: "the"


def test_features_have_one_row_per_block_and_one_column_per_name():
    vocab = TokenVocab(["nav", "post", "footer"])
    page = blocks_of(f'<body><div id="nav"><a href="/">Home</a></div><div class="post"><p>{ARTICLE}</p>'
                        '</div><div id="footer">c</div></body>')
    X = page_features(page, "Bees", vocab)
    assert X.shape == (len(page.texts), len(feature_names(vocab))) == (3, len(feature_names(vocab)))
    names = feature_names(vocab)
    assert X[0, names.index("path:.nav")] == 1 and X[1, names.index("path:.post")] == 1
    assert X[2, names.index("own:footer")] == 1 and X[1, names.index("own:footer")] == 0


def test_a_text_the_page_repeats_is_counted_and_its_later_copies_marked():
    reviews = "".join(f'<div class="r"><p>5 out of 5 stars</p><p>Review {i}: {ARTICLE[:80]}</p>'
                      f'<span class="spin">Loading</span></div>' for i in range(3))
    page = blocks_of(f"<body><p>{ARTICLE}</p>{reviews}<p>LOADING</p></body>")
    names = feature_names(TokenVocab([]))
    X = page_features(page, "", TokenVocab([]))
    repeats, seen = X[:, names.index("text_repeats")], X[:, names.index("text_seen")]
    by_text = {}
    for t, r, s in zip(page.texts, repeats, seen):
        by_text.setdefault(t.lower(), []).append((round(float(np.expm1(r))), bool(s)))
    assert by_text["5 out of 5 stars"] == [(3, False), (3, True), (3, True)]
    assert by_text["loading"] == [(4, False), (4, True), (4, True), (4, True)]  # case-folded: LOADING too
    assert by_text[ARTICLE.lower()] == [(1, False)] and by_text[f"review 1: {ARTICLE[:80]}".lower().strip()] == [(1, False)]


def test_only_anchors_with_an_href_count_as_link_text():
    # <a name=...> wraps whole posts on old forum pages (lexbor reopens it in every paragraph): not a link
    page = blocks_of('<body><p><a name="post1">A long post that is not a link at all.</a></p>'
                        '<p>Read <a href="/more">more here</a></p></body>')
    assert page.texts == ["A long post that is not a link at all.", "Read more here"]
    assert page.link_chars == [0, len("more here")]


def test_path_names_and_distance_from_readabilitys_candidate():
    vocab = TokenVocab([])
    page = blocks_of(f'<body><div class="article"><p>{ARTICLE}</p><p>{ARTICLE}, and more, and more.</p></div>'
                        '<div id="comments"><div class="c1"><p>Great post, thanks, really.</p></div></div>'
                        '<div class="sidebar-promo"><p>Buy now</p></div></body>')
    X = page_features(page, "Bees", vocab)
    col = {n: X[:, i].tolist() for i, n in enumerate(feature_names(vocab))}
    assert col["in_top"] == [1, 1, 0, 0]
    assert col["comment_path"] == [0, 0, 1, 0] and col["negative_path"] == [0, 0, 1, 1]
    assert col["positive_path"] == [1, 1, 0, 0]
    assert col["after_top"][:2] == [0, 0] and 0 < col["after_top"][2] < col["after_top"][3] < 1
    assert col["before_top"] == [0, 0, 0, 0]


def test_subtree_sizes_by_depth_level_equal_a_walk_up_the_tree():
    from preprocess.cleaners.learned.context import _subtree_sizes

    page = blocks_of("<body><div><p>a</p><ul><li>b</li><li>c<br>d</li></ul></div><div><p>e</p></div></body>")
    parent, depth = np.asarray(page.el_parent), np.asarray(page.el_depth)
    walk = np.ones(len(parent))
    for e in range(len(parent) - 1, -1, -1):
        if parent[e] >= 0:
            walk[parent[e]] += walk[e]
    assert _subtree_sizes(parent, depth).tolist() == walk.tolist()
    assert walk[0] == len(parent) == 8 and walk[1] == 5  # body; the first div: itself, p, ul, two li


def test_the_shipped_model_keeps_the_article_and_drops_menu_share_bar_and_footer():
    out, stats = clean(PAGE)
    lines = out[0]["contents"].split("\n")
    assert lines[0] == "All about bees" and sum(ARTICLE in line for line in lines) == 3
    for boiler in ("Home", "Contact", "Share on Facebook", "Privacy policy"):
        assert not any(boiler in line for line in lines), boiler
    assert stats.counts["learned.blocks_dropped"] >= 5 and stats.counts["learned.blocks_kept"] >= 3
    tags, _ = Pipeline(CleanOptions(cleaner="tags")).process([Document(id="p", content_type="text/html", raw=PAGE)])
    assert "Privacy policy" in tags[0]["contents"]  # tag removal alone keeps it


def test_model_option_round_trips_and_a_missing_or_mismatched_model_is_refused(tmp_path):
    spec = "learned+learned_model(build/learned/loso/{set}.json)"
    assert format_spec(parse_spec(spec)) == spec
    with pytest.raises(ValueError, match="train one with scripts/tools/train_learned.py"):
        clean(PAGE, learned_model=str(tmp_path / "none.json"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(stump(["a", "link_density"], "link_density", 0.5, 1.0, -1.0)))
    with pytest.raises(ValueError, match="other features"):
        clean(PAGE, learned_model=str(bad))
    names = feature_names(TokenVocab([]))
    drop_all = tmp_path / "drop.json"
    drop_all.write_text(json.dumps(stump(names, "link_density", 2.0, -5.0, -5.0)))
    out, stats = clean(PAGE, learned_model=str(drop_all))
    assert out[0]["contents"] == "All about bees"  # every block dropped: the title stays
    assert stats.counts["learned.blocks_dropped"] > 0 and not stats.counts["learned.blocks_kept"]


def test_shipped_model_beats_tag_removal_on_real_pages():
    """Sanity on 40 L3S-GN1 pages (the shipped model saw them in training: the evidence is the README's
    leave-one-set-out run, not this)."""
    pages = gold_pages(shared(), ["l3s-gn1"])[:40]
    raws = [strip_wrapper(p.input.read_bytes()) for p in pages]
    f1 = {}
    for cleaner in ("tags", "learned"):
        docs = [Document(id=str(i), content_type="text/html", raw=raw) for i, raw in enumerate(raws)]
        out, stats = Pipeline(CleanOptions(cleaner=cleaner)).process(docs)
        assert not stats.group("failed")
        by_id = {o["id"]: o["contents"] for o in out}
        f1[cleaner] = np.mean([word_prf(by_id.get(str(i), ""), p.gold_text())["f1"] for i, p in enumerate(pages)])
    assert f1["learned"] > f1["tags"] + 0.1, f1


def test_a_bagged_model_scores_the_mean_margin_of_its_models():
    sklearn = pytest.importorskip("sklearn.ensemble")
    import scripts.tools.train_learned as tl

    rng = np.random.default_rng(2)
    X = rng.random((3000, 5))
    y = (X[:, 0] - X[:, 2] * X[:, 4] + rng.normal(0, 0.2, 3000)) > 0.2
    names = [f"f{i}" for i in range(5)]
    models = []
    for seed, size in ((0, 7), (1, 15), (2, 3)):  # other samples, other tree widths (padding differs)
        rows = np.random.default_rng(seed).choice(3000, 1500, replace=False)
        clf = sklearn.HistGradientBoostingClassifier(max_iter=20, max_leaf_nodes=size, random_state=0)
        models.append(json.loads(json.dumps(tl.export(clf.fit(X[rows], y[rows]), names, ["nav"], {"fit_s": 1.0}))))
    bagged = BlockModel(json.loads(json.dumps(tl.bag(models))))
    mean = np.mean([BlockModel(m).margin(X) for m in models], axis=0)
    assert bagged.n_trees == 60 and np.allclose(bagged.margin(X), mean, atol=1e-5)
    X32 = X.astype(np.float32)  # the compiled walk's input
    assert np.allclose(bagged.margin(X32), np.mean([BlockModel(m).margin(X32) for m in models], axis=0), atol=1e-5)
    assert not np.allclose(mean, BlockModel(models[0]).margin(X), atol=0.05)  # the models do differ
    with pytest.raises(ValueError, match="share features and vocabulary"):
        tl.bag([models[0], dict(models[1], vocab=["menu"])])


def test_default_model_file_is_small():
    assert DEFAULT_MODEL.stat().st_size < 1_000_000
    assert load_model() is load_model(None) is load_model(str(DEFAULT_MODEL))  # read once per process


def test_kept_blocks_keep_their_link_density_for_the_filters_after_the_cleaner(tmp_path):
    names = feature_names(TokenVocab([]))
    keep_all = tmp_path / "keep.json"
    keep_all.write_text(json.dumps(stump(names, "link_density", 2.0, 5.0, 5.0)))
    out, _ = clean(PAGE, learned_model=str(keep_all))
    assert "Home" in out[0]["contents"] and "Privacy policy" in out[0]["contents"]
    out, stats = clean(PAGE, learned_model=str(keep_all), max_link_density=0.5)
    text = out[0]["contents"]
    assert "Home" not in text and "Privacy policy" not in text and ARTICLE in text
    assert stats.counts["links.lines_dropped"] >= 5


def test_eval_cleaning_picks_each_sets_own_model_for_leave_one_set_out(tmp_path):
    from eval.cleaning.gold import GoldPage
    from eval.cleaning.harness import run_tool

    names = feature_names(TokenVocab([]))
    (tmp_path / "keep.json").write_text(json.dumps(stump(names, "link_density", 2.0, 5.0, 5.0)))
    (tmp_path / "drop.json").write_text(json.dumps(stump(names, "link_density", 2.0, -5.0, -5.0)))
    page = tmp_path / "page.html"
    page.write_bytes(PAGE)
    pages = [GoldPage(s, "p", page, page) for s in ("keep", "drop")]
    results = run_tool(f"webprune/learned+learned_model({tmp_path}/{{set}}.json)", pages, 1, 20, False, {})
    (kept, _, status_k, _), (dropped, _, status_d, _) = results
    assert status_k == status_d == "ok"
    assert ARTICLE in kept and "Home" in kept
    assert dropped == ""  # every block dropped; the title line is not scored (the record still has it)


def test_with_drop_hinted_a_comment_thread_the_hint_rule_spares_is_dropped_but_never_the_whole_page(tmp_path):
    names = feature_names(TokenVocab([]))
    keep_all = tmp_path / "keep.json"
    keep_all.write_text(json.dumps(stump(names, "link_density", 2.0, 5.0, 5.0)))
    thread = '<div class="comment-body"><p>Great post, thanks for writing it up.</p></div>'  # 'body': spared
    page = f"<html><body><div class=post><p>{ARTICLE}</p></div>{thread}</body></html>".encode()
    out, stats = clean(page, learned_model=str(keep_all))
    assert "Great post" in out[0]["contents"]  # without --drop-hinted the model's verdict stands
    out, stats = clean(page, learned_model=str(keep_all), drop_hinted=True)
    assert "Great post" not in out[0]["contents"] and ARTICLE in out[0]["contents"]
    assert stats.counts["learned.comment_blocks_dropped"] == 1
    wrapped = f'<html><body class="comments-page"><p>{ARTICLE}</p>{thread}</body></html>'.encode()
    out, stats = clean(wrapped, learned_model=str(keep_all), drop_hinted=True)
    assert ARTICLE in out[0]["contents"] and "Great post" in out[0]["contents"]
    assert stats.counts["learned.comment_pages_kept"] == 1 and not stats.counts["learned.comment_blocks_dropped"]
    opinion = (f'<html><body><h1>Opinion</h1><div class="article-body commentary"><p>{ARTICLE}</p></div>'
               f'<div id="commentlist">{thread}</div></body></html>').encode()  # names are whole tokens
    out, stats = clean(opinion, learned_model=str(keep_all), drop_hinted=True)
    assert ARTICLE in out[0]["contents"] and "Great post" not in out[0]["contents"]


def test_a_model_rewritten_at_the_same_path_is_read_again(tmp_path):
    import os

    names = feature_names(TokenVocab([]))
    path = tmp_path / "m.json"
    path.write_text(json.dumps(stump(names, "link_density", 2.0, 5.0, 5.0)))
    first = load_model(str(path))
    assert load_model(str(path)) is first
    path.write_text(json.dumps(stump(names, "link_density", 2.0, -5.0, -5.0)))
    os.utime(path, ns=(1, 1))
    assert load_model(str(path)).base == first.base and not load_model(str(path)).keep(np.zeros((1, len(names))))[0]
    with pytest.raises(ValueError, match="not a URI"):
        load_model("s3://bucket/m.json")


def test_a_token_vocabulary_pickles_with_its_compiled_matcher():
    import pickle

    vocab = TokenVocab(["nav", "post", "footer"])
    again = pickle.loads(pickle.dumps(vocab))
    page = blocks_of(f'<body><div id="nav"><a href="/">Home</a></div><div class="post"><p>{ARTICLE}</p></div></body>')
    assert again.tokens == vocab.tokens
    assert np.array_equal(page_features(page, "Bees", again), page_features(page, "Bees", vocab))


def test_a_pages_training_sample_does_not_move_when_another_page_changes():
    import scripts.tools.train_learned as tl

    def page(name, n):
        blocks = np.arange(n, dtype=np.float64)[:, None] + (1000 if name == "b" else 0)
        view = (blocks, "", np.arange(n) % 2 == 0, np.full(n, 1.0 / n), None)
        return tl.TrainPage("dragnet", name, "dragnet", "", [view, view])

    def rows(a_blocks, seed=0):
        X, y, w = tl.training_rows({"dragnet": [page("a", a_blocks), page("b", 300)]}, lambda b, t, h: b, seed=seed)
        return X[:, 0]

    one, other = rows(200), rows(150)
    assert len(one) == len(other) == 4 * tl.MAX_BLOCKS
    assert np.array_equal(one[-2 * tl.MAX_BLOCKS:], other[-2 * tl.MAX_BLOCKS:])  # page b's rows, both views
    assert not np.array_equal(one[:tl.MAX_BLOCKS], other[:tl.MAX_BLOCKS])  # page a's own sample did change
    assert not np.array_equal(one[:tl.MAX_BLOCKS], one[tl.MAX_BLOCKS:2 * tl.MAX_BLOCKS])  # each view its own draw
    assert not np.array_equal(rows(200, seed=1)[-tl.MAX_BLOCKS:], one[-tl.MAX_BLOCKS:])  # another seed, another one


def test_training_reads_gold_pages_through_decode_and_parse_only():
    """The trainer's pages are the parsed pages every cleaner starts from, whatever the default cleaner is."""
    import scripts.tools.train_learned as tl

    assert [s.name for s in tl.reading_steps()] == ["decode", "parse"]
