"""The paper's evidence in one report: ``report.md`` and ``report.html`` (with ``plots/``) in a results folder.

``write_report(exp, out, summary)`` turns what :mod:`webprune.experiment` measured into the tables of
the seed paper (effectiveness with ↑/↓ and sizes, stage times and CPU-hours, CO₂ with break-even)
and four figures, plus the ``[cleaning]`` quality table when the config asks for it. The HTML is one
self-contained file (plots embedded), rendered from the Markdown with markdown-it.
"""
from __future__ import annotations

import datetime
import importlib.metadata as md
import os
import platform
import re
from pathlib import Path

from eval.energy import cpu_model
from eval.metrics import parse_metrics
from eval.report.cleaning import cleaning_eval
from eval.report.co2 import co2
from eval.report.effectiveness import effectiveness, p_values
from eval.report.efficiency import efficiency, steps
from eval.report.html import to_html
from eval.report.plots import index_size, metric_vs_threshold, per_topic, throughput_plot

__all__ = ["cleaning_eval", "write_report"]
PLOTS = "plots"


def _versions() -> str:
    out = [f"Python {platform.python_version()}"]
    for pkg in ("pyserini", "ir_measures", "scipy", "codecarbon", "matplotlib"):
        try:
            out.append(f"{pkg} {md.version(pkg)}")
        except md.PackageNotFoundError:
            pass
    return ", ".join(out)


def _cleaning_tables(c: dict) -> str:
    text = re.sub(r"^### (?!Summary)", "### Set: ", c["table"], flags=re.MULTILINE)
    if len(c["options"]["sets"]) == 1:  # the summary would repeat the one set's F1 column
        text = text.split("### Summary")[0].rstrip()
    return text


def write_report(exp, out: Path, summary: dict) -> dict:
    """Write OUTPUT/report.md, OUTPUT/report.html and OUTPUT/plots/*.png; returns their paths and CO₂ data."""
    plots = out / PLOTS
    plots.mkdir(exist_ok=True)
    ev = summary["evaluation"]
    metric = str(parse_metrics([exp.report.metric or ev["metrics"][0]])[0])  # ir_measures' name (AP for MAP)
    cpu = cpu_model()
    n_topics = next(iter(next(iter(ev["runs"].values())).values()))["topics"]
    parts = [f"# {exp.name}: effectiveness, efficiency and CO₂",
             (f"`webprune run` of `{exp.name}`, {datetime.datetime.now():%Y-%m-%d %H:%M}, on {cpu} "
              f"({os.cpu_count()} cores); {len(summary['variants'])} variants, {n_topics} judged topics, "
              f"baseline `{ev.get('baseline')}`. {_versions()}."),
             "## Effectiveness", effectiveness(summary)]
    figures = {"index_size": index_size(summary, plots / "index_size.png")}
    parts.append("![Index size per variant](plots/index_size.png)")
    f = metric_vs_threshold(summary, metric, plots / "metric_vs_threshold.png")
    if f:
        figures["metric_vs_threshold"] = f
        parts.append(f"![{metric} against the pruning threshold, per model](plots/metric_vs_threshold.png)")
    else:
        parts.append(f"*{metric} against the pruning threshold*: no variant prunes.")
    f = per_topic(summary, metric, plots / "per_topic.png")
    if f:
        figures["per_topic"] = f
        parts.append(f"![Per-topic {metric} difference against the baseline](plots/per_topic.png)")
    pv = p_values(summary)
    if pv:
        parts += ["### p-values", pv]
    parts += ["## Efficiency", efficiency(summary), "### Preprocessing steps", steps(summary)]
    figures["throughput"] = throughput_plot(summary, plots / "throughput.png")
    parts.append("![Throughput per stage](plots/throughput.png)")
    co2_data = None
    if exp.co2 is not None:
        table, co2_data = co2(summary, exp.co2, cpu)
        parts += ["## CO₂", table]
    if summary.get("cleaning"):
        c = summary["cleaning"]
        parts += ["## Cleaning quality against human gold text",
                  (f"`[cleaning]`: {c['pages']} pages of {', '.join(c['options']['sets'])}"
                   f"{' (first ' + str(c['options']['limit']) + ' per set)' if c['options']['limit'] else ''}; "
                   "word precision, recall and F1 on an exact word LCS, the CleanEval score, x100 "
                   "(as `webprune eval-cleaning`)."),
                  _cleaning_tables(c)]
    text = "\n\n".join(parts) + "\n"
    (out / "report.md").write_text(text, encoding="utf-8")
    (out / "report.html").write_text(to_html(text, out, title=f"{exp.name}: webprune report"), encoding="utf-8")
    return {"markdown": str(out / "report.md"), "html": str(out / "report.html"),
            "plots": {k: str(v) for k, v in figures.items()}, "co2": co2_data, "cpu_model": cpu, "metric": metric}
