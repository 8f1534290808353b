"""The learned cleaner's compiled twins (``compiled.py``) give exactly what the Python code gives.

The reference is the Python path: ``body_markup`` removes noise elements from the
tree, ``split_python`` splits the rest, numpy counts and walks the trees. The
compiled path reads the whole ``<body>`` serialisation and skips noise and
comments itself, so the pages here are made to stress that: real gold pages,
the same pages cut anywhere, and random nestings of raw-text elements, comments,
"</script>" inside scripts' escapes and tags named like "y<svg".
"""
import random
import shutil
from dataclasses import asdict

import numpy as np
import pytest
from resiliparse.parse.html import HTMLTree

from eval.cleaning.gold import gold_pages
from eval.cleaning.harness import strip_wrapper
from preprocess.cleaners.learned import blocks, compiled, repeats, text
from preprocess.cleaners.learned.anchor import page_head
from preprocess.cleaners.learned.cleaner import kept_lines
from preprocess.cleaners.learned.features import TokenVocab, feature_names, page_features
from preprocess.cleaners.learned.model import BlockModel, load_model
from preprocess.core.document import Document
from preprocess.filters.hints import HintFilter
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from preprocess.core.stats import Stats
from tests.conftest import shared
from tests.test_learned import stump

TAGS = ["div", "p", "span", "a href=x", "a name=y", "li", "ul", "table", "td", "b", "svg", "math", "object", "template",
        "select", "option", "textarea", "button", "noscript", "script", "style", "iframe", "xmp", "noembed",
        "noframes", "h1", "section", "embed", "br", "hr"]
TEXTS = ["<!--<script>", "</SCRIPT >", "<script/", "--!>", "<!-->", "hello", " world ", "a &amp; b", "&lt;p&gt;",
         "</p>", "<div>", "</svg>", "</object>", "<!-- c -->", "<!--", "-->", "x<y", "</script>", "</style", "<script>",
         "\u00a0", "é", " ", "<p class='k'>", "</template>"]
HINTED = [f'div class="{c}"' for c in ("social", "comments", "sidebar main", "NAV bar", "post-body", "é-social",
                                      "menu &amp; more", "x")] + \
    ['span id="related"', 'div id="footer" class="article"', 'a class="menu"', 'script class="menu"',
     'div =class="nav"', 'div =class="post" class="nav"', 'span =id="menu"',  # "=class" is another attribute
     'template class="menu"', 'template id="comment-post"']  # its content is no element of the tree's query
SCRIPTS = ["<p>a<script><!--<script></script>--></script>b</p>", "<p>a<script><!-- x --></script>b</p>",
           "<p>a<script><!--<script>--></script>b</p><p>c</p>", "<div><script>if (a<b) x='</p>'</script>t</div>",
           "<p>a<script><!--<script></body></html>", "<p>x<y<script>t</p><!--c--><p>u</p>"]


pytestmark = pytest.mark.skipif(not compiled.BUILT and shutil.which("cc") is None,
                                reason="no C compiler: the compiled twins were not built (pure Python runs)")


def test_the_compiled_twins_are_built_and_on():
    assert compiled.BUILT, "preprocess/cleaners/learned/_*.pyx were not built: run scripts/setup.sh (pip install " \
                           "-e . builds them; it needs a C compiler and Python's headers)"
    assert compiled.ON, "WEBPRUNE_PURE_PYTHON is set: unset it to test the compiled twins"


def test_the_character_search_is_str_find_in_every_width_and_at_every_lane_offset():
    rng = random.Random(5)
    for alphabet in ("ab<", "ab<\u00e9", "ab<\u2019", "ab<\U0001F600", "\u2019<\U0001F600"):
        for _ in range(400):
            s = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
            if alphabet[-1] > "\u00ff":
                s += alphabet[-1]  # the width the alphabet asks for
            lo, hi = rng.randrange(0, len(s) + 1), rng.randrange(0, len(s) + 1)
            for c in ("<", "\u2019", "\U0001F600", "z"):
                assert compiled._scan.find_in(s, c, lo, hi) == s.find(c, lo, hi), (s, c, lo, hi)


