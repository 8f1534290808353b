"""Readers for TREC qrels and run files."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path


def read_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """``qid iter docid rel [more columns]`` -> {qid: {docid: rel}}.

    Extra columns (the Decision Track's effectiveness/credibility) are ignored.
    Negative grades (Web Track spam/junk, -2/-1) are kept here and treated as
    non-relevant (gain 0) by :mod:`eval.metrics`, as trec_eval does.
    """
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) < 4:
            raise ValueError(f"{path}:{n}: expected 'qid iter docid relevance', got {line!r}")
        qrels[parts[0]][parts[2]] = int(float(parts[3]))
    if not qrels:
        raise ValueError(f"{path}: no judgements")
    return dict(qrels)


def read_run(path: str | Path) -> dict[str, dict[str, float]]:
    """``qid Q0 docid rank score tag`` -> {qid: {docid: score}}."""
    run: dict[str, dict[str, float]] = defaultdict(dict)
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) < 5:
            raise ValueError(f"{path}:{n}: expected 'qid Q0 docid rank score tag', got {line!r}")
        run[parts[0]][parts[2]] = float(parts[4])
    return dict(run)
