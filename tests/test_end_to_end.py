"""The whole path on the built-in example, and on CACM against Pyserini's own CLI and pytrec_eval."""
import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
import pytrec_eval

from eval.trec_files import read_qrels, read_run
from preprocess.driver.preprocess import run_preprocess
from tests.conftest import ROOT, local_run, shared

pytestmark = pytest.mark.slow


def test_example_end_to_end_in_well_under_a_minute(tmp_path):
    """`webprune example` (the README's first command) as a user runs it: results, report with CO2, its paths."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", "example", "-o", str(tmp_path / "ex")],
                          capture_output=True, text=True, cwd=tmp_path)
    elapsed = time.perf_counter() - t0
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert elapsed < 45, f"example took {elapsed:.1f} s"
    summary = json.loads((tmp_path / "ex" / "results.json").read_text())
    # it ends with the report's two paths, absolute, so a user can open them from anywhere
    last = proc.stdout.rstrip("\n").split("\n")[-2:]
    assert last == [f"report: {tmp_path / 'ex' / 'report.html'}", f"        {tmp_path / 'ex' / 'report.md'}"], last
    md = (tmp_path / "ex" / "report.md").read_text()
    co2 = md.split("## CO₂")[1]
    for table in co2.split("### ")[1:3]:  # the paper's estimate and codecarbon's, one row per variant
        assert all(f"| {v}" in table for v in ("tags (baseline)", "learned", "learned+crawl-pruned")), table
    assert "W_cpu = 120 W" in co2 and "OfflineEmissionsTracker" in co2 and "break-even" in co2
    assert md.index("## CO₂") > md.index("plots/throughput.png")  # beside the plots, in the same report
    rep = summary["report"]["co2"]
    assert rep["tags"]["one_off_cc_kg"] > 0 and rep["learned"]["one_off_kg"] > 0
    # the config's own expected values (what `webprune run configs/example.toml --check` compares)
    assert len(summary["checks"]) >= 6 and all(c["ok"] for c in summary["checks"]), summary["checks"]
    row = summary["variants"]["tags"]
    assert row["preprocess"]["written"] == 13 and row["preprocess"]["unaccounted"] == 0
    assert row["index_stats"]["documents"] == 13 and row["index_stats"]["index_bytes"] > 0
    ev = summary["evaluation"]["runs"]
    # after the learned cleaner each topic's best page (rel 2) comes first: the pages are written to be unambiguous;
    # with tag removal alone ex-13's sidebar of bicycle-chain links makes it the top hit of topic 3
    qrels = read_qrels(ROOT / "webprune" / "example" / "qrels.txt")
    for variant, wrong in (("tags", {"3": "ex-13"}), ("learned", {})):
        for q, docs in read_run(tmp_path / "ex" / "runs" / f"{variant}.txt").items():
            best = max(docs, key=docs.get)
            assert best == wrong[q] if q in wrong else qrels[q][best] == 2, (variant, q, best)
    assert ev["learned"]["AP"]["mean"] > ev["tags"]["AP"]["mean"] + 0.05
    assert ev["learned"]["nDCG@10"]["mean"] > 0.95 > ev["tags"]["nDCG@10"]["mean"]
    cleaned = summary["variants"]["learned"]
    assert cleaned["index_stats"]["index_bytes"] < 0.9 * row["index_stats"]["index_bytes"]
    assert (tmp_path / "ex" / "report.html").exists() and (tmp_path / "ex" / "plots" / "index_size.png").exists()
    assert (tmp_path / "ex" / "results.md").read_text().count("| tags (baseline) |") == 1
    shard = next(p for p in (tmp_path / "ex" / "collections").glob("*/collection/*.jsonl.gz")
                 if p.parent.parent.name == Path(row["collection"]).name)
    docs = [json.loads(l) for l in gzip.open(shard, "rt")]
    docs_by_id = {d["id"]: d for d in docs}
    assert {d["id"] for d in docs} == {f"ex-{i:02d}" for i in range(1, 14)}
    assert all(d["url"].startswith("http://tinkerer.example/") for d in docs)
    # the recommended pipeline with pruning: a contrastive model learned from the example's own crawl prunes what the
    # learned cleaner kept at 3 bits per token, and keeps every page and its title
    pruned = summary["variants"]["learned+crawl-pruned"]["preprocess"]
    assert pruned["written"] == 13 and pruned["pruning"]["threshold"] == 3.0
    c = pruned["counters"]
    assert 0 < c["prune.sentences_dropped"] < c["prune.sentences"] / 10
    assert c["bytes_out"] < cleaned["preprocess"]["counters"]["bytes_out"]
    shard = next(p for p in (tmp_path / "ex" / "collections").glob("*/collection/*.jsonl.gz")
                 if p.parent.parent.name == Path(summary["variants"]["learned+crawl-pruned"]["collection"]).name)
    pruned_docs = {d["id"]: d for d in map(json.loads, gzip.open(shard, "rt"))}
    lines = pruned_docs["ex-03"]["contents"].split("\n")
    assert lines[0] == docs_by_id["ex-03"]["title"] and "Sitemap" not in lines and "Login" not in lines
    assert any("backpedal the chain" in l for l in lines)


def test_ray_workers_give_the_same_shards_as_one_local_process(tmp_path):
    inputs = [str(shared("warc"))]
    local = run_preprocess(inputs, str(tmp_path / "local"), run=local_run(), progress=False)
    ray_ = run_preprocess(inputs, str(tmp_path / "ray"), run=local_run(executor="ray", workers=2, batch_size=4),
                          progress=False)
    assert ray_["workers"] == 2 and ray_["executor"] == "ray"
    for key in ("records", "written", "skipped", "failed", "unaccounted"):
        assert ray_[key] == local[key], key
    for shard in sorted((tmp_path / "local" / "collection").iterdir()):
        assert shard.read_bytes() == (tmp_path / "ray" / "collection" / shard.name).read_bytes(), shard.name
    assert ray_["times"]["tags"]["cpu_s"] > 0  # step timings come back from the actors


@pytest.fixture(scope="module")
def cacm(tmp_path_factory):
    """CACM cleaned, indexed and searched by `webprune run configs/cacm.toml`."""
    shared("retrieval", "cacm", "cacm.tar.gz")  # and the topics, qrels and LM corpus beside it
    out = tmp_path_factory.mktemp("cacm")
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", "run", str(ROOT / "configs" / "cacm.toml"), "-o", str(out),
                           "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((out / "results.json").read_text())
    return out, summary, proc.stdout


def test_cacm_collection_and_index(cacm):
    out, summary, stdout = cacm
    v = summary["variants"]["tags-mu1000"]
    assert v["preprocess"]["records"] == v["preprocess"]["written"] == 3204
    assert v["index_stats"]["documents"] == 3204
    assert v["index"] == summary["variants"]["tags-mu2000"]["index"]  # one index serves both runs
    assert "| tags-mu1000 (baseline) |" in stdout and "tags-mu2000" in stdout
    # the config's own expected values (webprune run --check): MAP and P@10 of every variant
    assert stdout.count("\nOK   ") == 2 * 4 and "FAIL" not in stdout, stdout[-800:]


def test_cacm_mu1000_equals_pyserini_cli_line_for_line(cacm, tmp_path):
    out, summary, _ = cacm
    index = summary["variants"]["tags-mu1000"]["index"]
    ref = tmp_path / "pyserini.txt"
    env = dict(os.environ, OPENAI_API_KEY="unused")
    proc = subprocess.run([sys.executable, "-m", "tests.pyserini_cli", "pyserini.search.lucene", "--index", index,
                           "--topics", str(shared("retrieval", "cacm", "topics.cacm.txt")), "--qld", "--hits", "1000",
                           "--output", str(ref)], capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ours = (out / "runs" / "tags-mu1000.txt").read_text().splitlines()
    theirs = ref.read_text().splitlines()
    assert len(ours) == len(theirs) > 50000
    strip_tag = lambda lines: [l.rsplit(" ", 1)[0] for l in lines]
    assert strip_tag(ours) == strip_tag(theirs)


def test_cacm_bm25_equals_pyserini_cli_line_for_line(cacm, tmp_path):
    """`[search] model = "bm25"` (search.models) against `python -m pyserini.search.lucene --bm25` on the same index."""
    from search.models import RetrievalModel
    from search.qld import run_search
    from search.topics import read_topics

    out, summary, _ = cacm
    index = summary["variants"]["tags-mu1000"]["index"]
    topics_file = str(shared("retrieval", "cacm", "topics.cacm.txt"))
    ours = tmp_path / "ours.txt"
    stats = run_search(index, read_topics(topics_file), ours, k=1000, model=RetrievalModel("bm25", k1=0.9, b=0.4))
    assert stats["label"] == "BM25 k1=0.9 b=0.4"
    ref = tmp_path / "pyserini.txt"
    env = dict(os.environ, OPENAI_API_KEY="unused")
    proc = subprocess.run([sys.executable, "-m", "tests.pyserini_cli", "pyserini.search.lucene", "--index", index,
                           "--topics", topics_file, "--bm25", "--k1", "0.9", "--b", "0.4", "--hits", "1000",
                           "--output", str(ref)], capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    strip_tag = lambda lines: [l.rsplit(" ", 1)[0] for l in lines]
    ours, theirs = ours.read_text().splitlines(), ref.read_text().splitlines()
    assert len(ours) == len(theirs) > 50000
    assert strip_tag(ours) == strip_tag(theirs)
    qld = (out / "runs" / "tags-mu1000.txt").read_text().splitlines()
    assert strip_tag(qld) != strip_tag(ours)  # a different model ranks differently


def test_cacm_mu2000_equals_lucene_searcher_set_qld(cacm):
    out, summary, _ = cacm
    index = summary["variants"]["tags-mu2000"]["index"]
    code = f"""
