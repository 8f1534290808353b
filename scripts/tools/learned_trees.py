"""The block model's JSON from scikit-learn's fitted trees (``export``), and several models made one (``bag``).
``preprocess/cleaners/learned/model.py`` reads what these write."""
from __future__ import annotations

import numpy as np

# Decision threshold, fixed a priori: the F-beta-optimal threshold of a calibrated classifier is F*/(1 + beta^2)
# (Lipton et al. 2014). For retrieval a dropped content line costs more than a kept menu line, so recall weighs
# twice precision (beta^2 = 2): with block F1 near 0.9 that is 0.3 (0.45 for plain F1, the models before issue 22).
THRESHOLD = 0.3


def export(clf, names: list[str], vocab: list[str], info: dict, threshold: float = THRESHOLD) -> dict:
    """The fitted trees as padded arrays; a leaf loops to itself (threshold +inf, JSON: 1e300)."""
    preds = [p[0] for p in clf._predictors]
    width = max(len(p.nodes) for p in preds)
    arrays = {k: [] for k in ("feature", "threshold", "left", "right", "value")}
    for p in preds:
        rows = {k: [] for k in arrays}
        for i, node in enumerate(p.nodes):
            leaf = bool(node["is_leaf"])
            rows["feature"].append(0 if leaf else int(node["feature_idx"]))
            rows["threshold"].append(1e300 if leaf else float(node["num_threshold"]))
            rows["left"].append(i if leaf else int(node["left"]))
            rows["right"].append(i if leaf else int(node["right"]))
            rows["value"].append(round(float(node["value"]), 6) if leaf else 0.0)
        for k, row in _padded(rows, width).items():
            arrays[k].append(row)
    depth = max(p.get_max_depth() for p in preds)
    return {"features": names, "vocab": vocab, "threshold": threshold, "base": float(np.ravel(clf._baseline_prediction)[0]),
            "depth": int(depth), "trees": arrays, "info": info}


def bag(models: list[dict]) -> dict:
    """One model whose margin is the mean of ``models``' margins (trained on the same pages, other samples):
    their trees side by side, leaves and base divided by their number."""
    first, k = models[0], len(models)
    if any(m["features"] != first["features"] or m["vocab"] != first["vocab"] for m in models):
        raise ValueError("bagged models must share features and vocabulary (same training pages)")
    if any(m["threshold"] != first["threshold"] for m in models):
        raise ValueError("bagged models must share their decision threshold")
    width = max(len(m["trees"]["feature"][0]) for m in models)
    trees = {key: [] for key in first["trees"]}
    for m in models:
        for t in range(len(m["trees"]["feature"])):
            rows = {key: list(m["trees"][key][t]) for key in trees}
            rows["value"] = [round(v / k, 9) for v in rows["value"]]
            for key, row in _padded(rows, width).items():
                trees[key].append(row)
    info = {key: v for key, v in first["info"].items() if key != "seed"}
    info = dict(info, bagged=[m["info"].get("seed", 0) for m in models],
                fit_s=round(sum(m["info"]["fit_s"] for m in models), 1))
    return dict(first, base=sum(m["base"] for m in models) / k, depth=max(m["depth"] for m in models),
                trees=trees, info=info)


def _padded(rows: dict[str, list], width: int) -> dict[str, list]:
    """One tree's node rows padded to ``width`` nodes: leaves that loop to themselves, worth 0."""
    for i in range(len(rows["feature"]), width):
        for k, v in (("feature", 0), ("threshold", 1e300), ("left", i), ("right", i), ("value", 0.0)):
            rows[k].append(v)
    return rows
