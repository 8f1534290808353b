import random
import statistics

import pytest
import pytrec_eval

from eval.metrics import per_topic
from eval.evaluate import evaluate
from eval.report.tables import markdown_table
from eval.significance import mark, wilcoxon_p
from eval.trec_files import read_qrels
from tests.conftest import shared

TREC = {"P@5": "P_5", "P@10": "P_10", "AP": "map", "nDCG@10": "ndcg_cut_10"}


def fake_run(qrels, seed, noise_docs=30):
    """A run that ranks some judged and some unjudged documents, with ties."""
    rng = random.Random(seed)
    run = {}
    for q, docs in qrels.items():
        pool = list(docs) + [f"unjudged-{i}" for i in range(noise_docs)]
        rng.shuffle(pool)
        run[q] = {d: float(rng.randint(0, 20)) for d in pool[: rng.randint(5, 60)]}
    return run


def write_run(run, path):
    with open(path, "w") as f:
        for q, docs in run.items():
            for r, (d, s) in enumerate(sorted(docs.items(), key=lambda x: -x[1]), 1):
                f.write(f"{q} Q0 {d} {r} {s} t\n")


@pytest.mark.parametrize("qrels_file", [("retrieval", "trec-web-2013", "qrels.web.201-250.txt"),
                                        ("retrieval", "trec-dt-2019", "qrels.decision2019.txt"),
                                        ("retrieval", "cacm", "qrels.cacm.txt")])
def test_metrics_equal_pytrec_eval_on_real_qrels(qrels_file, tmp_path):
    qrels = read_qrels(shared(*qrels_file))
    run = fake_run(qrels, seed=len(qrels))
    ours = per_topic(qrels, run)
    # trec_eval semantics: negative grades are non-relevant; only topics with a relevant document count
    clamped = {q: {d: max(r, 0) for d, r in docs.items()} for q, docs in qrels.items()}
    ref = pytrec_eval.RelevanceEvaluator(clamped, set(TREC.values())).evaluate(run)
    ref = {q: v for q, v in ref.items() if any(r > 0 for r in qrels[q].values())}
    for ours_name, trec_name in TREC.items():
        assert set(ours[ours_name]) == set(ref)
        for q in ref:
            assert ours[ours_name][q] == pytest.approx(ref[q][trec_name], abs=1e-9), (ours_name, q)


def test_web_track_negative_grades_count_as_non_relevant():
    qrels = {"1": {"spam": -2, "good": 1, "junk": 0}}
    top_spam = per_topic(qrels, {"1": {"spam": 3.0, "good": 2.0}})
    no_spam = per_topic(qrels, {"1": {"good": 3.0}})
    assert top_spam["P@5"]["1"] == pytest.approx(0.2)
    assert top_spam["AP"]["1"] == pytest.approx(0.5) and no_spam["AP"]["1"] == 1.0


def test_judged_topic_missing_from_run_scores_zero():
    qrels = {"1": {"a": 1}, "2": {"b": 1}}
    scores = per_topic(qrels, {"1": {"a": 1.0}})
    assert scores["AP"] == {"1": 1.0, "2": 0.0}


def test_wilcoxon_marks_and_identical_runs():
    base = {str(i): 0.2 + 0.01 * (i % 3) for i in range(30)}
    better = {q: v + 0.1 + 0.001 * int(q) for q, v in base.items()}
    p = wilcoxon_p(better, base)
    assert p < 0.001 and mark(p, 0.1) == "↑" and mark(p, -0.1) == "↓"
    assert wilcoxon_p(base, dict(base)) == 1.0 and mark(1.0, 0.0) == ""
    noisy = {q: v + (0.01 if int(q) % 2 else -0.01) for q, v in base.items()}
    assert mark(wilcoxon_p(noisy, base), 0.0) == ""


def test_evaluate_report_against_baseline(tmp_path):
    qrels_path = shared("retrieval", "cacm", "qrels.cacm.txt")
    qrels = read_qrels(qrels_path)
    good = {q: {d: 10.0 for d in docs} for q, docs in qrels.items()}  # every relevant doc on top
    bad = fake_run(qrels, seed=1)
    write_run(good, tmp_path / "good.txt")
    write_run(bad, tmp_path / "bad.txt")
    r = evaluate(qrels_path, {"bad": tmp_path / "bad.txt", "good": tmp_path / "good.txt"}, baseline="bad")
    assert r["runs"]["good"]["AP"]["mean"] == pytest.approx(1.0)
    assert r["runs"]["good"]["AP"]["mark"] == "↑" and r["runs"]["good"]["AP"]["topics"] == 52
    table = markdown_table(r)
    assert "| good | 1.0000↑" in table.replace("  ", " ") or "1.0000↑" in table
    assert statistics.mean(r["runs"]["bad"]["AP"]["per_topic"].values()) == pytest.approx(r["runs"]["bad"]["AP"]["mean"])


def _files(tmp_path, run: str, qrels: str):
    (tmp_path / "run.txt").write_text(run)
    (tmp_path / "qrels.txt").write_text(qrels)
    return tmp_path / "qrels.txt", tmp_path / "run.txt"


def test_a_run_no_topic_of_which_is_judged_is_refused_naming_the_leading_zeros(tmp_path):
    qrels, run = _files(tmp_path, "01 Q0 d1 1 2.0 t\n02 Q0 d2 1 1.0 t\n", "1 0 d1 1\n2 0 d2 1\n")
    with pytest.raises(ValueError, match="leading zeros"):
        evaluate(qrels, {"run": run})


def test_each_judged_topic_a_run_lacks_is_named(tmp_path, caplog):
    qrels, run = _files(tmp_path, "1 Q0 d1 1 2.0 t\n9 Q0 d9 1 2.0 t\n", "1 0 d1 1\n2 0 d2 1\n3 0 d3 1\n")
    result = evaluate(qrels, {"run": run})
    said = [r.getMessage() for r in caplog.records]
    assert any("topic 2 is judged but not in the run" in m for m in said)
    assert any("topic 3 is judged but not in the run" in m for m in said)
    assert any("topic 9 is in the run but not judged" in m for m in said)
    assert result["runs"]["run"]["P@5"]["topics"] == 3
