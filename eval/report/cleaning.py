"""``[cleaning]``: the variants' cleaners (or ``tools``) against the human gold standards, for the report.

The same scoring as ``webprune eval-cleaning`` (:mod:`eval.cleaning`), called in-process: a tool id
of a pruning variant names its own model (``webprune/tags+prune(perplexity,t=8000,model=PATH)``),
which the command line's comma-separated ``--tools`` cannot carry. The scores go to
OUTPUT/cleaning.json and are reused while the sets, limit and tools stay the same.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from eval.cleaning.gold import gold_pages, shared_root
from eval.cleaning.harness import WP_PREFIX, calibrate_prune, score_tool, scoring_settings, tool_options
from eval.report.cleaning_tables import aggregate, report
from preprocess.config.spec import format_spec
from preprocess.run.units import model_files


def tools_of(exp, steps) -> dict[str, str]:
    """{tool id: label}: ``[cleaning] tools``, else each variant's cleaning as a spec, labelled with the spec
    without the model path and the variants that use it."""
    if exp.cleaning.tools:
        return {t: t for t in exp.cleaning.tools}
    out: dict[str, list] = {}
    for s in steps:
        out.setdefault(WP_PREFIX + format_spec(s.opts), [format_spec(s.opts, with_model=False)]).append(s.variant.name)
    return {t: v[0] if v[1:] == v[:1] else f"{v[0]} ({', '.join(v[1:])})" for t, v in out.items()}


def cleaning_eval(exp, steps, out: Path) -> dict:
    """{"options", "summary", "table"}; ValueError for a set without data or a bad tool id."""
    c = exp.cleaning
    shared = exp.path(c.shared) if c.shared else shared_root()
    labels = tools_of(exp, steps)
    tools = list(labels)
    settings = scoring_settings(sets=c.sets)
    # a bad spec fails here, before any page is cleaned; a model retrained at the same path is new scores
    models = {t: [model_files(tool_options(t, settings, s)) for s in c.sets] for t in tools if t.startswith(WP_PREFIX)}
    options = {"sets": c.sets, "limit": c.limit, "tools": tools, "jobs": c.jobs, "shared": str(shared),
               "models": models}
    cache = out / "cleaning.json"
    if cache.exists():
        done = json.loads(cache.read_text())
        if done.get("options") == options:
            return done
    if not (shared / "cleaning").is_dir():
        raise ValueError(f"[cleaning]: no cleaning data under {shared} (set [cleaning] shared = PATH)")
    pages = [p for s in c.sets for p in gold_pages(shared, [s])[: c.limit]]
    golds = [p.gold_text() for p in pages]
    settings["thresholds"] = calibrate_prune(tools, pages, settings)
    summary, t0 = {}, time.perf_counter()
    for tool in tools:
        rows = score_tool(tool, pages, golds, c.jobs, 20, False, settings)
        summary[tool] = {s: aggregate([r for r in rows if r["set"] == s]) for s in c.sets}
    table = report(summary, c.sets, tools)
    for t in sorted(tools, key=len, reverse=True):
        table = table.replace(f"| {t} |", f"| {labels[t]} |")
    done = {"options": options, "summary": summary, "table": table, "pages": len(pages),
            "wall_s": round(time.perf_counter() - t0, 1)}
    cache.write_text(json.dumps(done, indent=1) + "\n")
    return done
