#!/usr/bin/env bash
# Set up the peer tool pyplexity (PyPI `pyplexity`, Fernández-Pichel et al.) in its own
# virtualenv $ROOT/.venv-pyplexity, apart from webprune's .venv: it pins lxml<5, pandas<2.
# Idempotent: a second run only checks a stamp and exits at once.
#   numpy<2     pandas 1.5.3 (what pyplexity's pandas<2 resolves to) is built against NumPy 1.x
#   click<8.2   pyplexity's CLI uses typer 0.4.x, which breaks on newer click
#               ("Secondary flag is not valid for non-boolean flag")
#   torch       pyplexity 0.2.12 needs none; the constraint below only guarantees that if
#               some dependency ever asks for it, pip takes the CPU wheel on this disk
#               (torch==2.13.0) instead of downloading GBs of CUDA wheels.
# Usage: scripts/setup_pyplexity.sh     then .venv-pyplexity/bin/python scripts/peers/pyplexity_tags.py LIST
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3
VENV="$ROOT/.venv-pyplexity"
PYPLEXITY_VERSION="0.2.12"
say() { printf '[setup-pyplexity] %s\n' "$*" >&2; }

stamp="$VENV/.pyplexity-setup-$(sha256sum scripts/setup_pyplexity.sh | cut -c1-16)"
if [ -f "$stamp" ] && [ -x "$VENV/bin/python" ]; then
  say "ready: $VENV (pyplexity $PYPLEXITY_VERSION)"
  exit 0
fi

if [ ! -x "$VENV/bin/python" ]; then
  say "creating $VENV with $("$PYTHON" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
  "$PYTHON" -m venv "$VENV"
fi

say "installing pyplexity==$PYPLEXITY_VERSION (first run: about a minute)"
start=$(date +%s)
cons="$VENV/constraints-pyplexity.txt"
printf 'torch==2.13.0\n' > "$cons"
export PIP_DISABLE_PIP_VERSION_CHECK=1
# (pip's warnings about this machine's missing local index folders are filtered out)
quiet() { grep -v 'is ignored: it is neither a file nor a directory' >&2 || true; }
"$VENV/bin/python" -m pip install -q --upgrade pip 2>&1 | quiet
"$VENV/bin/python" -m pip install -q -c "$cons" \
  "pyplexity==$PYPLEXITY_VERSION" 'numpy<2' 'click<8.2' 2>&1 | quiet
say "installed in $(( $(date +%s) - start ))s; checking imports"

"$VENV/bin/python" - <<'PY'
import importlib.metadata as md, sys
from pyplexity.tag_remover import HTMLTagRemover
import pyplexity.__main__  # the CLI (typer) must import too
out = HTMLTagRemover().process(b"<html><body><p>Hello <b>world</b></p><script>x=1</script></body></html>")
assert "Hello" in out and "world" in out and "x=1" not in out, out
try:
    md.version("torch"); sys.exit("[setup-pyplexity] error: torch got installed")
except md.PackageNotFoundError:
    pass
v = {p: md.version(p) for p in ("pyplexity", "lxml", "pandas", "numpy", "click", "typer")}
print("[setup-pyplexity] " + " ".join(f"{k}={x}" for k, x in v.items()), file=sys.stderr)
PY
"$VENV/bin/pyplexity" --help >/dev/null

rm -f "$VENV"/.pyplexity-setup-*
touch "$stamp"
say "ready: $VENV ($(du -sh "$VENV" | cut -f1))"
