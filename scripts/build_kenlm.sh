#!/usr/bin/env bash
# Build KenLM's command-line tools `lmplz` (ARPA estimation) and `build_binary`
# (ARPA -> binary) and install them into $ROOT/.venv/bin/.
#
# The `kenlm` PyPI package only provides the query module; the tools are built
# here from the *same* PyPI sdist version that is installed in the venv.
#
# Idempotent: if both tools are already installed and run, exits 0 at once.
# Otherwise: installs missing Debian build deps (apt, root/sudo), downloads the
# sdist with pip, and builds only the two targets with cmake under
# $ROOT/build/kenlm/ (gitignored; reused by later runs).
#
# Usage: scripts/build_kenlm.sh            (env: JOBS=2 by default)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="$ROOT/.venv"
BIN="$VENV/bin"
WORK="$ROOT/build/kenlm"
JOBS="${JOBS:-2}"
MAX_ORDER=6
APT_PKGS=(cmake build-essential
          libboost-program-options-dev libboost-system-dev
          libboost-thread-dev libboost-test-dev
          zlib1g-dev libbz2-dev liblzma-dev)

log() { echo "build_kenlm: $*" >&2; }
die() { echo "build_kenlm: ERROR: $*" >&2; exit 1; }
trap 'rc=$?; echo "build_kenlm: ERROR: command failed (exit $rc) at line $LINENO: $BASH_COMMAND" >&2' ERR

tools_ok() {
  [[ -x "$BIN/lmplz" && -x "$BIN/build_binary" ]] || return 1
  # Both tools exit 1 on --help / no args, so check that they printed their
  # help (i.e. the binary loaded: shared Boost libs present) instead.
  local out
  out="$("$BIN/lmplz" --help 2>&1 || true)"
  [[ "$out" == *"--discount_fallback"* ]] || return 1
  out="$("$BIN/build_binary" 2>&1 || true)"
  [[ "$out" == *"Usage:"* ]] || return 1
}

# ---- fast path --------------------------------------------------------------
if tools_ok; then
  exit 0
fi

[[ -x "$BIN/python" ]] || die "no venv at $VENV; create it and install the project (with kenlm) first"

# ---- kenlm version from the venv -------------------------------------------
VERSION="$("$BIN/python" -m pip show kenlm 2>/dev/null | sed -n 's/^Version: *//p')"
[[ -n "$VERSION" ]] || die "kenlm is not installed in $VENV; run '$BIN/pip install kenlm' first"
log "kenlm $VERSION: building lmplz + build_binary (KENLM_MAX_ORDER=$MAX_ORDER, -j$JOBS)"

# ---- Debian build deps (only the missing ones) ------------------------------
missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || die "need root (or sudo) to apt-get install: ${missing[*]}"
    SUDO="sudo"
  fi
  log "apt-get install: ${missing[*]}"
  mkdir -p "$WORK"
  APTLOG="$WORK/apt.log"
  $SUDO apt-get update >"$APTLOG" 2>&1 \
    || { tail -n 20 "$APTLOG" >&2; die "apt-get update failed (log: $APTLOG); check network/apt sources, then rerun"; }
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >>"$APTLOG" 2>&1 \
    || { tail -n 20 "$APTLOG" >&2; die "apt-get install failed for: ${missing[*]} (log: $APTLOG); install them by hand, then rerun"; }
fi

# ---- source: the PyPI sdist of the same version -----------------------------
mkdir -p "$WORK"
SDIST="$WORK/kenlm-$VERSION.tar.gz"
SRC="$WORK/src-$VERSION"
BLD="$WORK/build-$VERSION"
LOGF="$WORK/build-$VERSION.log"
if [[ ! -f "$SDIST" ]]; then
  log "downloading kenlm==$VERSION sdist from PyPI"
  # NB: '--no-binary kenlm', not ':all:' -- with ':all:' pip also builds the
  # sdist's build deps (the 'cmake' PyPI package!) from source, >10 min.
  tmpd="$(mktemp -d "$WORK/dl.XXXXXX")"
  "$BIN/python" -m pip download -q --no-deps --no-binary kenlm "kenlm==$VERSION" -d "$tmpd" >"$WORK/pip.log" 2>&1 \
    || { tail -n 20 "$WORK/pip.log" >&2; rm -rf "$tmpd"; die "pip download of kenlm==$VERSION sdist failed (log: $WORK/pip.log; PyPI reachable?)"; }
  f=("$tmpd"/kenlm-*.tar.gz)
  [[ -f "${f[0]}" ]] || { rm -rf "$tmpd"; die "pip did not produce a kenlm-$VERSION.tar.gz sdist"; }
  mv "${f[0]}" "$SDIST"
  rm -rf "$tmpd"
fi
if [[ ! -f "$SRC/lm/builder/lmplz_main.cc" ]]; then
  log "extracting sdist"
  rm -rf "$SRC" "$SRC.tmp"
  mkdir -p "$SRC.tmp"
  tar -xzf "$SDIST" -C "$SRC.tmp" --strip-components=1
  [[ -f "$SRC.tmp/lm/builder/lmplz_main.cc" && -f "$SRC.tmp/lm/build_binary_main.cc" ]] \
    || die "kenlm-$VERSION sdist lacks lm/builder/lmplz_main.cc or lm/build_binary_main.cc"
  mv "$SRC.tmp" "$SRC"
fi

# ---- cmake build of just the two targets ------------------------------------
log "cmake configure + build (log: $LOGF)"
t0=$SECONDS
if ! {
  cmake -S "$SRC" -B "$BLD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DKENLM_MAX_ORDER="$MAX_ORDER" \
    -DCOMPILE_TESTS=OFF -DENABLE_PYTHON=OFF -DENABLE_INTERPOLATE=OFF &&
  cmake --build "$BLD" --target lmplz build_binary -j "$JOBS"
} >"$LOGF" 2>&1; then
  tail -n 30 "$LOGF" >&2
  die "cmake build failed (full log: $LOGF); fix the cause (missing -dev package?) and rerun"
fi
log "built in $((SECONDS - t0))s"

for t in lmplz build_binary; do
  install -m 0755 "$BLD/bin/$t" "$BIN/$t"
done
tools_ok || die "installed tools in $BIN do not run (try: $BIN/lmplz --help)"
log "installed $BIN/lmplz and $BIN/build_binary"
