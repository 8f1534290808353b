"""A crawl's training corpora, one pair per language, and the KenLM pairs trained on them.

:func:`write_corpora` streams the spooled rows once (unit by unit, never all held) into
``work/<lang>.content.txt`` and ``work/<lang>.boilerplate.txt`` for every language that
gets a pair: kept lines go to content unless they are template lines (a repeated (host, line)
digest), removed lines go to boilerplate, words outside the language's vocabulary become ``OOV``.
Duplicate pages are skipped; lines of languages without a pair are counted only.
:func:`train_pairs` runs ``lmplz``/``build_binary`` twice per language into ``MODEL/<lang>/``.
"""
from __future__ import annotations

import logging
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Iterable

from preprocess.lm.contrastive import BOILER, CONTENT, OOV, VOCAB, map_oov, train_side
from preprocess.lm.lang import tokenisation
from preprocess.core.hashing import hash64

log = logging.getLogger("webprune.lm")


def line_digest(host: str, line: str) -> int:
    """The 8-byte digest of a (host, line): what the repetition rule counts."""
    return hash64(f"{host}\x00{line}")


def write_corpora(spooled: Iterable[tuple[Iterable[list], set]], state: dict, work: Path) -> tuple[dict, dict]:
    """Each language's two corpora in ``work`` from ``spooled``: each unit's rows and the row numbers to skip
    (duplicates); returns (label counts per language, lines of languages without a pair per language)."""
    counts = {lang: Counter() for lang in state["languages"]}
    unused: Counter = Counter()
    templates, vocab = state["templates"], state["vocab"]
    with ExitStack() as stack:
        files = {lang: (stack.enter_context(open(work / f"{lang}.content.txt", "w", encoding="utf-8")),
                        stack.enter_context(open(work / f"{lang}.boilerplate.txt", "w", encoding="utf-8")))
                 for lang in state["languages"]}
        for rows, skip in spooled:
            for i, (host, lang, kept, removed) in enumerate(rows):
                if i in skip:
                    continue
                if lang not in files:
                    unused[lang] += len(kept) + len(removed)
                    continue
                fc, fb = files[lang]
                n, v = counts[lang], vocab[lang]
                for line in kept:
                    if templates and line_digest(host, line) in templates:
                        fb.write(map_oov(line, v) + "\n")
                        n["kept_but_repeated"] += 1
                    else:
                        fc.write(map_oov(line, v) + "\n")
                        n["content"] += 1
                for line in removed:
                    fb.write(map_oov(line, v) + "\n")
                    n["removed"] += 1
    for n in counts.values():
        n["boilerplate"] = n["removed"] + n["kept_but_repeated"]
    return {lang: dict(n) for lang, n in counts.items()}, dict(unused)


def trainable(counts: dict, main: str, min_lines: int) -> tuple[list[str], dict]:
    """The languages whose sides both hold lines (``min_lines`` each, the main language any); and why the
    others are left out."""
    keep, left = [], {}
    for lang, n in sorted(counts.items()):
        low = 1 if lang == main else min_lines
        if n.get("content", 0) >= low and n.get("boilerplate", 0) >= low:
            keep.append(lang)
        else:
            left[lang] = f"content {n.get('content', 0)} / boilerplate {n.get('boilerplate', 0)} lines " \
                         f"(< {low} on a side)"
    return keep, left


def train_pairs(target: Path, work: Path, languages: list[str], state: dict, counts: dict, order: int,
                memory: str) -> dict:
    """``MODEL/<lang>/{content,boilerplate}.bin`` and ``vocab.txt`` per language; returns the card's entries."""
    entries = {}
    for lang in languages:
        folder = target / lang
        folder.mkdir(exist_ok=True)
        content = train_side(work / f"{lang}.content.txt", folder / CONTENT, order, memory)
        boiler = train_side(work / f"{lang}.boilerplate.txt", folder / BOILER, order, memory)
        words = sorted(state["vocab"][lang])
        (folder / VOCAB).write_text("".join(w + "\n" for w in words), encoding="utf-8")
        entries[lang] = {"dir": lang, "tokens": tokenisation(lang),
                         "documents": state["documents_by_language"].get(lang, 0), "label_counts": counts[lang],
                         "content": content, "boilerplate": boiler,
                         "vocabulary": {"file": VOCAB, "words": len(words), "oov_token": OOV}}
        log.info("%s: %d content / %d boilerplate lines", lang, content["lines"], boiler["lines"])
    return entries
