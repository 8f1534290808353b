"""Corrections for testing several variants against one baseline: Holm, Bonferroni or none.

The family is every variant compared with the baseline on one metric with one test: with five
pruned variants and MAP, five Wilcoxon p-values are adjusted together. Adjusted p-values are
capped at 1, and Holm's are made monotone (step-down), so a variant is significant when its
adjusted p is below alpha, whatever the method.
"""
from __future__ import annotations

METHODS = ("holm", "bonferroni", "none")
LABELS = {"holm": "Holm–Bonferroni step-down", "bonferroni": "Bonferroni", "none": "no correction"}


def check_method(method: str) -> str:
    if method not in METHODS:
        import difflib

        near = difflib.get_close_matches(str(method).lower(), METHODS, n=1, cutoff=0.4)
        raise ValueError(f"unknown correction {method!r}{f' (did you mean {near[0]!r}?)' if near else ''}; "
                         f"choose one of {', '.join(METHODS)}")
    return method


def adjust(pvalues: dict[str, float], method: str = "holm") -> dict[str, float]:
    """{name: adjusted p} for a family {name: p}."""
    check_method(method)
    m = len(pvalues)
    if method == "none" or m == 0:
        return dict(pvalues)
    if method == "bonferroni":
        return {k: min(1.0, p * m) for k, p in pvalues.items()}
    out, running = {}, 0.0
    for i, (k, p) in enumerate(sorted(pvalues.items(), key=lambda kv: kv[1])):
        running = max(running, min(1.0, (m - i) * p))  # step-down: never below an earlier adjusted p
        out[k] = running
    return {k: out[k] for k in pvalues}


def apply(result: dict, method: str = "none", ttest: bool = False) -> dict:
    """Adjust the p-values of an :func:`eval.evaluate.evaluate` result in place, per metric and test.

    Adds ``p_adjusted`` (Wilcoxon) and, with ``ttest``, ``p_ttest`` and ``p_ttest_adjusted`` and
    ``mark_ttest``; ``mark`` (↑/↓) is then taken from the adjusted Wilcoxon p-value.
    """
    from eval.significance import mark, ttest_p

    base = result.get("baseline")
    result["correction"] = check_method(method)
    result["ttest"] = ttest
    if base is None:
        return result
    alpha = result["alpha"]
    others = [n for n in result["runs"] if n != base]
    for metric in result["runs"][base]:  # ir_measures' names (AP for MAP)
        entries = {n: result["runs"][n][metric] for n in others}
        if ttest:
            for e in entries.values():
                e["p_ttest"] = ttest_p(e["per_topic"], result["runs"][base][metric]["per_topic"])
        for key, adj, mk in (("p_value", "p_adjusted", "mark"), ("p_ttest", "p_ttest_adjusted", "mark_ttest")):
            if key == "p_ttest" and not ttest:
                continue
            adjusted = adjust({n: e[key] for n, e in entries.items()}, method)
            for n, e in entries.items():
                e[adj] = adjusted[n]
                e[mk] = mark(adjusted[n], e["delta"], alpha)
    return result