@pytest.fixture(scope="module")
def gold_html():
    root = shared()
    pages = gold_pages(root, None)
    return [strip_wrapper(p.input.read_bytes()).decode("utf-8", "replace") for p in pages[::4]]


def random_page(rng: random.Random, depth: int = 0, tags: list[str] = TAGS) -> str:
    out = []
    for _ in range(rng.randrange(1, 5)):
        r = rng.random()
        if r < 0.45 and depth < 6:
            t = rng.choice(tags)
            out.append(f"<{t}>{random_page(rng, depth + 1, tags)}</{t.split()[0]}>")
        elif r < 0.6:
            out.append(f"<!--{rng.choice(TEXTS)}-->")
        else:
            out.append(rng.choice(TEXTS))
    return "".join(out)


def python_page(html: str) -> dict:
    return asdict(blocks.split_python(blocks.body_markup(HTMLTree.parse(html))))


def test_scanner_finds_the_python_splitters_blocks_on_gold_cut_and_random_pages(gold_html):
    rng = random.Random(3)
    cut = [h[: rng.randrange(len(h) + 1)] for h in gold_html[:150]]
    made = [f"<html><body>{random_page(rng)}</body></html>" for _ in range(3000)]
    pages = gold_html + cut + made + [f"<html><body>{s}</body></html>" for s in SCRIPTS]
    differ = [h for h in pages if asdict(blocks.split_body(HTMLTree.parse(h))) != python_page(h)]
    assert not differ, f"{len(differ)} of {len(pages)} pages differ, first: {differ[0][:300]!r}"
    texts = blocks.split_body(HTMLTree.parse("<body>" + SCRIPTS[0] + SCRIPTS[3] + "</body>")).texts
    assert texts == ["ab", "t"]  # the escaped "</script>" stays inside the first script


def test_features_and_scores_equal_the_pure_python_ones(gold_html, monkeypatch):
    m = load_model()
    vocab = TokenVocab(m.vocab)
    trees = [HTMLTree.parse(h) for h in gold_html[:200]]
    titles = [t.title or "" for t in trees]
    heads = [page_head(t) for t in trees]  # (anchor columns: the same numpy on both paths, on the same blocks)
    fast = [page_features(blocks.split_body(t), title, vocab, head) for t, title, head in zip(trees, titles, heads)]
    monkeypatch.setattr(compiled, "ON", False)
    slow = [page_features(blocks.split_body(HTMLTree.parse(h)), title, vocab, head)
            for h, title, head in zip(gold_html[:200], titles, heads)]
    assert sum(len(x) for x in fast) > 10_000
    for a, b in zip(fast, slow):
        assert np.array_equal(a, b)
    monkeypatch.undo()
    rows = [x[:, :len(m.features)] for x in fast if len(x)]  # (a model from before the heading columns: not its)
    margins = [m.margin(x) for x in rows]
    monkeypatch.setattr(compiled, "ON", False)
    assert all(np.array_equal(a, m.margin(x)) for a, x in zip(margins, rows))


