"""Train KenLM models: normalise the corpus, run ``lmplz``, convert with ``build_binary``.

``lmplz``/``build_binary`` are built by ``scripts/build_kenlm.sh`` (part of
``scripts/setup.sh``) into ``.venv/bin``; the ``kenlm`` wheel only queries.
"""
from __future__ import annotations

import logging
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from preprocess.lm.normalize import clean_corpus_line, normalize

log = logging.getLogger("webprune.lm")


def tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise RuntimeError(f"KenLM's `{name}` is not installed: run `bash scripts/build_kenlm.sh` (or scripts/setup.sh)")
    return found


def write_normalized(corpora: list[str | Path], out: Path) -> tuple[int, int]:
    """Normalised training text, one line per input line; returns (lines, tokens)."""
    lines = tokens = 0
    with open(out, "w", encoding="utf-8") as f:
        for corpus in corpora:
            with open(corpus, encoding="utf-8", errors="replace") as src:
                for line in src:
                    norm = normalize(clean_corpus_line(line))
                    if norm:
                        f.write(norm + "\n")
                        lines += 1
                        tokens += norm.count(" ") + 1
    return lines, tokens


def train(corpora: list[str | Path], output: str | Path, order: int = 2, prune: list[int] | None = None,
          discount_fallback: bool = False, memory: str = "10%", keep_arpa: bool = False) -> dict:
    """Train an order-N model from text files into a KenLM binary at ``output``; returns its facts."""
    if not 2 <= order <= 6:
        raise ValueError("--order must be between 2 and 6 (KenLM here is built with KENLM_MAX_ORDER=6)")
    missing = [str(c) for c in corpora if not Path(c).is_file()]
    if missing:
        raise FileNotFoundError(f"training corpus not found: {', '.join(missing)}")
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="webprune-lm-") as tmp:
        text, arpa = Path(tmp) / "train.txt", Path(tmp) / "model.arpa"
        lines, tokens = write_normalized(corpora, text)
        if not lines:
            raise ValueError("the training corpus is empty after normalisation")
        cmd = [tool("lmplz"), "-o", str(order), "-S", memory, "-T", tmp, "--skip_symbols"]
        if prune:
            cmd += ["--prune", *map(str, prune)]
        if discount_fallback:
            cmd.append("--discount_fallback")
        with open(text, "rb") as fin, open(arpa, "wb") as fout:
            proc = subprocess.run(cmd, stdin=fin, stdout=fout, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            err = proc.stderr.decode(errors="replace")[-2000:]
            hint = " (small corpus? try --discount-fallback)" if "discount" in err.lower() else ""
            raise RuntimeError(f"lmplz failed{hint}:\n{err}")
        proc = subprocess.run([tool("build_binary"), str(arpa), str(output)], stderr=subprocess.PIPE, stdout=subprocess.PIPE)
        if proc.returncode != 0:
            raise RuntimeError(f"build_binary failed:\n{proc.stderr.decode(errors='replace')[-2000:]}")
        if keep_arpa:
            shutil.copy(arpa, output.with_suffix(".arpa"))
    info = {"model": str(output), "order": order, "corpora": [str(c) for c in corpora], "lines": lines,
            "tokens": tokens, "prune": prune or [], "discount_fallback": discount_fallback,
            "bytes": output.stat().st_size, "seconds": round(time.perf_counter() - t0, 2)}
    log.info("trained %s-gram model on %d tokens in %.1f s -> %s", order, tokens, info["seconds"], output)
    return info
