"""Paired Wilcoxon signed-rank test (and paired t-test) against a baseline, per metric."""
from __future__ import annotations

import warnings

from scipy.stats import wilcoxon


def _paired(run: dict[str, float], baseline: dict[str, float]) -> tuple[list[float], list[float]] | None:
    """The two runs' scores over their shared topics, or None when they never differ (p = 1.0)."""
    topics = sorted(set(run) & set(baseline))
    if not any(abs(run[q] - baseline[q]) > 1e-12 for q in topics):
        return None
    return [run[q] for q in topics], [baseline[q] for q in topics]


def wilcoxon_p(run: dict[str, float], baseline: dict[str, float]) -> float:
    """Two-sided p-value over the shared topics; 1.0 when the runs never differ."""
    pair = _paired(run, baseline)
    if pair is None:
        return 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(wilcoxon(*pair).pvalue)


def mark(p: float, delta: float, alpha: float = 0.05) -> str:
    if p < alpha:
        return "↑" if delta > 0 else "↓"
    return ""


def ttest_p(run: dict[str, float], baseline: dict[str, float]) -> float:
    """Two-sided paired t-test p-value over the shared topics; 1.0 when the runs never differ."""
    from scipy.stats import ttest_rel

    pair = _paired(run, baseline)
    if pair is None:
        return 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = float(ttest_rel(*pair).pvalue)
    if p != p:  # every topic differs by the same amount: no variance, scipy gives nan
        return 0.0
    return p
