"""Readers for TREC qrels and run files."""
from __future__ import annotations

import logging
import math
from collections import defaultdict
from pathlib import Path

log = logging.getLogger("webprune.eval")


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


def _first_line(lines: list[str], qid: str, doc: str) -> int:
    """The number of the first line about ``qid`` and ``doc`` (for an error message: no index kept for it)."""
    return next(n for n, line in enumerate(lines, 1) if line.split()[:3:2] == [qid, doc])


def read_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """``qid iter docid rel`` (or the Decision Track's ``qid iter docid rel effectiveness credibility``)
    -> {qid: {docid: rel}}.

    The Decision Track's two extra columns are ignored. Negative grades (Web Track spam/junk, -2/-1) are kept
    here and treated as non-relevant (gain 0) by :mod:`eval.metrics`, as trec_eval does. A document judged
    twice with the same grade is counted once (and logged); with two different grades the file is refused.
    """
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    repeated = 0
    lines = _text(path, "qrels").splitlines()
    for n, line in enumerate(lines, 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) not in (4, 6):
            raise ValueError(f"{path}:{n}: a qrels line has 4 columns 'qid iter docid relevance' (6 in the Decision "
                             f"Track's), this one has {len(parts)}: {line[:100]!r}")
        qid, doc, grade = parts[0], parts[2], _grade(parts[3], f"{path}:{n}")
        old = qrels[qid].get(doc)
        if old is not None:
            if old != grade:
                raise ValueError(f"{path}:{n}: topic {qid} document {doc} is judged {grade} here and {old} at line "
                                 f"{_first_line(lines, qid, doc)}: keep one judgement per document")
            repeated += 1
            continue
        qrels[qid][doc] = grade
    if not qrels:
        raise ValueError(f"{path}: no judgements")
    if repeated:
        log.warning("%s: %d judgement(s) repeated with the same grade, each counted once", path, repeated)
    return dict(qrels)


def read_run(path: str | Path) -> dict[str, dict[str, float]]:
    """``qid Q0 docid rank score tag`` -> {qid: {docid: score}}; a document ranked twice for a topic is refused."""
    run: dict[str, dict[str, float]] = defaultdict(dict)
    lines = _text(path, "run").splitlines()
    for n, line in enumerate(lines, 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 6:
            raise ValueError(f"{path}:{n}: a run line has 6 columns 'qid Q0 docid rank score tag', this one has "
                             f"{len(parts)}: {line[:100]!r}")
        try:
            score = float(parts[4])
        except ValueError:
            raise ValueError(f"{path}:{n}: score {parts[4]!r} is not a number") from None
        if not math.isfinite(score):
            raise ValueError(f"{path}:{n}: score {parts[4]!r} is not a finite number")
        qid, doc = parts[0], parts[2]
        if doc in run[qid]:
            raise ValueError(f"{path}:{n}: topic {qid} ranks document {doc} twice (also at line {_first_line(lines, qid, doc)}): "
                             "a run ranks each document once per topic; remove the duplicate")
        run[qid][doc] = score
    if not run:
        raise ValueError(f"{path}: no ranked documents; is it a TREC run file?")
    return dict(run)
