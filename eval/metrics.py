"""Per-topic metrics with ir_measures (trec_eval semantics via its pytrec_eval backend).

Metric names are ir_measures' (``P@5``, ``P@10``, ``AP``, ``nDCG@10``; ``MAP`` is
accepted for ``AP``). Topics are those of the qrels that have at least one
relevant document; a judged topic missing from a run scores 0 (trec_eval -c),
so every run is averaged over the same topics and can be paired in tests.
Negative grades count as non-relevant (gain 0).
"""
from __future__ import annotations

import ir_measures

DEFAULT_METRICS = ("P@5", "P@10", "AP", "nDCG@10")
ALIASES = {"MAP": "AP", "NDCG@10": "nDCG@10", "ndcg@10": "nDCG@10", "map": "AP"}


COMMON = ("P@5", "P@10", "P@20", "P@30", "AP", "nDCG@10", "nDCG@20", "nDCG", "RR", "RR@10", "R@100", "R@1000",
          "Bpref", "Rprec", "Judged@10", "ERR@20")


def parse_metrics(names) -> list:
    """ir_measures measures of ``names``; ValueError naming the closest valid name for one it does not know."""
    if isinstance(names, str):
        names = [names]
    out = []
    for n in names:
        try:
            out.append(ir_measures.parse_measure(ALIASES.get(n, n)))
        except Exception:  # ir_measures raises NameError, ValueError, SyntaxError ... for a bad name
            import difflib

            near = difflib.get_close_matches(n, COMMON, n=1, cutoff=0.3) or \
                [c for c in COMMON if c.lower() == str(n).lower()]
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise ValueError(f"unknown metric {n!r}{hint}; use ir_measures names such as "
                             f"{', '.join(COMMON[:6])}") from None
    return out


def judged_topics(qrels: dict[str, dict[str, int]]) -> list[str]:
    return sorted((q for q, docs in qrels.items() if any(r > 0 for r in docs.values())), key=_qid_key)


def _qid_key(q: str):
    return (0, int(q), "") if q.isdigit() else (1, 0, q)


def per_topic(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]], metrics=DEFAULT_METRICS
              ) -> dict[str, dict[str, float]]:
    """{metric name: {qid: value}} over :func:`judged_topics`."""
    measures = parse_metrics(metrics)
    topics = judged_topics(qrels)
    qrel_rows = [ir_measures.Qrel(q, d, max(r, 0)) for q in topics for d, r in qrels[q].items()]
    run_rows = [ir_measures.ScoredDoc(q, d, s) for q in topics for d, s in run.get(q, {}).items()]
    out = {str(m): {q: 0.0 for q in topics} for m in measures}
    for m in ir_measures.iter_calc(measures, qrel_rows, run_rows):
        out[str(m.measure)][m.query_id] = float(m.value)
    return out


def mean(values: dict[str, float]) -> float:
    return sum(values.values()) / len(values) if values else 0.0
