#!/usr/bin/env python
"""Generate the results tables of README.md and docs/*.md from committed result files, in place.

    python scripts/tools/render_docs.py            # rewrite every generated table
    python scripts/tools/render_docs.py --check    # exit 1, naming each table that differs (tests/test_docs.py runs it)
    python scripts/tools/render_docs.py --import-cleaning build/bench/cleaning.json NAME
                                             # keep an `eval-cleaning --json` run as results/cleaning/NAME.json

A generated table sits between two markers; everything between them is replaced:

    <!-- table:cleaning all6_b3 sets=cleaneval-dev,l3s-gn1 tools=tags+hints+links,readability -->
    ...
    <!-- /table -->

Kinds (the first word): ``cleaning NAME`` -- word F1 (docs/s per core) per gold set from
``results/cleaning/NAME.json``, bold the best of each set, and the margin of the best webprune tool
over the best peer; ``cleaning-command NAME`` -- the ``eval-cleaning`` command of that run (held-out models
named by ``$HELD_OUT``: the run's own folder stays in its result file); ``page-types NAME [tools=...]
[cells=f1|rp]`` -- WCXB's bag-of-words F1, or recall / precision, per page type of that run's wcxb-dev pages;
``cleaning-check NAME`` -- the sets, pages, metrics, tolerances and tools of ``configs/cleaning/NAME.toml``
(what ``eval-cleaning --check`` runs); ``expect CONFIG`` -- the expected values and tolerance of every variant of
``configs/CONFIG.toml`` (what ``webprune run --check`` compares); ``configs`` -- every config, its
variants and how many carry ``expect``; ``multihost NAME`` -- fault x seed on a multi-host cluster from
``results/cluster/NAME.json`` (``scripts/bench/multihost.py --json``). As Anserini's regression pages come from YAML, a number in a
generated table cannot drift from its result file. Tables without a result file are copied by hand and
listed as such in docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = re.compile(r"(<!-- table:(?P<spec>[^\n]*?) -->\n)(?P<body>.*?)(<!-- /table -->)", re.S)
SET_NAMES = {"cleaneval-dev": "CleanEval dev", "cleaneval-final": "CleanEval final",
             "cleanportaleval": "CleanPortalEval", "dragnet": "Dragnet", "l3s-gn1": "L3S-GN1", "wcxb-dev": "WCXB dev"}
PEER_NAMES = {"resiliparse": "resiliparse {v} `main_content`", "readability": "readability-lxml {v}",
              "justext": "jusText {v}"}
WP = "webprune/"
CI_CHECKED = ("example", "cacm")  # configs whose `--check` runs in the test suite (tests/test_end_to_end.py)


# -- cleaning quality ------------------------------------------------------------------------------------------
HELD_OUT = "HELD_OUT"  # the shell variable a rendered command names the held-out models' folder by
HELD_OUT_FOLDER = "build/learned/loso"  # where `scripts/tools/train_learned.py --loso` writes them (its docstring)


def _model(tool: str):
    return re.search(r"\+learned_model\(([^)]*)\)", tool)


def _held_out(model: str) -> bool:
    """A model path with ``{set}``: each gold set cleaned by the model trained without it."""
    return "{set}" in model


def tool_name(tool: str, versions: dict) -> str:
    """``webprune/learned+hints+links+learned_model(m/{set}.json)`` -> ``webprune `learned+hints+links`, held out``.
    The held-out models' folder is the run's own (its result file names it), never part of the label."""
    if not tool.startswith(WP):
        return PEER_NAMES.get(tool, "{t} {v}").format(t=tool, v=versions.get(tool, "")).strip()
    spec = tool[len(WP):]
    m = _model(spec)
    if not m:
        return f"webprune `{spec}`"
    return (f"webprune `{spec.replace(m.group(0), '')}`, "
            + ("held out" if _held_out(m.group(1)) else f"model `{m.group(1)}`"))


def short_id(tool: str) -> str:
    """The id a marker's ``tools=`` names: the spec without its model path, plus ``@held-out`` for held-out models
    (``learned+hints+links@held-out``) or ``@`` and a fixed model's file stem; a peer's name."""
    if not tool.startswith(WP):
        return tool
    m = _model(tool)
    spec = tool[len(WP):].replace(m.group(0), "") if m else tool[len(WP):]
    if not m:
        return spec
    return spec + ("@held-out" if _held_out(m.group(1)) else f"@{Path(m.group(1)).stem}")


def _by_id(name: str, summary: dict) -> dict:
    by_id: dict = {}
    for t in summary:
        if short_id(t) in by_id:
            raise ValueError(f"cleaning {name}: tools {by_id[short_id(t)]} and {t} share the id {short_id(t)}")
        by_id[short_id(t)] = t
    return by_id


def _rate(r: float) -> str:
    return f"{r:.0f}" if r >= 10 else f"{r:.1f}"


def cleaning_table(name: str, sets: str = "", tools: str = "") -> str:
    data = json.loads((RESULTS / "cleaning" / f"{name}.json").read_text())
    summary, versions = data["summary"], data.get("versions", {})
    all_sets = data["options"]["sets"]
    chosen_sets = sets.split(",") if sets else all_sets
    chosen = list(summary)
    if tools:
        by_id = _by_id(name, summary)
        missing = [t for t in tools.split(",") if t not in by_id]
        if missing:
            raise ValueError(f"cleaning {name}: no tool {', '.join(missing)} (it has {', '.join(by_id)})")
        chosen = [by_id[t] for t in tools.split(",")]
    lines = ["| tool | " + " | ".join(SET_NAMES.get(s, s) for s in chosen_sets) + " |",
             "|---|" + "---:|" * len(chosen_sets)]
    best = {s: max(round(summary[t][s]["f1"], 1) for t in chosen) for s in chosen_sets}
    for t in chosen:
        cells = []
        for s in chosen_sets:
            f1 = f"{summary[t][s]['f1']:.1f}"
            cells.append(f"{'**' + f1 + '**' if round(summary[t][s]['f1'], 1) == best[s] else f1} "
                         f"({_rate(summary[t][s]['docs_per_s'])})")
        lines.append(f"| {tool_name(t, versions)} | " + " | ".join(cells) + " |")
    ours = [t for t in chosen if t.startswith(WP)]
    peers = [t for t in chosen if not t.startswith(WP)]
    if ours and peers:
        margin = [max(summary[t][s]["f1"] for t in ours) - max(summary[t][s]["f1"] for t in peers)
                  for s in chosen_sets]
        lines.append("| best webprune − best peer | " + " | ".join(f"{m:+.1f}" for m in margin) + " |")
    return "\n".join(lines)


PAGE_TYPES = ("all", "article", "documentation", "service", "forum", "collection", "listing", "product")


def page_types_table(name: str, tools: str = "", cells: str = "f1") -> str:
    """WCXB's bag-of-words F1 (``cells=f1``, bold the best of each type) or recall / precision (``cells=rp``) per
    page type, from ``results/cleaning/NAME.json``'s ``page_types`` (the wcxb-dev pages of the run)."""
    data = json.loads((RESULTS / "cleaning" / f"{name}.json").read_text())
    types, versions = data["page_types"], data.get("versions", {})
    chosen = list(types)
    if tools:
        by_id = _by_id(name, types)
        missing = [t for t in tools.split(",") if t not in by_id]
        if missing:
            raise ValueError(f"page-types {name}: no tool {', '.join(missing)} (it has {', '.join(by_id)})")
        chosen = [by_id[t] for t in tools.split(",")]
    if cells not in ("f1", "rp"):
        raise ValueError(f"page-types {name}: cells={cells}: use f1 or rp")
    cols = [c for c in PAGE_TYPES if all(c in types[t] for t in chosen)]
    head = "tool" if cells == "f1" else "tool (BoW recall / precision)"
    lines = [f"| {head} | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
    best = {c: max(round(types[t][c]["bow_f1"], 1) for t in chosen) for c in cols}
    for t in chosen:
        row = []
        for c in cols:
            v = types[t][c]
            if cells == "rp":
                row.append(f"{v['bow_recall']:.0f} / {v['bow_precision']:.0f}")
            else:
                f1 = f"{v['bow_f1']:.1f}"
                row.append(f"**{f1}**" if round(v["bow_f1"], 1) == best[c] else f1)
        lines.append(f"| {tool_name(t, versions)} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def cleaning_command(name: str) -> str:
    """The ``webprune eval-cleaning`` command that made ``results/cleaning/NAME.json``, from its options."""
    o = json.loads((RESULTS / "cleaning" / f"{name}.json").read_text())["options"]
    st = o.get("settings", {})
    flags = [f"--sets {','.join(o['sets'])}", f"--jobs {o.get('jobs', 1)}"]
    if o.get("limit"):
        flags.append(f"--limit {o['limit']}")
    for key in ("prune_model", "prune_score", "prune_percentile", "prune_threshold", "max_perplexity"):
        if st.get(key) not in (None, "perplexity"):
            flags.append(f"--{key.replace('_', '-')} {st[key]}")
    if st.get("max_link_density") not in (None, 0.5):
        flags.append(f"--max-link-density {st['max_link_density']}")
    if st.get("with_title", True):  # runs before the flag scored webprune's title line
        flags.append("--with-title")
    tools, held_out = [], False
    for t in o["tools"]:
        m = _model(t)
        if m and _held_out(m.group(1)):  # the run's own folder stays in its result file; a rerun trains its own
            t, held_out = t.replace(m.group(1), f"${HELD_OUT}/{Path(m.group(1)).name}"), True
        tools.append(t)
    first = (f"{HELD_OUT}={HELD_OUT_FOLDER}   # each set's model trained without it: "
             f"python scripts/tools/train_learned.py --loso ${HELD_OUT}\n") if held_out else ""
    tools = ",\\\n".join(tools)
    return (f"```bash\n{first}webprune eval-cleaning {' '.join(flags)} --json {name}.json --tools \"\\\n{tools}\"\n"
            "```")


def import_cleaning(src: Path, name: str) -> Path:
    """An ``eval-cleaning --json`` file without its per-page rows (MBs): options, versions, per-set summary."""
    data = json.loads(src.read_text())
    keep = {k: data[k] for k in ("options", "versions", "summary", "page_types") if k in data}
    out = RESULTS / "cleaning" / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(keep, indent=1) + "\n")
    return out


CHECK_METRICS = {"f1": "word F1", "precision": "word P", "recall": "word R", "bow_f1": "WCXB BoW F1",
                 "bow_precision": "WCXB BoW P", "bow_recall": "WCXB BoW R", "cleaneval": "CleanEval"}


def cleaning_check_table(name: str) -> str:
    """What ``configs/cleaning/NAME.toml`` checks (``eval-cleaning --check``): per set its pages and metrics with
    their tolerance, then the tools; not the expected values, which ``--write-check`` rewrites on its own."""
    cfg = tomllib.loads((ROOT / "configs" / "cleaning" / f"{name}.toml").read_text())
    tol = cfg["tolerance"]
    lines = ["| set | pages | checked ± tolerance |", "|---|---|---|"]
    for s, spec in cfg["run"]["sets"].items():
        pages = f"first {spec['first']}" if "first" in spec else f"first {spec['per_type']} of each page type"
        checked = ", ".join(f"{CHECK_METRICS.get(m, m)} ± {tol[m]:g}" for m in spec["metrics"])
        lines.append(f"| {SET_NAMES.get(s, s)} | {pages} | {checked} |")
    return "\n".join(lines) + "\n\nTools: " + ", ".join(f"`{t}`" for t in cfg["run"]["tools"]) + "."


# -- configs ---------------------------------------------------------------------------------------------------
def _config(name: str) -> dict:
    return tomllib.loads((ROOT / "configs" / f"{name}.toml").read_text())


def expect_table(name: str) -> str:
    cfg = _config(name)
    default_tol = cfg.get("eval", {}).get("tolerance", 1e-4)
    metrics = list(dict.fromkeys(m for v in cfg["variants"] for m in v.get("expect", {})))
    lines = ["| variant | " + " | ".join(metrics) + " | ± |", "|---|" + "---:|" * (len(metrics) + 1)]
    for v in cfg["variants"]:
        exp = v.get("expect", {})
        cells = [f"{exp[m]:.4f}" if m in exp else "" for m in metrics]
        tol = f"{v.get('tolerance', default_tol):g}" if exp else "not checked"
        lines.append(f"| {v['name']} | " + " | ".join(cells) + f" | {tol} |")
    return "\n".join(lines)


def configs_table() -> str:
    lines = ["| config | variants | with `expect` | checked metrics | `--check` in CI |", "|---|---:|---:|---|---|"]
    for path in sorted(p for p in (ROOT / "configs").glob("*.toml") if not p.name.startswith(".")):
        cfg = tomllib.loads(path.read_text())
        checked = [v for v in cfg["variants"] if v.get("expect")]
        metrics = sorted({m for v in checked for m in v["expect"]})
        lines.append(f"| [`{path.name}`](../configs/{path.name}) | {len(cfg['variants'])} | {len(checked)} | "
                     f"{', '.join(metrics)} | {'yes' if path.stem in CI_CHECKED else 'no: too long'} |")
    return "\n".join(lines)


# -- faults on a multi-host cluster ----------------------------------------------------------------------------
def multihost_table(name: str) -> str:
    """Fault x seed of ``results/cluster/NAME.json`` (``scripts/bench/multihost.py --json``), then its command."""
    sys.path.insert(0, str(ROOT))
    from tests.multihost import table

    data = json.loads((RESULTS / "cluster" / f"{name}.json").read_text())
    return table(data["outcomes"], data["uninterrupted_s"]) + f"\n\n`{data['command']}` ({data['workers']} worker nodes)"


# -- markers ---------------------------------------------------------------------------------------------------
def render_spec(spec: str) -> str:
    kind, *rest = spec.split()
    args = [a for a in rest if "=" not in a]
    kw = dict(a.split("=", 1) for a in rest if "=" in a)
    if kind == "cleaning":
        return cleaning_table(*args, **kw)
    if kind == "cleaning-command":
        return cleaning_command(*args)
    if kind == "cleaning-check":
        return cleaning_check_table(*args)
    if kind == "page-types":
        return page_types_table(*args, **kw)
    if kind == "expect":
        return expect_table(*args)
    if kind == "configs":
        return configs_table()
    if kind == "multihost":
        return multihost_table(*args)
    raise ValueError(f"unknown table kind {kind!r} in <!-- table:{spec} -->: use cleaning, cleaning-command, "
                     "cleaning-check, page-types, expect, configs or multihost")


def render(text: str) -> str:
    return MARKER.sub(lambda m: m.group(1) + render_spec(m.group("spec").strip()) + "\n" + m.group(4), text)


def stale(text: str) -> list[str]:
    """The specs of the generated tables in ``text`` that differ from what the result files render."""
    return [m.group("spec").strip() for m in MARKER.finditer(text)
            if m.group("body") != render_spec(m.group("spec").strip()) + "\n"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 when a generated table is stale")
    ap.add_argument("--import-cleaning", nargs=2, metavar=("JSON", "NAME"))
    a = ap.parse_args(argv)
    if a.import_cleaning:
        print(f"wrote {import_cleaning(Path(a.import_cleaning[0]), a.import_cleaning[1])}")
        return 0
    bad = 0
    for path in PAGES:
        if a.check:
            for spec in stale(path.read_text(encoding="utf-8")):
                print(f"{path.relative_to(ROOT)}: table '{spec}' differs from its result file: "
                      f"run python scripts/tools/render_docs.py", file=sys.stderr)
                bad += 1
        else:
            text = path.read_text(encoding="utf-8")
            new = render(text)
            if new != text:
                path.write_text(new, encoding="utf-8")
                print(f"updated {path.relative_to(ROOT)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
