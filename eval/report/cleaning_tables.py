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
            "cleaneval": mean("cleaneval"), "bow_precision": mean("bow_precision"), "bow_recall": mean("bow_recall"),
            "bow_f1": mean("bow_f1"), "cpu_s": cpu, "docs_per_s": n / cpu if cpu > 0 else float("inf"),
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
                  "| tool | word P | word R | word F1 | BoW P | BoW R | BoW F1 | CleanEval | docs/s/core | "
                  "errors/timeouts |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for t in tools:
            a = summary[t][s]
            f1 = f"{a['f1']:.1f}"
            lines.append(f"| {t} | {a['precision']:.1f} | {a['recall']:.1f} | "
                         f"{'**' + f1 + '**' if t in best else f1} | {a['bow_precision']:.1f} | "
                         f"{a['bow_recall']:.1f} | {a['bow_f1']:.1f} | {a['cleaneval']:.1f} | "
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




def by_type(rows: list[dict]) -> dict[str, dict]:
    """Aggregates per WCXB page type (rows that have one), and ``all`` of them."""
    from eval.cleaning.gold import PAGE_TYPES

    typed = [r for r in rows if r.get("page_type")]
    out = {t: aggregate([r for r in typed if r["page_type"] == t]) for t in PAGE_TYPES
           if any(r["page_type"] == t for r in typed)}
    if typed:
        out["all"] = aggregate(typed)
    return out


def type_report(types: dict[str, dict], tools: list[str]) -> str:
    """Per page type: WCXB's bag-of-words F1 (bold: best), then its precision/recall, then the word-LCS F1."""
    kinds = [k for k in ("all", "article", "documentation", "service", "forum", "collection", "listing", "product")
             if k in types[tools[0]]]
    head = "| tool | " + " | ".join(f"{k} ({types[tools[0]][k]['pages']})" for k in kinds) + " |"
    rule = "|---|" + "---:|" * len(kinds)
    lines = []
    for title, cell in (("WCXB F1 (bag of words)", lambda a: f"{a['bow_f1']:.1f}"),
                        ("WCXB precision / recall", lambda a: f"{a['bow_precision']:.1f} / {a['bow_recall']:.1f}"),
                        ("word F1 (LCS)", lambda a: f"{a['f1']:.1f}")):
        best = {k: _best({t: types[t][k]["bow_f1" if title.startswith("WCXB F1") else "f1"] for t in tools})
                for k in kinds}
        lines += [f"### wcxb-dev by page type: {title}", "", head, rule]
        for t in tools:
            cells = []
            for k in kinds:
                c = cell(types[t][k])
                cells.append(f"**{c}**" if "/" not in c and t in best[k] else c)
            lines.append(f"| {t} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)