def test_the_tree_walk_over_float32_nodes_goes_numpys_way_at_every_thresholds_edge(monkeypatch):
    # thresholds are float64 and features float32: a node holds the largest float32 not above its threshold, so
    # a float32 just below, at or just above it goes the same way as against the float64 one
    m = load_model()
    assert m.nodes is not None
    internal = np.isfinite(m.limit)
    rng = np.random.default_rng(5)
    X = rng.standard_normal((3000, len(m.features))).astype(np.float32)
    for f in np.unique(m.feature[internal]):
        t = m.limit[internal & (m.feature == f)].astype(np.float32)
        X[:, f] = rng.choice(np.concatenate([np.nextafter(t, np.float32(-np.inf)), t,
                                             np.nextafter(t, np.float32(np.inf))]), len(X))
    names = feature_names(TokenVocab([]))
    odd = [0.1, -0.1, 1e-40, -1e-40, 1e300, -1e300, 5e38, 0.0, -0.0, 0.5]  # not float32s, subnormal, past float32
    stumps = [BlockModel(stump(names, "link_density", t, -1.0, 1.0)) for t in odd]
    x = np.zeros((40, len(names)), dtype=np.float32)
    fast = [m.margin(X)]
    for model, t in zip(stumps, odd):
        assert (model.nodes is None) == (abs(t) == 1e-40)  # (a subnormal float32 threshold: the old walk)
        with np.errstate(over="ignore"):
            near = np.float32(t)  # (float32: rounded; past it, inf)
        x[:, names.index("link_density")] = rng.choice([np.nextafter(near, np.float32(-np.inf)), near,
                                                        np.nextafter(near, np.float32(np.inf)), near / 2,
                                                        np.float32(np.inf), np.float32(-np.inf)], len(x))
        fast.append((model.margin(x), x.copy()))
    monkeypatch.setattr(compiled, "ON", False)
    assert np.array_equal(fast[0], m.margin(X))
    for model, (margin, xs) in zip(stumps, fast[1:]):
        assert np.array_equal(margin, model.margin(xs)), model.limit
    assert len({tuple(margin) for margin, _ in fast[1:]}) > 3  # the stumps split their rows both ways


ENTITIES = ["&amp;", "&lt;", "&gt;", "&quot;", "&nbsp;", "&amp;amp;", "&ampx", "&amp", "&lt", "&copy;", "&#38;",
            "&#x26;", "&", "&&", "&;", "amp;", " ", "\u00a0", "x", "é", "<b>", "</b>", '<i title="&quot;&">', "<u",
            ">", "&nbsp", "&NBSP;", "\u2003", '<span title="a<p>b">', '<img alt="<x">', "<b\n>", '<i class="<">',
            "<em><", "</p>", "<br>"]


def test_the_scanners_text_equals_fragment_text_with_any_entities():
    """Lexbor writes only five entities in text (decoded in C); any other "&" goes to html.unescape; an inline
    tag is cut whole unless a "<" inside it starts something: the scanner on markup made of entities, inline
    tags with odd attributes and spaces gives split_python's blocks (no comment or noise element: skipping
    them or not is the same)."""
    rng = random.Random(13)
    for _ in range(3000):
        markup = "".join(f"<{rng.choice(['p', 'div', 'a href=x'])}>"
                         + "".join(rng.choices(ENTITIES, k=rng.randint(1, 8))) for _ in range(rng.randint(1, 4)))
        expected = blocks.split_python(markup)
        for skip in (False, True):
            fields = compiled._scan.scan(markup, 400, skip)
            assert fields is not None and blocks.Page(*fields) == expected, markup


def test_text_counts_fall_back_to_python_for_texts_that_are_not_single_spaced():
    texts = ["Two  spaces", "a\tb", "The End."]
    assert compiled._text.text_stats(texts, set()) is None
    counts = text.text_counts(texts, {"end."})
    assert counts[:, 1].tolist() == [2, 2, 2]
    assert counts[2, 5:].tolist() == [1, 2, 1]  # stop words: the; capitalised: The, End.; title words: end.


