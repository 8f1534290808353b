"""The report's figures (matplotlib, Agg): index size per variant (the paper's Figure 2), metric
against pruning threshold per model, per-topic difference against the baseline, throughput per stage."""
from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from eval.report.efficiency import throughput

DPI = 110


def _save(fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, bbox_inches="tight")  # legends placed outside the axes stay in
    plt.close(fig)
    return path


def index_size(summary: dict, path: Path) -> Path:
    rows = summary["variants"]
    names = list(rows)
    sizes = [rows[n]["index_stats"]["index_bytes"] for n in names]
    unit, scale = ("MB", 1e6) if max(sizes) >= 1e6 else ("KB", 1e3)  # 0.03 MB on every bar told nothing
    mb = [b / scale for b in sizes]
    coll = [(rows[n]["index_stats"].get("collection_bytes") or 0) / scale for n in names]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(names) + 2), 4))
    x = range(len(names))
    ax.bar([i - 0.2 for i in x], mb, width=0.4, label="index", color="#3b6ea8")
    ax.bar([i + 0.2 for i in x], coll, width=0.4, label="collection shards", color="#b0b8c4")
    for i, v in zip(x, mb):
        ax.annotate(f"{v:.3g}", (i - 0.2, v), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(list(x), names, rotation=30, ha="right")
    ax.set_ylabel(f"{unit} on disk")
    ax.set_ylim(0, 1.3 * max(mb + coll))
    ax.set_title("Index size per variant")
    ax.legend(frameon=False, loc="upper right", ncols=2)
    return _save(fig, path)


def _model_of(r: dict) -> tuple[str, str, float] | None:
    p = r["preprocess"].get("pruning")
    if not p:
        return None
    opts = r["cleaning"]
    label = f"{_cleaning(opts)} + {Path(p['model']).stem} ({p['score']})"  # a line: one cleaning, one model
    if opts.get("prune_percentile") is not None:
        return label, "worst % of sentences dropped", opts["prune_percentile"]
    return label, "maximum perplexity kept", p["threshold"]


def _cleaning(opts: dict) -> str:
    """The cleaning before pruning, as a spec (``tags``, ``density+hints+links(0.5)``)."""
    from preprocess.config.options import CleanOptions
    from preprocess.config.spec import format_spec

    keep = {k: v for k, v in opts.items() if k not in ("prune_model", "max_perplexity", "prune_percentile")}
    try:
        return format_spec(CleanOptions(**keep))
    except TypeError:
        return opts.get("cleaner", "?")


def metric_vs_threshold(summary: dict, metric: str, path: Path) -> Path | None:
    """One line per model (and score, and kind of threshold), the baseline as a dashed line; None when
    no variant prunes."""
    rows, runs = summary["variants"], summary["evaluation"]["runs"]
    lines: dict[str, list] = {}
    for name, r in rows.items():
        m = _model_of(r)
        if m:
            lines.setdefault((m[0], m[1]), []).append((m[2], runs[name][metric]["mean"], name))
    if not lines:
        return None
    kinds = sorted({k[1] for k in lines})
    fig, axes = plt.subplots(1, len(kinds), figsize=(6.5 * len(kinds), 4), squeeze=False)
    base = summary["evaluation"].get("baseline")
    for ax, kind in zip(axes[0], kinds):
        for (label, k), pts in sorted(lines.items()):
            if k != kind:
                continue
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
            for x, y, name in pts:
                ax.annotate(name, (x, y), textcoords="offset points", xytext=(5, 5), fontsize=7)
        if base:
            ax.axhline(runs[base][metric]["mean"], color="grey", ls="--", lw=1, label=f"{base} (baseline)")
        if kind.startswith("maximum"):
            ax.set_xscale("log")
            xs = sorted({p[0] for (_, k), pts in lines.items() if k == kind for p in pts})
            ax.set_xticks(xs, [f"{v:,.0f}" for v in xs])
            ax.minorticks_off()
        ax.set_xlabel(kind)
        ax.set_ylabel(metric)
        ax.legend(frameon=False, fontsize=8)
    fig.suptitle(f"{metric} against the pruning threshold, per model")
    return _save(fig, path)


def per_topic(summary: dict, metric: str, path: Path) -> Path | None:
    """Per-topic difference against the baseline, sorted, one panel per variant."""
    ev = summary["evaluation"]
    base = ev.get("baseline")
    others = [n for n in ev["runs"] if n != base]
    if not base or not others:
        return None
    cols = min(3, len(others))
    nrows = -(-len(others) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.8 * cols, 3.3 * nrows), squeeze=False, sharey=True)
    b = ev["runs"][base][metric]["per_topic"]
    for ax, name in zip(axes.flat, others):
        v = ev["runs"][name][metric]["per_topic"]
        d = sorted((v[q] - b[q] for q in b), reverse=True)
        ax.bar(range(len(d)), d, width=1.0, color=["#2e7d32" if x > 0 else "#c62828" for x in d])
        ax.axhline(0, color="black", lw=0.6)
        up, down = sum(x > 1e-12 for x in d), sum(x < -1e-12 for x in d)
        ax.set_title(f"{name}: {up} better, {down} worse", fontsize=10)
        ax.set_xticks([])
        ax.set_xlabel(f"{len(d)} topics, sorted")
    for ax in list(axes.flat)[len(others):]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel(f"Δ {metric} vs {base}")
    fig.suptitle(f"Per-topic {metric} difference against {base}")
    return _save(fig, path)


def throughput_plot(summary: dict, path: Path) -> Path:
    data = throughput(summary)
    names = list(data)
    stages = list(dict.fromkeys(s for v in data.values() for s in v))
    fig, ax = plt.subplots(figsize=(max(7.0, 1.1 * len(names) + 3), 4.2))
    w = 0.8 / len(stages)
    for j, stage in enumerate(stages):
        xs = [i - 0.4 + w * (j + 0.5) for i in range(len(names))]
        ax.bar(xs, [data[n].get(stage, 0) for n in names], width=w, label=stage)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_ylabel("items per elapsed second (log)")
    ax.set_title("Throughput per stage")
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _save(fig, path)
