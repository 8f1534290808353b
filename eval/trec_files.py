"""Readers for TREC qrels and run files."""
from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path


def _text(path: str | Path, what: str) -> str:
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{path} is a folder; give the {what} file")
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such {what} file") from None


def _grade(value: str, where: str) -> int:
    try:
        f = float(value)
    except ValueError:
        raise ValueError(f"{where}: relevance {value!r} is not a number") from None
    if not math.isfinite(f) or not f.is_integer():
        raise ValueError(f"{where}: relevance {value!r} is not a whole number (qrels grades are integers)")
    return int(f)


def read_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """``qid iter docid rel [more columns]`` -> {qid: {docid: rel}}.

    Extra columns (the Decision Track's effectiveness/credibility) are ignored.
    Negative grades (Web Track spam/junk, -2/-1) are kept here and treated as
    non-relevant (gain 0) by :mod:`eval.metrics`, as trec_eval does.
    """
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for n, line in enumerate(_text(path, "qrels").splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) < 4:
            raise ValueError(f"{path}:{n}: expected 'qid iter docid relevance', got {line[:100]!r}")
        qrels[parts[0]][parts[2]] = _grade(parts[3], f"{path}:{n}")
    if not qrels:
        raise ValueError(f"{path}: no judgements")
    return dict(qrels)


def read_run(path: str | Path) -> dict[str, dict[str, float]]:
    """``qid Q0 docid rank score tag`` -> {qid: {docid: score}}."""
    run: dict[str, dict[str, float]] = defaultdict(dict)
    for n, line in enumerate(_text(path, "run").splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) < 5:
            raise ValueError(f"{path}:{n}: expected 'qid Q0 docid rank score tag', got {line[:100]!r}")
        try:
            score = float(parts[4])
        except ValueError:
            raise ValueError(f"{path}:{n}: score {parts[4]!r} is not a number") from None
        if not math.isfinite(score):
            raise ValueError(f"{path}:{n}: score {parts[4]!r} is not a finite number")
        run[parts[0]][parts[2]] = score
    if not run:
        raise ValueError(f"{path}: no ranked documents; is it a TREC run file?")
    return dict(run)
