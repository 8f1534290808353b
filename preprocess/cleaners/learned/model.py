"""The block model: gradient-boosted trees read from JSON and evaluated in numpy.

``scripts/tools/train_learned.py`` trains scikit-learn's ``HistGradientBoostingClassifier``
and writes its trees here (``scripts/tools/learned_trees.py``: ``export``, and ``bag`` for several models made one)
as padded arrays (one row per tree): ``feature``,
``threshold``, ``left``, ``right`` and ``value`` per node. A leaf points to itself
with an infinite threshold, so every block walks ``depth`` levels of every tree
at once: a handful of numpy gathers per level for the whole page, no Python per
block or per tree; the compiled twin (``_trees``, see ``compiled.py``) walks them in one C loop, eight trees at
a time over 8-byte nodes.
scikit-learn is never imported here.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from preprocess.cleaners.learned import compiled

DEFAULT_MODEL = Path(__file__).with_name("model.json")


class BlockModel:
    def __init__(self, data: dict):
        self.features: list[str] = data["features"]
        self.vocab: list[str] = data["vocab"]
        self.threshold = float(data.get("threshold", 0.5))
        self.base = float(data["base"])
        self.depth = int(data["depth"])
        self.info = data.get("info", {})
        trees = data["trees"]
        feature, limit, left, value = _siblings_adjacent(*(np.asarray(trees[k]) for k in
                                                           ("feature", "threshold", "left", "right", "value")))
        if feature.size and not 0 <= feature.min() <= feature.max() < len(self.features):
            raise ValueError("block model's trees split on features it does not list: retrain it")
        self.n_trees, self.width = feature.shape
        self.offset = (np.arange(self.n_trees, dtype=np.int64) * self.width)[None, :]
        self.feature = feature.ravel()
        self.limit = limit.ravel()
        self.left = (left + self.offset.T).ravel()  # flat node ids; the right child is left + 1
        self.value = value.ravel()
        # the compiled walk's 8-byte nodes (None: the trees do not fit them, or nothing compiled)
        self.nodes = compiled._trees.nodes(self.feature, self.limit, self.left, self.width) if compiled.BUILT else None

    def margin(self, X: np.ndarray) -> np.ndarray:
        """Log-odds of "content" per row of ``X`` (blocks x features)."""
        n, f = X.shape
        if f != len(self.features):
            raise ValueError(f"model wants {len(self.features)} features, got {f}")
        if not n:
            return np.zeros(0)
        if compiled.ON and X.dtype == np.float32:
            X = np.ascontiguousarray(X)
            if self.nodes is not None:
                leaves = compiled._trees.leaves(X, self.nodes, self.value, self.n_trees, self.width, self.depth)
            else:
                leaves = compiled._trees.leaf_values(X, self.feature, self.limit, self.left, self.value, self.n_trees,
                                                     self.width, self.depth)
            return self.base + leaves.sum(axis=1)
        flat = np.ascontiguousarray(X).ravel()  # float32 compares exactly against float64 thresholds
        row = (np.arange(n, dtype=np.int64) * f)[:, None]
        node = np.broadcast_to(self.offset, (n, self.n_trees))
        for _ in range(self.depth):
            x = flat[row + self.feature[node]]
            node = self.left[node] + (x > self.limit[node])
        return self.base + self.value[node].sum(axis=1)

    def proba(self, X: np.ndarray) -> np.ndarray:
        """Probability of "content" per row of ``X``."""
        return 1.0 / (1.0 + np.exp(-self.margin(X)))

    def keep(self, X: np.ndarray) -> np.ndarray:
        """Boolean per block: probability of content at or above the model's threshold."""
        return self.proba(X) >= self.threshold


def _siblings_adjacent(feature, limit, left, right, value):
    """The trees renumbered breadth-first, so every right child sits just after its left sibling (one gather
    per level fewer); a leaf (``left == itself``) becomes a self-loop with an infinite threshold."""
    n_trees, width = feature.shape
    out_feature = np.zeros((n_trees, width), dtype=np.int64)
    out_limit = np.full((n_trees, width), np.inf)
    out_left = np.tile(np.arange(width, dtype=np.int64), (n_trees, 1))
    out_value = np.zeros((n_trees, width))
    for t in range(n_trees):
        order = [0]  # old node ids in their new order; grows while it is read
        for i, old in enumerate(order):
            if left[t, old] == old:
                out_value[t, i] = value[t, old]
                continue
            out_feature[t, i], out_limit[t, i], out_left[t, i] = feature[t, old], limit[t, old], len(order)
            order += [left[t, old], right[t, old]]
    return out_feature, out_limit, out_left, out_value


def load_model(path: str | None = None) -> BlockModel:
    """The model at ``path`` (default: the one shipped with the package), read once per process and file
    version (a model retrained at the same path is read again)."""
    if path and "://" in path:
        raise ValueError(f"block model {path}: give a local file (every node reads it), not a URI")
    p = Path(path).resolve() if path else DEFAULT_MODEL.resolve()
    st = p.stat() if p.is_file() else None
    return _load(str(p), st.st_size if st else -1, st.st_mtime_ns if st else -1)


@lru_cache(maxsize=8)
def _load(path: str, _size: int, _mtime_ns: int) -> BlockModel:
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"no block model at {p}: train one with scripts/tools/train_learned.py")
    try:
        return BlockModel(json.loads(p.read_text(encoding="utf-8")))
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, IndexError) as e:
        raise ValueError(f"{p} is not a block model ({type(e).__name__}: {e}): write one with "
                         "scripts/tools/train_learned.py") from None
