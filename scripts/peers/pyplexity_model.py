#!/usr/bin/env python3
"""A stand-in for pyplexity's perplexity model, built offline, for side-by-side benchmarks.

Run with pyplexity's own virtualenv (scripts/setup_pyplexity.sh):

    .venv-pyplexity/bin/python scripts/peers/pyplexity_model.py LM_DIR OUT_DIR

pyplexity's ``bulk-perplexity`` downloads its bigram model (``bigrams-bnc``, from the 100M-word British
National Corpus) and NLTK's Punkt sentence model at run time; neither can be fetched here. This builds both
from the clean English in LM_DIR (``../shared/data/lm/*.txt``, ~5.2M words):

- ``OUT_DIR/bigrams.pkl``: ``[bigrams, unigrams]`` as pyplexity's ``BigramPerplexityModel`` holds them after
  ``storable.retrieve``: a bigram's key is ``"w1 w2"``, a unigram's ``w1``, tokenised by pyplexity's own
  ``_custom_tokenize`` with ``#`` before each line; values P(w2 | w1) and P(w1). Keys are UTF-8 bytes, as
  pyplexity looks them up and as storable reads a flagged (UTF-8) Perl hash (``SX_FLAG_HASH``); a plain hash
  would come back with str keys that bytes lookups never find, every sentence at the floor probability.
- ``OUT_DIR/nltk_data/tokenizers/punkt_tab/english``: NLTK Punkt parameters trained on the same text.

Lookups in a 5M-word model's dicts are no slower than in the BNC model's (fewer keys, fewer cache misses),
so pyplexity's speed measured with it is, if anything, flattering to pyplexity. Nothing else about the
model matters to a throughput benchmark. Prints one JSON line (sizes, seconds).
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import time
from collections import Counter
from pathlib import Path

PUNKT_FILES = ("gutenberg.txt", "reuters.txt", "abc.txt")  # running prose with its own punctuation


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lm_dir", type=Path, help="folder of clean English .txt files (../shared/data/lm)")
    ap.add_argument("out_dir", type=Path, help="folder to write bigrams.pkl and nltk_data/ into")
    args = ap.parse_args(argv)
    texts = sorted(args.lm_dir.glob("*.txt"))
    if not texts:
        ap.error(f"{args.lm_dir}: no .txt files (give ../shared/data/lm)")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    nltk_dir = args.out_dir / "nltk_data"
    os.environ["NLTK_DATA"] = str(nltk_dir)
    from nltk.tokenize.punkt import PunktTrainer, save_punkt_params
    from pyplexity.perpl_model import PerplexityModel

    t0 = time.perf_counter()
    tokenize = PerplexityModel()._custom_tokenize
    unigrams, bigrams, words = Counter(), Counter(), 0
    for path in texts:
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if not line.strip():
                continue
            tokens = tokenize(line)
            words += len(tokens)
            unigrams.update(tokens)
            bigrams.update(zip(["#"] + tokens[:-1], tokens))
    starts = sum(n for (w1, _), n in bigrams.items() if w1 == "#")
    context = unigrams + Counter({"#": starts})

    def key(s: str) -> bytes:
        return s.encode("UTF-8", errors="replace")

    bi = {key(f"{w1} {w2}"): n / context[w1] for (w1, w2), n in bigrams.items()}
    uni = {key(w): n / words for w, n in unigrams.items()}
    (args.out_dir / "bigrams.pkl").write_bytes(pickle.dumps([bi, uni], protocol=pickle.HIGHEST_PROTOCOL))
    t_model = time.perf_counter() - t0

    trainer = PunktTrainer()
    for name in PUNKT_FILES:
        if (args.lm_dir / name).exists():
            trainer.train((args.lm_dir / name).read_text(encoding="utf-8", errors="replace"), finalize=False)
    trainer.finalize_training()
    punkt = nltk_dir / "tokenizers" / "punkt_tab" / "english"
    punkt.mkdir(parents=True, exist_ok=True)
    save_punkt_params(trainer.get_params(), str(punkt))
    print(json.dumps({"words": words, "unigrams": len(uni), "bigrams": len(bi), "model_s": round(t_model, 1),
                      "punkt_s": round(time.perf_counter() - t0 - t_model, 1), "out": str(args.out_dir)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