def test_text_counts_of_words_past_ascii_and_of_title_words_equal_pythons():
    # the compiled counts read a word with a character past ASCII as no stop word and look it up in the title's
    # words by its own str.lower(); ASCII words are compared with the title's ASCII words in C
    assert [hex(c) for c in range(128, 0x110000) if chr(c).lower().isascii()] == ["0x212a"]  # (Kelvin sign: "k")
    assert not any("k" in w for w in text.STOP_WORDS)
    rng = random.Random(8)
    words = ["the", "The", "THE", "ΣΟΦΙΑΣ", "σοφίας", "İstanbul", "\u212aNOW", "ſo", "and", "AND", "café", "Über",
             "straße", "x.", "a,", "(the)", "’s", "i", "İ", "ǅ", "ﬁle", "Ⅻ", "\u0130the", "Title", "x" * 70, "X" * 70]
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 50))) for _ in range(3000)]
    titles = ["Title words - the Site", "ΣΟΦΙΑΣ σοφία İstanbul \u212aey the", "Café Über straße ﬁle", "x" * 70,
              " ".join(f"w{i}" for i in range(80)) + " the"]  # (past 64 ASCII words: every word by the set)
    for title in titles:
        words_of_title = set(text.WORDS.findall(title.lower())) | set(title.lower().split())
        got = compiled._text.text_stats(texts, words_of_title)
        assert got is not None and np.array_equal(got, text.text_counts(texts, words_of_title)), title
        assert got[:, 7].sum() > 100  # title words found


def test_every_stop_word_and_its_near_misses_are_counted_as_python_counts_them():
    stops = sorted(text.STOP_WORDS)
    near = [v for w in stops for v in (w, w.upper(), w.title(), w + "s", w[:-1], "x" + w, w + ".") if v]
    texts = [" ".join(near[i:i + 7]) for i in range(0, len(near), 7)] + near
    got = compiled._text.text_stats(texts, set())
    assert got is not None and np.array_equal(got, text.text_counts(texts, set()))
    # one word a text: each stop word in three cases (with a full stop it is none), and the near misses that are
    # stop words too ("a" of "an", "its" of "it")
    expected = 3 * len(stops) + sum(w[:-1] in text.STOP_WORDS for w in stops) + sum(w + "s" in text.STOP_WORDS
                                                                                 for w in stops)
    assert got[-len(near):, 5].sum() == expected


def test_repeated_texts_counted_in_c_equal_pythons_in_any_case():
    # lower-cased as str.lower does it: "İ" and "ΣΑΣ" lower to more than one letter or to a final sigma
    rng = random.Random(9)
    words = ["Add", "add", "ADD", "to cart", "İ", "i̇", "ΣΑΣ", "σας", "σασ", "Straße", "STRASSE", "", "x" * 40]
    pages = [[" ".join(rng.choices(words, k=rng.randint(1, 3))) for _ in range(rng.randint(0, 60))]
             for _ in range(500)]
    for texts in pages:
        expected = repeats.text_repeats(texts)
        counts, seen = compiled._text.text_repeats(texts)
        assert np.array_equal(np.log1p(counts), expected[:, 0]) and np.array_equal(seen, expected[:, 1]), texts
    assert any(expected[:, 1].any() for expected in map(repeats.text_repeats, pages))


def test_hint_rule_read_off_the_markup_drops_what_the_tree_filter_drops(gold_html):
    rng = random.Random(5)
    made = [f"<html><body>{random_page(rng, tags=TAGS + HINTED)}<img class=social><br class=nav></body></html>"
            for _ in range(2000)]
    dropped = 0
    for h in gold_html + made:
        on_tree, deferred = HintFilter(), HintFilter()
        on_tree.stats, deferred.stats, deferred.deferred = Stats(), Stats(), True
        tree = HTMLTree.parse(h)
        on_tree.count(*on_tree.drop_from(tree.body))
        expected = asdict(blocks.split_body(tree))
        assert asdict(blocks.split_body(HTMLTree.parse(h), hints=deferred)) == expected, h[:300]
        assert deferred.stats.counts == on_tree.stats.counts, h[:300]
        dropped += on_tree.stats.counts.get("hints.elements_dropped", 0)
    assert dropped > 2000


