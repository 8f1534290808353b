"""The results table of an evaluation: one row per run, metric cells marked against the baseline."""
from __future__ import annotations


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
