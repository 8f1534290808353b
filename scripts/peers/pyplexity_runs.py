"""How the benchmarks run the pyplexity peer from webprune's venv: its tag remover, or its whole pipeline with
the stand-in model, in pyplexity's own venv (``.venv-pyplexity``, scripts/setup_pyplexity.sh), over the cleaning
pages; one JSON result each (``pyplexity_tags.py``'s). A result with errors keeps them in ``errors``."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from webprune.benchdata import ROOT, cleaning_pages, shared_data

PYPLEXITY = ROOT / ".venv-pyplexity" / "bin" / "python"


def pyplexity(copies: int, perplexity: Path | None = None) -> dict | None:
    """pyplexity's tag remover over the cleaning pages ``copies`` times in its own venv; with ``perplexity`` (a
    :func:`pyplexity_model` folder), its whole pipeline: tag remover, then bulk-perplexity's processor."""
    if not PYPLEXITY.exists():
        print("pyplexity: not set up (bash scripts/setup_pyplexity.sh); its rows are skipped", file=sys.stderr)
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(map(str, cleaning_pages())) + "\n")
    extra = ["--perplexity", str(perplexity)] if perplexity else []
    proc = subprocess.run([str(PYPLEXITY), str(ROOT / "scripts" / "peers" / "pyplexity_tags.py"), f.name,
                           "--repeat", str(copies), *extra], capture_output=True, text=True)
    os.unlink(f.name)
    if proc.returncode != 0:
        sys.exit(f"pyplexity failed: {proc.stderr[-1000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if result["errors"] == result["docs"]:  # nothing processed: its rate would mean nothing
        sys.exit(f"pyplexity ({result['tool']}) raised on every page: check .venv-pyplexity "
                 f"(bash scripts/setup_pyplexity.sh) and, for the whole pipeline, {perplexity}")
    return result


def pyplexity_model() -> Path | None:
    """The stand-in for pyplexity's downloaded models (scripts/peers/pyplexity_model.py), built once from
    ../shared/data/lm into build/peers/pyplexity-lm."""
    out = ROOT / "build" / "peers" / "pyplexity-lm"
    if not PYPLEXITY.exists():
        return None
    if not (out / "bigrams.pkl").is_file():
        print(f"pyplexity: building its stand-in bigram model and Punkt data in {out} (about a minute)",
              file=sys.stderr, flush=True)
        proc = subprocess.run([str(PYPLEXITY), str(ROOT / "scripts" / "peers" / "pyplexity_model.py"),
                               str(shared_data("lm")), str(out)], capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"pyplexity's stand-in model failed: {proc.stderr[-1000:]}")
    return out