def test_the_hint_verdict_in_c_is_the_tree_filters_on_case_entities_and_non_ascii_values():
    # _c_verdict answers ASCII values itself; "&", and a candidate's non-ASCII value (re.I folds U+017F to "s",
    # so "ſhadow" is a "maybe" word), go the exact way: both must drop what the tree filter drops
    values = ["menu", "MENU", "Main-Menu", "sidebar post", "ſidebar", "sidebar ſhadow", "comment-body", "comments",
              "nav&amp;x", "men&#117;", "\u0130nav", "footer \u212aey", "header column", "x", "", "promo-ARTICLE",
              "Relatedſtory", "disqus_thread", "-AD-", "BANNER entry", "café header", "header café", "ENTRY menu"]
    rng = random.Random(11)
    for _ in range(600):
        parts = []
        for _ in range(rng.randint(1, 6)):
            attrs = "".join(rng.choice([' class="%s"', ' id="%s"', ' data-x="%s"', ' CLASS="%s"']) % rng.choice(values)
                            for _ in range(rng.randint(0, 3)))
            parts.append(f"<div{attrs}><p>text {rng.choice(values)}</p></div><p>more text here</p>")
        h = f"<html><body>{''.join(parts)}</body></html>"
        on_tree, deferred = HintFilter(), HintFilter()
        on_tree.stats, deferred.stats, deferred.deferred = Stats(), Stats(), True
        tree = HTMLTree.parse(h)
        on_tree.count(*on_tree.drop_from(tree.body))
        assert asdict(blocks.split_body(HTMLTree.parse(h), hints=deferred)) == asdict(blocks.split_body(tree)), h
        assert deferred.stats.counts == on_tree.stats.counts, h


def test_a_learned_pipeline_with_drop_hinted_writes_what_the_tree_path_writes(gold_html, monkeypatch):
    opts = CleanOptions(cleaner="learned", drop_hinted=True, max_link_density=0.5)
    docs = lambda: [Document(id=str(i), content_type="text/html", raw=h.encode()) for i, h in enumerate(gold_html)]
    fast = Pipeline(opts)
    assert next(s for s in fast.steps if s.name == "hints").deferred
    out, stats = fast.process(docs())
    monkeypatch.setattr(compiled, "ON", False)
    slow = Pipeline(opts)
    assert not next(s for s in slow.steps if s.name == "hints").deferred
    out_slow, stats_slow = slow.process(docs())
    assert out == out_slow and len(out) > 600
    for key in ("hints.elements_dropped", "hints.kept_large", "learned.blocks_kept", "links.lines_dropped"):
        assert stats.counts[key] == stats_slow.counts[key] > 0


@pytest.mark.parametrize("page", [
    # no block is left: tag removal writes the tree, which must be pruned as on the tree path, once (a "header"
    # kept for its size the first time must not be measured again against the smaller page)
    '<body><div class="header"><script>aaaaaaaaaa</script><div class="nav"><script>' + "b" * 45 +
    '</script></div><img alt="Logo"></div><script>' + "c" * 45 + "</script></body>",
    '<body><template></template>' + '<div class="header"><script>aaaaaaaaaa</script><div class="nav"><script>' +
    "b" * 45 + '</script></div><img alt="Logo"></div><script>' + "c" * 45 + "</script></body>",
])
def test_a_page_without_blocks_leaves_the_same_tree_and_counts_on_both_paths(page, monkeypatch):
    from preprocess.cleaners.learned.cleaner import LearnedCleaner

    results = []
    for on in (True, False):
        monkeypatch.setattr(compiled, "ON", on)
        hints = HintFilter()
        hints.deferred, hints.stats = True, Stats()
        cleaner = LearnedCleaner(load_model(), hints=hints)
        cleaner.stats = hints.stats
        doc = Document(id="p", content_type="text/html")
        doc.tree = HTMLTree.parse(page)
        cleaner.process(hints.process(doc))
        results.append((doc.tree.body.html, dict(hints.stats.counts)))
    assert results[0] == results[1]
    assert results[0][1]["learned.no_blocks"] == 1 and results[0][1]["hints.kept_large"] == 1


