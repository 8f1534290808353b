"""Evaluate runs against qrels and a baseline; render Markdown and JSON."""
from __future__ import annotations

import json
from pathlib import Path

from eval.metrics import DEFAULT_METRICS, mean, per_topic
from eval.significance import mark, wilcoxon_p
from eval.trec_files import read_qrels, read_run


def check_alpha(alpha: float) -> float:
    """A significance level in (0, 1), or ValueError saying so."""
    if not 0 < alpha < 1:  # nan fails too
        raise ValueError(f"alpha {alpha} is not a significance level: give a value in (0, 1), e.g. 0.05")
    return alpha


def evaluate(qrels_path, runs: dict[str, str | Path], baseline: str | None = None, metrics=DEFAULT_METRICS,
             alpha: float = 0.05) -> dict:
    """runs: {name: run file}. Returns {"metrics", "baseline", "alpha", "runs": {name: {metric: {...}}}}."""
    check_alpha(alpha)
    qrels = read_qrels(qrels_path)
    topic_scores = {name: per_topic(qrels, read_run(path), metrics) for name, path in runs.items()}
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


def markdown_table(result: dict, extra_columns: dict[str, dict[str, str]] | None = None) -> str:
    """One row per run; metric cells carry ↑/↓ against the baseline. extra_columns: {column: {run: text}}."""
    metrics = list(next(iter(result["runs"].values())).keys())
    extra_columns = extra_columns or {}
    head = ["run", *metrics, *extra_columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, row in result["runs"].items():
        cells = [name + (" (baseline)" if name == result.get("baseline") else "")]
        cells += [f"{row[m]['mean']:.4f}{row[m].get('mark', '')}" for m in metrics]
        cells += [extra_columns[c].get(name, "") for c in extra_columns]
        lines.append("| " + " | ".join(cells) + " |")
    if result.get("baseline"):
        corrected = result.get("correction") not in (None, "none")
        lines.append(f"\n↑/↓: Wilcoxon signed-rank p < {result['alpha']} against `{result['baseline']}` "
                     f"over {next(iter(next(iter(result['runs'].values())).values()))['topics']} judged topics"
                     + (f", {result['correction']}-corrected across the variants." if corrected else "."))
    return "\n".join(lines)


def write_json(result: dict, path: str | Path) -> None:
    from preprocess.owned import write_output

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_output(str(path), json.dumps(result, indent=1) + "\n")
