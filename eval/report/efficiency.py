"""The efficiency tables (the paper's Table 4): wall time and CPU-hours per stage and variant.

Per variant, the stages are:

* ``preprocess``: elapsed wall time of the run, CPU seconds of every step in the workers plus the
  driver's (``stats.json``; a local run's driver already holds its steps);
* ``index``: Anserini's build, CPU of the child JVM (``getrusage`` of waited-for children);
* ``search (topics)`` and ``search (load)``: ``[search] repeats`` timed runs of the batch, taking
  turns with the other variants (:func:`search.load.timed_searches`), median with min–max; CPU
  counts the JVM's search threads (same process).

Variants with the same cleaning share a collection and an index, so they show the same
preprocess and index figures.
"""
from __future__ import annotations

from eval.report.fmt import num, secs, spread, table

STEP_GROUPS = {"read": "reading", "decode": "reading", "parse": "parsing", "tags": "tag removal",
               "prune": "pruning", "write": "writing", "preprocess_driver": "driver"}
STEP_ORDER = ("reading", "parsing", "tag removal", "DOM cleaning", "pruning", "writing", "driver")


def preprocess_cpu(pre: dict) -> float:
    times = pre.get("times", {})
    if pre.get("executor") == "local":  # the steps ran inside the driver: its CPU already holds them
        return times.get("preprocess_driver", {}).get("cpu_s", 0.0)
    return sum(t["cpu_s"] for t in times.values())


def step_cpu(pre: dict) -> dict[str, float]:
    out = dict.fromkeys(STEP_ORDER, 0.0)
    for step, t in pre.get("times", {}).items():
        out[STEP_GROUPS.get(step, "DOM cleaning")] += t["cpu_s"]
    if pre.get("executor") == "local":
        out["driver"] = max(0.0, out["driver"] - sum(v for k, v in out.items() if k != "driver"))
    return out


def _cc(energy: dict | None, per: int = 1) -> float | None:
    cc = (energy or {}).get("codecarbon")
    return cc["kg"] / per if cc else None


def stages(r: dict) -> dict[str, dict]:
    """{stage: {"wall_s", "cpu_s", "codecarbon_kg", "items", "unit", "spread"}} of one variant's row."""
    pre, idx, ie = r["preprocess"], r["index_stats"], r.get("index_energy")
    out = {"preprocess": {"wall_s": pre["wall_s"], "cpu_s": preprocess_cpu(pre), "items": pre["written"],
                          "unit": "docs", "codecarbon_kg": _cc(r.get("preprocess_energy"))},
           "index": {"wall_s": idx["wall_s"], "cpu_s": (ie["cpu_s"] + ie["cpu_s_children"]) if ie else None,
                     "items": idx["documents"], "unit": "docs", "codecarbon_kg": _cc(ie)}}
    for key, stage in (("search_timing", "search (topics)"), ("load", "search (load)")):
        t = r.get(key)
        if t:
            out[stage] = {"wall_s": t["wall_s"]["median"], "cpu_s": t["cpu_s"]["median"], "items": t["queries"],
                          "unit": "queries", "spread": t["wall_s"], "codecarbon_kg": _cc(t, t["repeats"])}
    return out


def _h(cpu_s: float | None) -> str:
    return "–" if cpu_s is None else num(cpu_s / 3600)


def efficiency(summary: dict) -> str:
    rows = summary["variants"]
    has_load = any(r.get("load") for r in rows.values())
    head = ["variant", "preprocess s", "preprocess CPU-h", "index s", "index CPU-h", "search topics s"]
    if has_load:
        head += ["load search s", "load q/s", "load CPU-h"]
    body = []
    for name, r in rows.items():
        st = stages(r)
        cells = [name, secs(st["preprocess"]["wall_s"]), _h(st["preprocess"]["cpu_s"]), secs(st["index"]["wall_s"]),
                 _h(st["index"]["cpu_s"]), spread(r["search_timing"]["wall_s"])]
        if has_load:
            ld = r.get("load")
            cells += [spread(ld["wall_s"]), num(ld["queries_per_s"]), _h(ld["cpu_s"]["median"])] if ld else ["–"] * 3
        body.append(cells)
    first = next(iter(rows.values()))
    t = first["search_timing"]
    note = (f"Search: {t['repeats']} timed runs of the {t['queries']} topics (k = {t['k']})"
            + (f" and of the {first['load']['queries']:,}-query load (k = {first['load']['k']}; "
               f"{first['load']['source']})" if has_load else "")
            + ", round-robin over the variants after an untimed warm-up run of each; median [min–max] wall "
              "seconds, CPU-hours of the median run. Preprocess and index: one run each (reused when "
              "finished), CPU-hours of every process involved.")
    return table(head, body) + "\n\n" + note


def steps(summary: dict) -> str:
    rows = summary["variants"]
    body = []
    for name, r in rows.items():
        pre = r["preprocess"]
        cpu = step_cpu(pre)
        body.append([name, *[secs(cpu[s]) for s in STEP_ORDER], secs(preprocess_cpu(pre)),
                     num(pre["written"] / pre["wall_s"]) if pre["wall_s"] else "–"])
    return (table(["variant", *STEP_ORDER, "total CPU s", "docs/s"], body) +
            "\n\nCPU seconds per preprocessing step, summed over the cleaner workers (`stats.json`); *driver*: "
            "the process that reads the inputs' layout, schedules the workers and merges their output. "
            "docs/s: written documents per elapsed second, worker start-up included.")


def throughput(summary: dict) -> dict[str, dict[str, float]]:
    """{variant: {stage: items per elapsed second}} for the throughput plot."""
    out = {}
    for name, r in summary["variants"].items():
        out[name] = {f"{stage} ({s['unit']}/s)": s["items"] / s["wall_s"]
                     for stage, s in stages(r).items() if s["wall_s"]}
    return out
