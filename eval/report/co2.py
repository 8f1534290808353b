"""The CO₂ table (the paper's Table 5): two figures, each labelled with its method, and break-even.

* **paper's estimate**: kg CO₂eq = t · C_e · W_cpu / 1000, t in CPU-hours, C_e in kg/kWh and W_cpu
  the CPU's TDP in watts, both from ``[co2]`` (paper: C_e = 0.341);
* **codecarbon**: ``OfflineEmissionsTracker`` around each stage (see :mod:`eval.energy`).

Search is extrapolated to ``[co2] queries`` (1M) from the per-query cost of the query load (the
topics when there is no load). **Break-even** of a variant against the baseline: its extra one-off
cost (preprocess + index) over what it saves per query; after that many queries the pruned index
has paid back its extra preprocessing. "never" when it saves nothing per query.
"""
from __future__ import annotations

import math

from eval.report.efficiency import stages
from eval.report.fmt import num, table


def paper_kg(cpu_hours: float, intensity: float, tdp: float) -> float:
    """The paper's estimate: kg CO₂eq = t · C_e · W_cpu / 1000."""
    return cpu_hours * intensity * tdp / 1000.0


def break_even(extra_one_off: float, saving_per_query: float) -> float | None:
    """Queries after which ``extra_one_off`` is paid back by ``saving_per_query``: 0 when the variant is
    cheaper up front and per query, None (never) when it saves nothing per query but costs more up
    front, -N when it is cheaper up front and falls behind after N queries."""
    if saving_per_query > 0:
        return max(0, math.ceil(extra_one_off / saving_per_query))
    if extra_one_off > 0:
        return None
    if saving_per_query == 0:
        return 0
    return -math.floor(extra_one_off / saving_per_query)


def _be_text(n: float | None) -> str:
    if n is None:
        return "never"
    if n < 0:
        return f"ahead until {-n:,.0f}"
    return "at once" if n == 0 else f"{n:,.0f}"


def _be_cell(name, base, same, n) -> str:
    return "" if name == base else "same index" if same else _be_text(n)


def costs(r: dict, intensity: float, tdp: float) -> dict:
    """One variant: one-off and per-query kg by both methods (None where a figure is missing)."""
    st = stages(r)
    q = st.get("search (load)") or st["search (topics)"]
    one_off_cpu = (st["preprocess"]["cpu_s"] or 0) + (st["index"]["cpu_s"] or 0)
    cc = [st["preprocess"]["codecarbon_kg"], st["index"]["codecarbon_kg"]]
    return {"one_off_cpu_s": one_off_cpu, "query_cpu_s": q["cpu_s"] / q["items"],
            "one_off_kg": paper_kg(one_off_cpu / 3600, intensity, tdp),
            "query_kg": paper_kg(q["cpu_s"] / q["items"] / 3600, intensity, tdp),
            "one_off_cc_kg": sum(cc) if all(c is not None for c in cc) else None,
            "query_cc_kg": q["codecarbon_kg"] / q["items"] if q["codecarbon_kg"] is not None else None,
            "per": "load" if "search (load)" in st else "topics", "query_wall_s": q["wall_s"], "queries": q["items"]}


def co2(summary: dict, co2_cfg, cpu_model: str) -> tuple[str, dict]:
    rows, base = summary["variants"], summary["evaluation"].get("baseline")
    n = co2_cfg.queries
    c = {name: costs(r, co2_cfg.intensity, co2_cfg.tdp) for name, r in rows.items()}
    head = ["variant", "one-off g", f"{n:,} queries kg", f"one-off + {n:,} queries kg", "break-even queries"]
    paper, measured, data = [], [], {}
    g = lambda kg: "–" if kg is None else num(kg * 1000)
    for name, v in c.items():
        be = be_cc = None
        index = rows[name].get("index")
        same = bool(base and name != base and index and index == rows[base].get("index"))
        if base and name != base and not same:
            b = c[base]
            be = break_even(v["one_off_kg"] - b["one_off_kg"], b["query_kg"] - v["query_kg"])
            if None not in (v["one_off_cc_kg"], b["one_off_cc_kg"], v["query_cc_kg"], b["query_cc_kg"]):
                be_cc = break_even(v["one_off_cc_kg"] - b["one_off_cc_kg"], b["query_cc_kg"] - v["query_cc_kg"])
        label = name + (" (baseline)" if name == base else "")
        paper.append([label, g(v["one_off_kg"]), num(v["query_kg"] * n),
                      num(v["one_off_kg"] + v["query_kg"] * n), _be_cell(name, base, same, be)])
        q_cc = v["query_cc_kg"]
        measured.append([label, g(v["one_off_cc_kg"]), num(q_cc * n if q_cc is not None else None),
                         num(v["one_off_cc_kg"] + q_cc * n if None not in (q_cc, v["one_off_cc_kg"]) else None),
                         "" if q_cc is None else _be_cell(name, base, same, be_cc)])
        data[name] = v | {"break_even": be, "break_even_codecarbon": be_cc}
    cc_note = _codecarbon_note(rows)
    note = (f"**paper**: kg CO₂eq = t · C_e · W_cpu / 1000 with t the CPU-hours of the efficiency table, "
            f"C_e = {co2_cfg.intensity} kg/kWh and W_cpu = {co2_cfg.tdp:g} W (TDP, from the config) for the "
            f"CPU here, *{cpu_model}*. **codecarbon**: {cc_note} "
            f"*one-off*: preprocess + index, in grams. The {n:,}-query extrapolation: from the per-query cost of the "
            f"median run of the {'query load' if all(v['per'] == 'load' for v in c.values()) else 'topics'}. "
            f"*break-even*: queries after which a variant's extra one-off cost against `{base}` is paid back "
            f"by what it saves per query (never: it saves nothing per query; ahead until N: it is cheaper up "
            f"front and costlier per query).{_noise_note(c)}")
    return ("### The paper's estimate: t · C_e · W_cpu / 1000\n\n" + table(head, paper) +
            "\n\n### codecarbon's figure\n\n" + table(head, measured) + "\n\n" + note, data)


def _noise_note(c: dict) -> str:
    """A warning when the timed searches were too short for a per-query cost to mean much."""
    longest = max(v["query_wall_s"] for v in c.values())
    if longest >= 1.0:
        return ""
    n = max(v["queries"] for v in c.values())
    return (f" **Read the per-query figures as noise here**: each timed search of {n:,} queries took "
            f"{longest:.2g} s or less, so the 1M-query extrapolation and break-even follow timer and JVM jitter; "
            f"a `[search] load` of thousands of queries measures them (configs/cacm.toml).")


def _codecarbon_note(rows: dict) -> str:
    for r in rows.values():
        for key in ("preprocess_energy", "index_energy", "load", "search_timing"):
            cc = (r.get(key) or {}).get("codecarbon")
            if cc:
                methods = ", ".join(f"{k}: {v}" for k, v in cc["methods"].items()) or "unknown"
                return (f"`OfflineEmissionsTracker` of codecarbon {cc['version']} around each stage (process "
                        f"and children; country {cc['country']}; method {methods}; CPU model as codecarbon "
                        f"sees it: {cc['cpu_model']}). Without RAPL counters codecarbon *estimates* CPU power "
                        f"from the load, and adds its RAM power model.")
    return "not measured (`[co2] codecarbon = false`, or every stage was reused from a run without it)."
