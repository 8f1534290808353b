"""The pruner's compiled loops (_decide.pyx) give what their Python twins give: the kept sentences by line,
the counts and the histogram (its order too: stats.json's keys follow it), and each score's quarter-bit bin, on
random scores and bins' edges (the pipeline on real pages: tests/test_contrastive.py)."""
import math
import random

import pytest

from preprocess.filters.prune.common import decide_python
from preprocess.filters.prune.contrastive import quarter_bins_python

compiled = pytest.importorskip("preprocess.filters.prune._decide")


def random_scores(rng, n):
    pool = [None, 0.0, -0.0, 3.0, 2.99999, -20.0, -20.25, 20.0, 20.25, 1e300, -1e300, 5e-324]
    return [rng.choice(pool) if rng.random() < 0.3 else rng.uniform(-30, 30) for _ in range(n)]


def test_quarter_bins_equal_to_the_python_list():
    rng = random.Random(5)
    for _ in range(2000):
        scores = random_scores(rng, rng.randrange(0, 40))
        assert compiled.quarter_bins(scores, math.floor) == quarter_bins_python(scores)
    for bad in (float("inf"), float("nan")):  # the twin's own error
        with pytest.raises(type(pytest.raises(Exception, math.floor, bad).value)):
            compiled.quarter_bins([bad], math.floor)
    assert compiled.quarter_bins([3], math.floor) == quarter_bins_python([3])  # (an int: the Python expression)


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
