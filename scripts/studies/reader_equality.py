#!/usr/bin/env python
"""The archive reader against an older revision of itself: the same documents, counters, examples and observed
facts on every archive given (default: every file under ../shared/data/warc, and build/bench if there).

The old reader (``preprocess/readers/*.py`` at ``--old``) is loaded from git into a package of its own; the rest
of ``preprocess`` is shared. ``--hostile`` also runs the byte-by-byte hostile-input tests with their reader
comparing the old and the new one on each archive they build; ``--fuzz N`` compares them on N archives of
mutated records (odd heads, a changed byte anywhere in the packed file, a cut file).

    scripts/studies/reader_equality.py --old 7562763                 # shared WARCs (and the bench WARCs)
    scripts/studies/reader_equality.py --old 7562763 --hostile       # and the hostile-input tests' archives
    scripts/studies/reader_equality.py --old 7562763 --fuzz 3000     # and mutated archives
"""
from __future__ import annotations

import argparse
import io
import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
MODULES = ("gzip_members", "http", "digest", "framing", "stream", "framer", "archive")


def load_old(rev: str):
    """``read_archive`` of the reader at git revision ``rev``."""
    pkg = types.ModuleType("oldreaders")
    pkg.__path__ = []
    sys.modules["oldreaders"] = pkg
    for name in MODULES:
        src = subprocess.run(["git", "show", f"{rev}:preprocess/readers/{name}.py"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        src = src.replace("from preprocess.readers import", "from oldreaders import") \
                 .replace("from preprocess.readers.", "from oldreaders.")
        mod = types.ModuleType(f"oldreaders.{name}")
        mod.__file__ = f"<{rev}>/preprocess/readers/{name}.py"
        sys.modules[mod.__name__] = mod
        exec(compile(src, mod.__file__, "exec"), mod.__dict__)
        setattr(pkg, name, mod)
    return sys.modules["oldreaders.archive"].read_archive


def outcome(read_archive, data: bytes, name: str, max_bytes: int):
    from preprocess.core.stats import Stats
    stats, seen = Stats(), []
    stats.ledger = []
    docs = [(d.id, d.url, d.source, d.content_type, d.raw, d.meta) for d in
            read_archive(io.BytesIO(data), name, name, stats, max_bytes, lambda **kw: seen.append(kw),
                         reopen=lambda: io.BytesIO(data))]
    return docs, dict(stats.counts), stats.examples, stats.ledger, seen


def same(old, new, data: bytes, name: str, max_bytes: int = 16 << 20) -> tuple[str | None, int]:
    """(None when both readers agree on ``data``, else what differs; how many documents)."""
    a, b = outcome(old, data, name, max_bytes), outcome(new, data, name, max_bytes)
    for what, x, y in zip(("documents", "counters", "examples", "ledger", "observed"), a, b):
        if x != y:
            return f"{name}: {what} differ", len(b[0])
    return None, len(b[0])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True, help="git revision of the reference reader")
    ap.add_argument("--hostile", action="store_true", help="also compare on the hostile-input tests' archives")
    ap.add_argument("--fuzz", type=int, default=0, metavar="N",
                    help="also compare on N archives of mutated records (heads, compressed bytes, cuts)")
    ap.add_argument("files", nargs="*", type=Path)
    a = ap.parse_args()
    old = load_old(a.old)
    from preprocess.config.options import DEFAULT_MAX_BYTES
    from preprocess.readers.archive import read_archive as new
    files = a.files or sorted(p for p in (ROOT.parent / "shared" / "data" / "warc").rglob("*") if p.is_file()) \
        + sorted((ROOT / "build" / "bench").glob("*.warc*"))
    bad = 0
    for path in files:
        data = path.read_bytes()
        for max_bytes in (DEFAULT_MAX_BYTES, 2000):  # 2000: the too-large paths too
            why, n = same(old, new, data, path.name, max_bytes)
            print(f"{'DIFF' if why else 'same'}  {path} (max_bytes {max_bytes}, {n} documents){': ' + why if why else ''}")
            bad += why is not None
    if a.hostile:
        bad += hostile(old, new)
    if a.fuzz:
        bad += fuzz(old, new, a.fuzz)
    print("all equal" if not bad else f"{bad} difference(s)")
    return 1 if bad else 0


def hostile(old, new) -> int:
    """Run the hostile-input tests with a reader that also compares old and new on each archive."""
    import pytest

    import tests.hostile as h
    checked, diffs = [0], []
    plain = h.read

    def read(data: bytes, name: str, max_bytes: int = 16 << 20):
        checked[0] += 1
        why = same(old, new, data, name, max_bytes)[0]
        if why:
            diffs.append(why)
        return plain(data, name, max_bytes)

    h.read = read
    rc = pytest.main(["-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "test_hostile_framing.py"),
                      str(ROOT / "tests" / "test_hostile_payloads.py")])
    print(f"hostile archives compared: {checked[0]}, differing: {len(diffs)} (pytest exit {int(rc)})")
    for d in diffs[:20]:
        print("DIFF ", d)
    return len(diffs) + (rc != 0)


def fuzz(old, new, n: int) -> int:
    """Archives of six records, two of them mutated (as tests/test_reader_fast_paths.py does), then in one of
    three archives a byte of the packed file changed or the file cut: every framing, both --max-bytes."""
    import random

    from tests.hostile import SUFFIX, pack, warc_record
    from tests.test_reader_fast_paths import mutate
    rng, diffs = random.Random(2023), []
    for trial in range(n):
        framing = ("record-gz", "file-gz", "plain")[trial % 3]
        recs = [warc_record(k, digests=k % 2 == 0) for k in range(6)]
        for k in rng.sample(range(6), 2):
            recs[k] = mutate(recs[k], rng)
        data = bytearray(pack(recs, framing))
        what = rng.randrange(3)
        if what == 0:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif what == 1:
            del data[rng.randrange(len(data)):]
        why = same(old, new, bytes(data), f"fuzz{trial}" + SUFFIX[framing], rng.choice((16 << 20, 700)))[0]
        if why:
            diffs.append(why)
    print(f"fuzzed archives compared: {n}, differing: {len(diffs)}")
    for d in diffs[:20]:
        print("DIFF ", d)
    return len(diffs)


if __name__ == "__main__":
    sys.exit(main())