import os, sys
from index.java import configure_java
configure_java(); os.environ.setdefault("OPENAI_API_KEY", "unused")
from pyserini.search.lucene import LuceneSearcher
from search.topics import read_topics
s = LuceneSearcher({index!r}); s.set_qld(2000)
topics = read_topics({str(shared("retrieval", "cacm", "topics.cacm.txt"))!r})
for q, text in topics.items():
    for r, h in enumerate(s.search(text, k=1000), 1):
        print(f"{{q}} Q0 {{h.docid}} {{r}} {{h.score:.6f}}")
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ours = [l.rsplit(" ", 1)[0] for l in (out / "runs" / "tags-mu2000.txt").read_text().splitlines()]
    assert ours == proc.stdout.splitlines()


def test_cacm_metrics_equal_pytrec_eval(cacm):
    out, summary, _ = cacm
    qrels = read_qrels(shared("retrieval", "cacm", "qrels.cacm.txt"))
    names = {"P@5": "P_5", "P@10": "P_10", "AP": "map", "nDCG@10": "ndcg_cut_10"}
    for variant in ("tags-mu1000", "tags-mu2000"):
        ref = pytrec_eval.RelevanceEvaluator(qrels, set(names.values())).evaluate(read_run(out / "runs" / f"{variant}.txt"))
        ref = {q: v for q, v in ref.items() if any(r > 0 for r in qrels[q].values())}
        ours = summary["evaluation"]["runs"][variant]
        for m, t in names.items():
            assert round(ours[m]["mean"], 4) == round(statistics.mean(v[t] for v in ref.values()), 4), (variant, m)
    assert summary["evaluation"]["runs"]["tags-mu1000"]["AP"]["mean"] > 0.25  # sanity: CACM QLD MAP is ~0.3
