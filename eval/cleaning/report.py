"""The benchmark's tables: per-set aggregates, per-set and summary Markdown tables, tool versions."""
from __future__ import annotations

import importlib.metadata as md
import platform

from eval.cleaning.harness import WP_PREFIX


def _versions(tools: list[str]) -> dict[str, str]:
    from eval.cleaning.peers import versions

    out = {"python": platform.python_version()}
    try:
        out["webprune"] = md.version("webprune")
    except md.PackageNotFoundError:
        out["webprune"] = "source"
    pv = versions()
    out.update({t: pv[t] for t in tools if t in pv})
    try:
        out["lxml"] = md.version("lxml")
    except md.PackageNotFoundError:
        pass
    return out



def _fmt_rate(r: float) -> str:
    return f"{r:.0f}" if r >= 10 else f"{r:.1f}"


def aggregate(rows: list[dict]) -> dict:
    n = len(rows)
    cpu = sum(r["cpu"] for r in rows)
    mean = lambda k: 100.0 * sum(r[k] for r in rows) / n if n else 0.0  # noqa: E731
    return {"pages": n, "precision": mean("precision"), "recall": mean("recall"), "f1": mean("f1"),
            "cleaneval": mean("cleaneval"), "cpu_s": cpu, "docs_per_s": n / cpu if cpu > 0 else float("inf"),
            "errors": sum(r["status"] == "error" for r in rows),
            "timeouts": sum(r["status"] == "timeout" for r in rows),
            "empty": sum(r["out_words"] == 0 for r in rows)}


def _best(values: dict[str, float]) -> set[str]:
    if not values:
        return set()
    top = max(round(v, 1) for v in values.values())
    return {k for k, v in values.items() if round(v, 1) == top}


def report(summary: dict, sets: list[str], tools: list[str]) -> str:
    lines = []
    for s in sets:
        n = summary[tools[0]][s]["pages"]
        best = _best({t: summary[t][s]["f1"] for t in tools})
        lines += [f"### {s} ({n} pages)", "",
                  "| tool | word P | word R | word F1 | CleanEval | docs/s/core | errors/timeouts |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for t in tools:
            a = summary[t][s]
            f1 = f"{a['f1']:.1f}"
            lines.append(f"| {t} | {a['precision']:.1f} | {a['recall']:.1f} | "
                         f"{'**' + f1 + '**' if t in best else f1} | {a['cleaneval']:.1f} | "
                         f"{_fmt_rate(a['docs_per_s'])} | {a['errors']}/{a['timeouts']} |")
        lines.append("")
    lines += ["### Summary: word F1 (docs/s/core)", "",
              "| tool | " + " | ".join(sets) + " |", "|---|" + "---:|" * len(sets)]
    best = {s: _best({t: summary[t][s]["f1"] for t in tools}) for s in sets}
    for t in tools:
        cells = []
        for s in sets:
            a = summary[t][s]
            f1 = f"{a['f1']:.1f}"
            cells.append(f"{'**' + f1 + '**' if t in best[s] else f1} ({_fmt_rate(a['docs_per_s'])})")
        lines.append(f"| {t} | " + " | ".join(cells) + " |")
    peers = [t for t in tools if not t.startswith(WP_PREFIX)]
    if peers:
        cells = []
        for s in sets:
            p = max(peers, key=lambda t: summary[t][s]["f1"])
            cells.append(f"{p} {summary[p][s]['f1']:.1f}")
        lines.append("| *best peer* | " + " | ".join(cells) + " |")
    return "\n".join(lines)


