"""The paper's evidence (issue 11): corrected significance, CO₂ arithmetic, query loads, config errors,
and the report itself -- built from a synthetic experiment, rendered by chromium, and once on CACM."""
import json
import random
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import pytrec_eval
from scipy.stats import ttest_rel, wilcoxon

from eval import correction
from eval.metrics import per_topic
from eval.report import write_report
from eval.report.co2 import break_even, costs, paper_kg
from eval.evaluate import evaluate
from eval.significance import ttest_p, wilcoxon_p
from eval.trec_files import read_qrels
from search.load import load_queries
from tests.conftest import ROOT, SHARED, shared
from tests.test_eval import fake_run, write_run
from webprune.config import load_config

CACM = SHARED / "retrieval" / "cacm"


# -- statistics ---------------------------------------------------------------------------------------------------
def test_holm_and_bonferroni_match_a_worked_example():
    p = {"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.005}
    # Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> monotone 0.02, 0.03, 0.06, 0.06
    assert correction.adjust(p, "holm") == pytest.approx({"a": 0.03, "b": 0.06, "c": 0.06, "d": 0.02})
    assert correction.adjust(p, "bonferroni") == pytest.approx({"a": 0.04, "b": 0.16, "c": 0.12, "d": 0.02})
    assert correction.adjust(p, "none") == p
    assert correction.adjust({"a": 0.6, "b": 0.7}, "holm") == {"a": 1.0, "b": 1.0}  # capped at 1
    with pytest.raises(ValueError, match="did you mean 'holm'"):
        correction.adjust(p, "hlm")


def test_wilcoxon_and_t_test_p_values_equal_scipys():
    rng = random.Random(7)
    base = {str(q): rng.random() for q in range(40)}
    run = {q: min(1.0, v + rng.gauss(0.05, 0.1)) for q, v in base.items()}
    qs = sorted(base)
    assert wilcoxon_p(run, base) == pytest.approx(wilcoxon([run[q] for q in qs], [base[q] for q in qs]).pvalue,
                                                  rel=1e-12)
    assert ttest_p(run, base) == pytest.approx(ttest_rel([run[q] for q in qs], [base[q] for q in qs]).pvalue,
                                               rel=1e-12)
    assert ttest_p(base, base) == 1.0 and wilcoxon_p(base, base) == 1.0


def _three_runs(tmp_path):
    qrels = read_qrels(shared("retrieval", "cacm", "qrels.cacm.txt"))
    paths = {}
    for name, seed in (("base", 1), ("v1", 2), ("v2", 3)):
        write_run(fake_run(qrels, seed), tmp_path / f"{name}.txt")
        paths[name] = tmp_path / f"{name}.txt"
    return qrels, paths


def test_corrected_marks_use_adjusted_p_values_and_metrics_equal_pytrec_eval(tmp_path):
    qrels, paths = _three_runs(tmp_path)
    result = evaluate(CACM / "qrels.cacm.txt", paths, baseline="base", metrics=["P@30", "nDCG@20", "AP"],
                      alpha=0.05)
    correction.apply(result, "bonferroni", ttest=True)
    for metric in ("P@30", "nDCG@20", "AP"):
        raw = {n: result["runs"][n][metric]["p_value"] for n in ("v1", "v2")}
        for n in ("v1", "v2"):
            e = result["runs"][n][metric]
            assert e["p_adjusted"] == pytest.approx(min(1.0, 2 * raw[n]))
            assert e["p_ttest"] == pytest.approx(ttest_p(e["per_topic"], result["runs"]["base"][metric]["per_topic"]))
            assert (e["mark"] != "") == (e["p_adjusted"] < 0.05)
    # any ir_measures name, equal to pytrec_eval's to 4 decimals
    from eval.trec_files import read_run

    run = read_run(paths["v1"])
    ours = per_topic(qrels, run, ["P@30", "nDCG@20"])
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"P_30", "ndcg_cut_20"}).evaluate(run)
    for q in ours["P@30"]:
        assert round(ours["P@30"][q], 4) == round(ref[q]["P_30"], 4)
        assert round(ours["nDCG@20"][q], 4) == round(ref[q]["ndcg_cut_20"], 4)


