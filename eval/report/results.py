"""An experiment's results (``webprune run``): its runs evaluated against the baseline, the results table with
sizes, times and pruning beside the metrics, the checks of its expected values, and the report."""
from __future__ import annotations

from pathlib import Path

from eval import correction
from eval.evaluate import evaluate, write_json
from eval.report import cleaning_eval, write_report
from eval.report.tables import markdown_table


def _threshold(t: float) -> str:
    return f"{t:,.0f}" if abs(t) >= 100 else f"{t:.3f}"  # perplexities vs adjusted logits


def _kept(pre: dict) -> str:
    c = pre["counters"]
    return f"{100 * c.get('prune.sentences_kept', 0) / max(c.get('prune.sentences', 0), 1):.1f}"


def _search_s(row: dict) -> str:
    """The topics' search time: the median of the timed turns (as the report's efficiency table, after every
    variant's warm-up), not the first search, which pays the JVM's start for the first variant."""
    timed = row.get("search_timing")
    return f"{timed['wall_s']['median']:.2f}" if timed else f"{row['search']['wall_s']:.2f}"


def _size(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def check(exp, result: dict) -> list[dict]:
    """Each expected value of each variant against the measured mean: variant, metric, expected, got, ok."""
    out = []
    for v in exp.variants:
        tol = v.tolerance if v.tolerance is not None else exp.eval.tolerance
        for metric, expected in v.expect.items():
            got = result["runs"][v.name].get(metric, {}).get("mean")
            out.append({"variant": v.name, "metric": metric, "expected": expected, "got": got,
                        "tolerance": tol, "ok": got is not None and abs(got - expected) <= tol})
    return out


def report(exp, out: Path, steps: list, rows: dict) -> dict:
    """Evaluate the experiment's runs, write results.md, results.json and the report; the summary."""
    metrics = list(dict.fromkeys(exp.eval.metrics + [m for v in exp.variants for m in v.expect]))
    if exp.report.metric:
        metrics = list(dict.fromkeys(metrics + [exp.report.metric]))
    result = evaluate(exp.path(exp.qrels.path), {s.variant.name: s.run for s in steps}, baseline=exp.baseline,
                      metrics=metrics, alpha=exp.eval.alpha)
    correction.apply(result, exp.eval.correction, exp.eval.ttest)
    extra = {
        "model": {s.variant.name: s.model.label() for s in steps},
        "docs": {n: str(r["preprocess"]["written"]) for n, r in rows.items()},
        "text": {n: _size(r["preprocess"]["counters"].get("bytes_out", 0)) for n, r in rows.items()},
        "index": {n: _size(r["index_stats"]["index_bytes"]) for n, r in rows.items()},
        "preprocess s": {n: f"{r['preprocess']['wall_s']:.1f}" for n, r in rows.items()},
        "index s": {n: f"{r['index_stats']['wall_s']:.1f}" for n, r in rows.items()},
        "search s": {n: _search_s(r) for n, r in rows.items()},
    }
    pruned = {n: r for n, r in rows.items() if r["preprocess"].get("pruning")}
    if pruned:
        extra["threshold"] = {n: _threshold(r["preprocess"]["pruning"]["threshold"]) for n, r in pruned.items()}
        extra["sentences kept %"] = {n: _kept(r["preprocess"]) for n, r in pruned.items()}
    table = markdown_table(result, extra)
    summary = {"name": exp.name, "variants": rows, "evaluation": result, "table": table,
               "checks": check(exp, result)}
    (out / "results.md").write_text(f"# {exp.name}\n\n{table}\n")
    if exp.cleaning is not None:
        summary["cleaning"] = cleaning_eval(exp, steps, out)
    summary["report"] = write_report(exp, out, summary)
    write_json(summary, out / "results.json")
    return summary
