#!/usr/bin/env bash
# The README's first command on a fresh clone, timed: exit code, wall time, the venv's size and package count,
# and the second set-up (the stamp check). Pip's cache starts empty, so every wheel is downloaded.
#   bash scripts/bench/install.sh [REV]      (default HEAD) -> results/install/install-REV.txt
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
REV="$(git -C "$ROOT" rev-parse --short "${1:-HEAD}")"
WORK="$(mktemp -d /tmp/webprune-install.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
ln -s "$(cd "$ROOT/../shared" && pwd)" "$WORK/shared"
git clone -q "$ROOT" "$WORK/main" && git -C "$WORK/main" checkout -q "$REV"
export PIP_CACHE_DIR="$WORK/pip-cache"
cd "$WORK/main"
first_command="$(sed -n '/^```bash$/{n;p;q}' README.md)"
start=$(date +%s.%N)
bash -c "$first_command" >"$WORK/first.log" 2>&1
rc=$?
first=$(echo "$(date +%s.%N) - $start" | bc)
venv_mb=$(du -sm .venv | cut -f1)
packages=$(.venv/bin/python -m pip list --format=freeze 2>/dev/null | wc -l)
start=$(date +%s.%N)
bash scripts/setup.sh >/dev/null 2>&1
second=$(echo "$(date +%s.%N) - $start" | bc)
out="$ROOT/results/install/install-$REV.txt"
{
  echo "# bash scripts/bench/install.sh $REV  ($(date -u +%F), $(nproc) cores, empty pip cache)"
  echo "command: $first_command"
  echo "exit: $rc"
  printf 'first run s: %.0f\n' "$first"
  echo "venv MB: $venv_mb"
  echo "packages: $packages"
  printf 'second set-up s: %.1f\n' "$second"
  echo "largest packages (MB):"
  du -sm .venv/lib/python3.11/site-packages/* 2>/dev/null | sort -rn | head -8 | sed 's|.venv/lib/python3.11/site-packages/|  |'
  echo "last lines of the first run:"
  tail -5 "$WORK/first.log" | sed 's/^/  /'
} >"$out"
cat "$out"
