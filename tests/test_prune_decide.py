"""The pruner's compiled loops (_decide.pyx) give what their Python twins give: the kept sentences by line,
the counts and the histogram (its order too: stats.json's keys follow it), and each score's quarter-bit bin, on
random scores and bins' edges (the pipeline on real pages: tests/test_contrastive.py)."""
import math
import random

import pytest

from preprocess.filters.prune.common import decide_python
from preprocess.filters.prune.contrastive import quarter_bins_python

compiled = pytest.importorskip("preprocess.core._decide")


def random_scores(rng, n):
    pool = [None, 0.0, -0.0, 3.0, 2.99999, -20.0, -20.25, 20.0, 20.25, 1e300, -1e300, 5e-324]
    return [rng.choice(pool) if rng.random() < 0.3 else rng.uniform(-30, 30) for _ in range(n)]


def test_quarter_bins_equal_to_the_python_list():
    rng = random.Random(5)
    for _ in range(2000):
        scores = random_scores(rng, rng.randrange(0, 40))
        assert compiled.quarter_bins(scores) == quarter_bins_python(scores)
    for bad in (float("inf"), float("nan")):  # the twin's own error
        with pytest.raises(type(pytest.raises(Exception, math.floor, bad).value)):
            compiled.quarter_bins([bad])
    assert compiled.quarter_bins([3]) == quarter_bins_python([3])  # (an int: the Python expression)
    got = compiled.quarter_bins((s for s in [1.3, None, -90.0]))  # (any iterable)
    assert got == quarter_bins_python([1.3, None, -90.0]) and all(type(x[0]) is int for x in got if x)


def test_decide_equal_to_the_python_loop():
    rng = random.Random(9)
    for _ in range(3000):
        n = rng.randrange(0, 50)
        nos = sorted(rng.randrange(0, 20) for _ in range(n))
        sents = [f"s{i}" for i in range(n)]
        scored = quarter_bins_python(random_scores(rng, n))
        threshold = rng.choice([3.0, -1.5, float("inf"), 0.0, 25.0])
        h1, h2 = {}, {}
        got = compiled.decide(nos, sents, scored, threshold, h1)
        assert got == decide_python(nos, sents, scored, threshold, h2)
        assert list(got[0]) == list(decide_python(nos, sents, scored, threshold, {})[0])
        assert list(h1.items()) == list(h2.items())
        assert [type(b) for b in h1] == [type(b) for b in h2]  # (an int bin stays an int: the counters' names)


def test_decide_as_the_python_loop_on_odd_arguments():
    """zip's shortest length, entries that are lists or longer tuples, a short entry's error, iterables."""
    nos, sents = [0, 1, 1, 3], ["a", "b", "c", "d"]
    cases = [(nos[:2], sents[:2], [(1, 0.0), (2, 5.0), (3, 0.0)]),
             (nos, sents[:3], [(1, 0.0)] * 4),
             (nos, sents, [[1, 0.0], (2, 0.5, "x"), None, (-3, -1.0)]),
             (tuple(nos), iter(sents), ((b, float(b)) for b in range(4)))]
    for args in cases:
        h1, h2 = {}, {}
        args2 = [list(a) for a in args]
        assert compiled.decide(*[list(a) if not isinstance(a, (list, tuple)) else a for a in args2], 1.0, h1) == \
            decide_python(*args2, 1.0, h2)
        assert list(h1.items()) == list(h2.items())
    h = {}
    assert compiled.decide((0, 1), iter(["a", "b"]), ((1, 0.0), (2, 9.0)), 1.0, h) == ({0: ["a"]}, 1, 0)
    for short in ([(1,)], [()]):
        with pytest.raises(IndexError):
            decide_python([0], ["a"], short, 1.0, {})
        with pytest.raises(IndexError):
            compiled.decide([0], ["a"], short, 1.0, {})