EDGE_BLOCKS = ["<p>plain text here</p>", "<p><a href=x>linked</a> and not</p>", "<p><a href=x>all linked </a></p>",
               "<p>zero\u200bwidth</p>", "<p>soft\u00adhyphen</p>", "<p>a &lt;a href&gt; b &amp;lt;</p>",
               "<p>ctrl\x07char</p>", "<p><a href=x> lead</a>  x </p>", "<li>menu</li>", "<td>é ü</td>"]


@pytest.mark.parametrize("kw", [dict(drop_hinted=True, max_link_density=0.5), {}])
def test_kept_blocks_handed_to_tag_removal_are_the_lines_the_tree_path_writes(gold_html, kw, monkeypatch):
    """The hand-off (the learned cleaner's kept blocks as tag removal's lines) against writing them into <body> and
    extracting them: same title, lines and link densities on the gold pages, on raw CleanEval pages (their wrapper
    puts <title> in <body>: the title is tag removal's alone either way) and on blocks with odd characters."""
    from preprocess.cleaners.learned import cleaner
    from preprocess.run.pipeline import build_steps, run_steps

    made = []

    def counting(*args, **kwargs):
        made.append(kept_lines(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(cleaner, "kept_lines", counting)
    raw = sorted(shared("cleaning", "cleaneval-dev", "input").glob("*.html"))[:40]
    pages = [h.encode() for h in gold_html[::2]] + [p.read_bytes() for p in raw]
    rng = random.Random(5)
    pages += [("<html><head><title>t</title></head><body>" + "".join(rng.choices(EDGE_BLOCKS, k=12)) +
               "</body></html>").encode() for _ in range(40)]
    opts = CleanOptions(cleaner="learned", **kw)
    results, handed = [], []
    for hand_off in (True, False):
        steps = build_steps(opts, stop_before="links" if kw else None)
        learned = next(s for s in steps if s.name == "learned")
        assert learned.hand_off and learned.line_features == bool(kw)
        learned.hand_off = hand_off
        stats = Stats()
        for s in steps:
            s.stats = stats
        docs = [Document(id=str(i), content_type="text/html", raw=p) for i, p in enumerate(pages)]
        handed.append(stats)
        results.append([(d.id, d.title, [(ln.text, ln.link_density) for ln in d.lines]) for d in run_steps(steps, docs)])
    assert results[0] == results[1] and len(results[0]) > 300
    assert sum(x is not None for x in made) > 250 and made.count(None) >= 5  # handed off; odd characters: the tree
    tags = run_steps(build_steps(CleanOptions(cleaner="tags")),
                     [Document(id=str(i), content_type="text/html", raw=p) for i, p in enumerate(pages)])
    titles = {i: t for i, t, _ in results[0]}
    assert titles == {d.id: d.title for d in tags if d.id in titles}  # <title> in <body> too (raw CleanEval)
    assert sum(map(bool, titles.values())) > 250
    if kw:
        assert any(0 < ld < 1 for _, _, lines in results[0] for _, ld in lines)


def test_class_flags_equal_the_readability_regexes_on_real_and_random_values(gold_html):
    from preprocess.cleaners.learned import names

    def by_regex(v: str) -> int:
        return (bool(names._NEGATIVE.search(v)) | bool(names._POSITIVE.search(v)) << 1
                | bool(names._COMMENT.search(v)) << 2)

    values = sorted({v for h in gold_html[:150] for v in blocks.split_python(h).el_names})
    rng = random.Random(11)
    parts = ["hid", " ", "-", "Comment", "SIDEBAR", "post", "x", "ad", "-ad-", "main", "Hidden", "tags", "é", "_"]
    values += ["".join(rng.choices(parts, k=rng.randint(1, 5))) for _ in range(3000)] + ["", "hid", " hid", "hid "]
    flags = [names._flags(v) for v in values]
    assert flags == [by_regex(v) for v in values]
    assert len(values) > 3500 and {0, 1, 2, 4} <= set(flags)