# -- CO₂ ----------------------------------------------------------------------------------------------------------
def test_co2_follows_the_papers_formula_on_a_worked_example():
    # 2 CPU-hours at C_e = 0.341 kg/kWh on a 65 W CPU: 2 h * 65 W = 0.13 kWh -> 0.04433 kg
    assert paper_kg(2.0, 0.341, 65.0) == pytest.approx(0.04433)
    # extra one-off 10 units, 0.001 saved per query -> 10,000 queries; nothing saved -> never
    assert break_even(10.0, 0.001) == 10_000
    assert break_even(10.0, 0.0) is None and break_even(10.0, -0.001) is None
    assert break_even(-1.0, 0.001) == 0
    assert break_even(-1.0, -0.001) == -1000  # cheaper up front, behind after 1,000 queries
    row = _row(pre_cpu=3600.0, index_cpu=0.0, load_cpu=36.0, queries=1000)
    c = costs(row, 0.341, 100.0)
    assert c["one_off_kg"] == pytest.approx(1 * 0.341 * 100 / 1000)
    assert c["query_kg"] == pytest.approx(36.0 / 1000 / 3600 * 0.341 * 100 / 1000)


# -- query loads --------------------------------------------------------------------------------------------------
def test_query_load_is_seeded_exact_and_comes_from_titles_or_a_file(tmp_path):
    coll = tmp_path / "collection"
    coll.mkdir()
    docs = [{"id": f"d{i}", "title": f"title number {i}", "contents": f"title number {i}\nbody"} for i in range(50)]
    docs.append({"id": "x", "contents": "first line only\nrest"})
    (coll / "s.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    a = load_queries(30, collection=tmp_path, seed=1)
    assert len(a) == 30 and a == load_queries(30, collection=tmp_path, seed=1)
    assert a != load_queries(30, collection=tmp_path, seed=2)
    assert set(a.values()) <= {d["title"] for d in docs[:50]} | {"first line only"}
    assert len(load_queries(500, collection=tmp_path, seed=1)) == 500  # more than there are titles
    f = tmp_path / "q.txt"
    f.write_text("q1\tfirst query\n\nsecond query\n")
    assert list(load_queries(5, file=f).values()) == ["first query", "second query"] * 2 + ["first query"]
    with pytest.raises(FileNotFoundError, match="no such query file"):
        load_queries(5, file=tmp_path / "missing.txt")
    with pytest.raises(ValueError, match="positive"):
        load_queries(0, collection=tmp_path)


# -- config errors ------------------------------------------------------------------------------------------------
BASE = f"""\
[collection]
inputs = ["{CACM}/cacm.tar.gz"]
[topics]
path = "{CACM}/topics.cacm.txt"
[qrels]
path = "{CACM}/qrels.cacm.txt"
"""


@pytest.mark.parametrize("extra, message", [
    ('[eval]\ncorrection = "holmes"', "unknown correction 'holmes' .did you mean 'holm'"),
    ('[search]\nload = -5', "load must be a number of queries >= 0"),
    ('[search]\nload = 10\nload_file = "nope.txt"', "load_file 'nope.txt': no such query file"),
    ('[search]\nrepeats = 2', "repeats must be at least 3"),
    ('[search]\nlaod = 10', "did you mean 'load'"),
    ('[co2]\nintensity = 0.3', "needs 'tdp'"),
    ('[co2]\ntdp = 65\ncodecarbn = false', "did you mean 'codecarbon'"),
    ('[cleaning]\nsets = ["cleaneval"]', "unknown set 'cleaneval'"),
    ('[report]\nmetric = "MAPP"', "unknown metric"),
    ('[eval]\nttest = "yes"', "must be true or false"),
])
def test_bad_report_settings_are_refused(tmp_path, extra, message):
    p = tmp_path / "c.toml"
    p.write_text(BASE + extra + "\n")
    with pytest.raises(ValueError, match=message):
        load_config(p)
    if "correction" not in extra and "load" not in extra:
        return
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", "run", str(p)], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "error:" in proc.stderr, proc.stderr[-500:]


# -- the report ---------------------------------------------------------------------------------------------------
def _cc(kg):
    return {"kg": kg, "kwh": kg * 3, "cpu_power_w": 8, "ram_power_w": 10, "duration_s": 1, "cpu_model": "X",
            "country": "Spain", "methods": {"CPU": "cpu_load"}, "version": "3"}


def _timing(cpu, queries, k=1000):
    return {"repeats": 3, "queries": queries, "k": k, "wall_s": {"median": cpu, "min": cpu * 0.9, "max": cpu * 1.2},
            "cpu_s": {"median": cpu, "min": cpu, "max": cpu}, "queries_per_s": queries / cpu,
            "codecarbon": _cc(3e-6), "source": "test"}


def _row(pre_cpu=2.0, index_cpu=4.0, load_cpu=1.0, queries=200, threshold=None, index_bytes=2_000_000):
    pre = {"written": 3204, "wall_s": 5.0, "executor": "ray", "counters": {"bytes_out": 100},
           "times": {"read": {"wall_s": 1, "cpu_s": pre_cpu / 2}, "tags": {"wall_s": 1, "cpu_s": pre_cpu / 2}}}
    cleaning = {"cleaner": "tags"}
    if threshold:
        pre["pruning"] = {"model": "/m/general-2gram.bin", "score": "perplexity", "threshold": threshold}
        cleaning |= {"prune_model": "/m/general-2gram.bin", "max_perplexity": threshold}
    return {"cleaning": cleaning, "preprocess": pre, "preprocess_energy": {"codecarbon": _cc(1e-5)},
            "index_stats": {"wall_s": 3.0, "documents": 3204, "index_bytes": index_bytes, "collection_bytes": 700_000},
            "index_energy": {"wall_s": 3.0, "cpu_s": 0.1, "cpu_s_children": index_cpu - 0.1,
                             "codecarbon": _cc(2e-5)},
            "search_timing": _timing(0.5, 64), "load": _timing(load_cpu, queries, k=10)}


def _summary(tmp_path):
    _, paths = _three_runs(tmp_path)
    result = evaluate(CACM / "qrels.cacm.txt", paths, baseline="base", metrics=["P@10", "AP"])
    correction.apply(result, "holm", ttest=True)
    rows = {"base": _row(), "v1": _row(pre_cpu=3.0, load_cpu=0.8, threshold=1000, index_bytes=1_500_000),
            "v2": _row(pre_cpu=2.5, load_cpu=1.1, threshold=4000, index_bytes=1_800_000)}
    return {"variants": rows, "evaluation": result}


SECTIONS = ("## Effectiveness", "### p-values", "## Efficiency", "### Preprocessing steps", "## CO₂",
            "### The paper's estimate", "### codecarbon's figure")
PLOTS = ("index_size", "metric_vs_threshold", "per_topic", "throughput")


def test_report_holds_every_table_and_plot_and_chromium_renders_them(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text(BASE + '[eval]\ncorrection = "holm"\n[co2]\ntdp = 65\n[report]\nmetric = "AP"\n')
    exp = load_config(cfg)
    summary = _summary(tmp_path)
    summary["cleaning"] = {"options": {"sets": ["cleaneval-dev"], "limit": 5}, "pages": 5,
                           "table": "### cleaneval-dev (5 pages)\n\n| tool | word F1 |\n|---|---:|\n| tags | 85.9 |\n\n"
                                    "### Summary: word F1 (docs/s/core)\n\n| tool | cleaneval-dev |\n|---|---:|\n"
                                    "| tags | 85.9 (500) |"}
    rep = write_report(exp, tmp_path, summary)
    md = (tmp_path / "report.md").read_text()
    for s in SECTIONS + ("## Cleaning quality against human gold text", "### Set: cleaneval-dev"):
        assert s in md, s
    assert "### Summary" not in md  # one set: its summary would only repeat it
    assert "Holm–Bonferroni" in md and "C_e = 0.341 kg/kWh" in md and "W_cpu = 65 W" in md
    # v1: extra one-off 1 CPU-s, saves 0.2 s / 200 queries = 0.001 s per query -> 1,000 queries
    assert "| v1 | " in md and "| 1,000 |" in md
    assert rep["co2"]["v1"]["break_even"] == 1000 and rep["co2"]["v2"]["break_even"] is None
    assert set(rep["plots"]) == set(PLOTS) and all((tmp_path / "plots" / f"{p}.png").stat().st_size > 5000
                                                   for p in PLOTS)
    html = (tmp_path / "report.html").read_text()
    assert html.count("<table>") == md.count("\n|---") and html.count('src="data:image/png;base64,') == 4
    assert browser_problems(tmp_path / "report.html", tables=html.count("<table>"), images=4) == []


# a copy of the report gets this, so that the DOM chromium dumps says what the browser made of the page
PROBE = """<script>window.addEventListener("load", () => {
  const broken = [...document.images].filter(i => !i.complete || i.naturalWidth === 0).length;
  document.body.setAttribute("data-broken-images", String(broken));
  document.body.setAttribute("data-text-chars", String(document.body.innerText.trim().length));
});</script>"""


def chromium() -> str:
    found = shutil.which("chromium")
    assert found, "Debian's chromium is not installed: bash scripts/setup.sh --test installs it (apt-get install chromium)"
    return found


def browser_problems(html: Path, tables: int, images: int) -> list[str]:
    """What a real browser (headless chromium) finds wrong with a report page: tables or images missing, an
    image that does not decode, a page without readable text, a screenshot that is blank."""
    probe = html.with_name(html.stem + "-probe.html")
    probe.write_text(html.read_text().replace("</body>", PROBE + "</body>"))
    flags = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
             "--disable-background-networking", "--disable-component-update", f"--user-data-dir={html.parent / '.chrome'}",
             "--virtual-time-budget=5000"]
    dom = subprocess.run([*flags, "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=90).stdout
    problems = []
    if dom.count("<table>") != tables:
        problems.append(f"{dom.count('<table>')} tables rendered, {tables} in the page")
    if dom.count("<img") != images:
        problems.append(f"{dom.count('<img')} images rendered, {images} expected")
    broken = re.search(r'data-broken-images="(\d+)"', dom)
    if broken is None or broken.group(1) != "0":
        problems.append(f"{broken.group(1) if broken else 'unknown'} image(s) do not decode")
    chars = re.search(r'data-text-chars="(\d+)"', dom)
    if chars is None or int(chars.group(1)) < 2000:
        problems.append(f"the page shows {chars.group(1) if chars else 'no'} characters of text")
    for section in ("Effectiveness", "Efficiency", "CO₂"):
        if section not in dom:
            problems.append(f"no {section} section")
    shot = html.with_name("shot.png")
    subprocess.run([*flags, f"--screenshot={shot}", "--window-size=1400,3000", html.as_uri()], capture_output=True,
                   timeout=90)
    if not shot.exists() or shot.stat().st_size < 50_000:
        problems.append("the screenshot is blank or missing")
    return problems


def test_the_browser_check_fails_on_a_report_with_a_broken_or_missing_plot(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text(BASE + '[co2]\ntdp = 65\n[report]\nmetric = "AP"\n')
    write_report(load_config(cfg), tmp_path, _summary(tmp_path))
    html = (tmp_path / "report.html").read_text()
    tables = html.count("<table>")
    start = html.index('src="data:image/png;base64,') + len('src="data:image/png;base64,')
    (tmp_path / "broken.html").write_text(html[:start] + "bm90IGEgcG5n" + html[html.index('"', start):])  # "not a png"
    assert "1 image(s) do not decode" in browser_problems(tmp_path / "broken.html", tables, 4)
    img = html.index("<img")
    (tmp_path / "missing.html").write_text(html[:img] + html[html.index(">", img) + 1:])
    assert "3 images rendered, 4 expected" in browser_problems(tmp_path / "missing.html", tables, 4)


@pytest.mark.slow
def test_cacm_report_end_to_end_with_a_query_load(tmp_path):
    """The real thing on CACM: baseline and one pruned variant, 200 load queries x 3 repeats, codecarbon."""
    shared("retrieval", "cacm")
    model = ROOT / "build" / "models" / "general-2gram.bin"
    if not model.exists():
        pytest.skip(f"{model} missing: `webprune run configs/cacm-sweep.toml` trains it")
    cfg = tmp_path / "cacm.toml"
    cfg.write_text(BASE + textwrap.dedent(f"""\
        [preprocess]
        workers = 2
        [search]
        mu = 1000
        load = 200
        [eval]
        metrics = ["P@10", "AP"]
        correction = "holm"
        ttest = true
        [co2]
        tdp = 65
        [models.bigram]
        corpus = ["unused.txt"]
        output = "{model}"
        [[variants]]
        name = "tags"
        cleaner = "tags"
        [[variants]]
        name = "bigram-1k"
        cleaner = "tags"
        model = "bigram"
        max_perplexity = 1000
        """))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", "run", str(cfg), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert time.perf_counter() - t0 < 90
    out = tmp_path / "out"
    summary = json.loads((out / "results.json").read_text())
    for name in ("tags", "bigram-1k"):
        v = summary["variants"][name]
        assert v["load"]["queries"] == 200 and len(v["load"]["runs"]) == 3 and v["load"]["codecarbon"]["kg"] > 0
        assert v["load"]["wall_s"]["min"] <= v["load"]["wall_s"]["median"] <= v["load"]["wall_s"]["max"]
        assert v["index_energy"]["cpu_s_children"] > 0 and v["preprocess_energy"]["codecarbon"]["kg"] > 0
    assert len((out / "load-queries.tsv").read_text().splitlines()) == 200
    ap = summary["evaluation"]["runs"]["bigram-1k"]["AP"]
    assert ap["mark"] == "↓" and ap["p_adjusted"] == ap["p_value"]  # one compared variant: Holm changes nothing
    md = (out / "report.md").read_text()
    for s in SECTIONS:
        assert s in md, s
    assert all((out / "plots" / f"{p}.png").exists() for p in PLOTS)
