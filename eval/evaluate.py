"""Evaluate runs against qrels and a baseline (their tables: :mod:`eval.report.tables`); write JSON."""
from __future__ import annotations

import json
import logging
from pathlib import Path

from eval.metrics import DEFAULT_METRICS, judged_topics, mean, per_topic
from eval.significance import mark, wilcoxon_p
from eval.trec_files import read_qrels, read_run

log = logging.getLogger("webprune.eval")


def check_alpha(alpha: float) -> float:
    """A significance level in (0, 1), or ValueError saying so."""
    if not 0 < alpha < 1:  # nan fails too
        raise ValueError(f"alpha {alpha} is not a significance level: give a value in (0, 1), e.g. 0.05")
    return alpha


MAX_TOPIC_LINES = 10  # missing topics named one a line, then counted


def check_topics(qrels: dict, run: dict, qrels_path, run_path) -> None:
    """A run none of whose topics the qrels judge is refused (it would score 0 everywhere); a judged topic the
    run lacks (it scores 0) and a run topic without judgements (not scored) are each named in a warning."""
    judged = judged_topics(qrels)
    if not judged:
        raise ValueError(f"{qrels_path}: no topic has a relevant document; nothing can be scored")
    common = set(judged) & set(run)
    if not common:
        near = {q.lstrip("0") or "0" for q in run} & {q.lstrip("0") or "0" for q in judged}
        hint = " (they differ in leading zeros: write the topic ids the same way in both)" if near else ""
        raise ValueError(f"no topic of the run {run_path} is judged in {qrels_path}: the run has "
                         f"{_some(run)}, the qrels {_some(judged)}{hint}; every metric would be 0")
    for what, missing in (("is judged but not in the run (it scores 0)", [q for q in judged if q not in run]),
                          ("is in the run but not judged (not scored)", sorted(set(run) - set(qrels), key=str))):
        for q in missing[:MAX_TOPIC_LINES]:
            log.warning("%s: topic %s %s", run_path, q, what)
        if len(missing) > MAX_TOPIC_LINES:
            log.warning("%s: %d more topics %s", run_path, len(missing) - MAX_TOPIC_LINES, what.replace("is ", "are ", 1))


def _some(topics) -> str:
    topics = sorted(topics, key=str)
    return "topics " + ", ".join(repr(t) for t in topics[:3]) + (f" ... ({len(topics)} in all)" if len(topics) > 3 else "")


def evaluate(qrels_path, runs: dict[str, str | Path], baseline: str | None = None, metrics=DEFAULT_METRICS,
             alpha: float = 0.05) -> dict:
    """runs: {name: run file}. Returns {"metrics", "baseline", "alpha", "runs": {name: {metric: {...}}}}."""
    check_alpha(alpha)
    qrels = read_qrels(qrels_path)
    topic_scores = {}
    for name, path in runs.items():
        run = read_run(path)
        check_topics(qrels, run, qrels_path, path)
        topic_scores[name] = per_topic(qrels, run, metrics)
    if baseline is not None and baseline not in topic_scores:
        raise ValueError(f"baseline {baseline!r} is not one of the runs: {', '.join(topic_scores)}")
    result = {"qrels": str(qrels_path), "metrics": list(metrics), "baseline": baseline, "alpha": alpha, "runs": {}}
    for name, scores in topic_scores.items():
        row = {}
        for metric, values in scores.items():
            entry = {"mean": mean(values), "topics": len(values), "per_topic": values}
            if baseline is not None and name != baseline:
                base = topic_scores[baseline][metric]
                p = wilcoxon_p(values, base)
                entry |= {"p_value": p, "delta": entry["mean"] - mean(base),
                          "mark": mark(p, entry["mean"] - mean(base), alpha)}
            row[metric] = entry
        result["runs"][name] = row
    return result


def write_json(result: dict, path: str | Path) -> None:
    from preprocess.folder.owned import write_output

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_output(str(path), json.dumps(result, indent=1) + "\n")
