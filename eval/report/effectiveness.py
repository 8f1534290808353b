"""The effectiveness table (the paper's Table 2): metrics with ↑/↓, collection and index size."""
from __future__ import annotations

from eval.correction import LABELS
from eval.report.fmt import size, table


def _cell(entry: dict, ttest: bool) -> str:
    text = f"{entry['mean']:.4f}{entry.get('mark', '')}"
    if ttest and entry.get("mark_ttest"):
        text += f" (t{entry['mark_ttest']})"
    return text


def effectiveness(summary: dict) -> str:
    result, rows = summary["evaluation"], summary["variants"]
    metrics = list(next(iter(result["runs"].values())))
    base, ttest = result.get("baseline"), result.get("ttest", False)
    head = ["variant", "model", *metrics, "docs", "collection", "index", "Δ index"]
    base_bytes = rows[base]["index_stats"]["index_bytes"] if base else None
    body = []
    for name, run in result["runs"].items():
        r = rows[name]
        ib = r["index_stats"]["index_bytes"]
        delta = f"{100 * (ib - base_bytes) / base_bytes:+.1f}%" if base_bytes and name != base else ""
        body.append([name + (" (baseline)" if name == base else ""), r.get("search", {}).get("label", "QLD"), *[_cell(run[m], ttest) for m in metrics],
                     f"{r['preprocess']['written']:,}", size(r["index_stats"].get("collection_bytes")), size(ib),
                     delta])
    out = table(head, body, align="ll" + "r" * (len(head) - 2))
    if base:
        n = next(iter(result["runs"][base].values()))["topics"]
        method = result.get("correction", "none")
        note = (f"↑/↓: two-sided Wilcoxon signed-rank test against `{base}`, p < {result['alpha']} after "
                f"**{LABELS[method]}** (`correction = \"{method}\"`) across the {len(result['runs']) - 1} "
                f"compared variant(s), per metric, over {n} judged topics.")
        if ttest:
            note += " (t↑/t↓): the same for a paired t-test."
        out += "\n\n" + note
    out += ("\n\n*collection*: the JsonCollection shards on disk (compressed when `compress = true`); "
            "*index*: the Lucene index (positions and document vectors); *model*: the retrieval model of the run "
            "(QLD: query likelihood with Dirichlet smoothing; BM25; +RM3: RM3 expansion with its feedback terms, "
            "documents and the original query's weight).")
    return out


def p_values(summary: dict) -> str:
    """Raw and adjusted p-values, one row per variant and metric, for the reader who wants the numbers."""
    result = summary["evaluation"]
    base = result.get("baseline")
    if not base or len(result["runs"]) < 2:
        return ""
    ttest = result.get("ttest", False)
    head = ["variant", "metric", "Δ", "Wilcoxon p", "adjusted"] + (["t-test p", "adjusted"] if ttest else [])
    body = []
    for name, run in result["runs"].items():
        if name == base:
            continue
        for m, e in run.items():
            row = [name, m, f"{e['delta']:+.4f}", f"{e['p_value']:.3g}", f"{e.get('p_adjusted', e['p_value']):.3g}"]
            if ttest:
                row += [f"{e['p_ttest']:.3g}", f"{e['p_ttest_adjusted']:.3g}"]
            body.append(row)
    differing = [_differing(e["per_topic"], result["runs"][base][m]["per_topic"])
                 for name, run in result["runs"].items() if name != base for m, e in run.items()]
    few = (" Fewer than 6 topics differ from the baseline in every comparison here, and a two-sided Wilcoxon "
           "test cannot reach p < 0.05 on fewer (2/2⁵ = 0.0625): these p-values cannot show a difference."
           if differing and max(differing) < 6 else "")
    return table(head, body, align="llrrrrr"[:len(head)]) + \
        (f"\n\nTwo-sided, paired over the judged topics; adjusted: {result.get('correction', 'none')} "
         f"across the variants.{few}")


def _differing(scores: dict, base: dict) -> int:
    """Topics whose score differs from the baseline's: the only ones Wilcoxon ranks."""
    return sum(1 for q, v in scores.items() if v != base.get(q))
