"""A full disk is no record's fault: preprocess stops with one line naming the path and what to do (no retries,
no record blamed, no traceback), and once there is room the same command resumes to the same bytes. The disk
is a small tmpfs of the test's own (root: as in CI)."""
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.conftest import ROOT, shared
from webprune.benchdata import pack_cleaning_pages

pytestmark = pytest.mark.slow


@pytest.fixture()
def small_disk(tmp_path):
    mount = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    mount.mkdir()
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(mount)], check=True,
                       capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"cannot mount a small tmpfs here (root is needed, as in CI): {exc}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, timeout=30)


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "webprune.cli", "preprocess", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_a_full_disk_stops_the_run_in_one_line_and_a_resume_gives_the_same_bytes(tmp_path, small_disk):
    shared("cleaning")
    crawl = tmp_path / "crawl"
    crawl.mkdir()
    pack_cleaning_pages(crawl, files=4, limit=200)  # ~2 MB of shards: more than 300 KiB
    out = small_disk / "out"
    full = cli(crawl, "-o", out, "--workers", "2")
    assert full.returncode == 2, full.stderr[-2000:]
    lines = [line for line in full.stderr.splitlines() if line.strip()]
    assert lines[-1].startswith("webprune preprocess: error: cannot write ") and "no space left" in lines[-1]
    assert str(out) in lines[-1] and "run the same command again" in lines[-1]
    for noise in ("Traceback", "worker died", "failed.unit_error", "retrying", ".cc:"):  # .cc: Ray's C++ log
        assert noise not in full.stderr + full.stdout, noise
    assert not (out / "stats.json").exists()  # an unfinished run, which index refuses
    subprocess.run(["mount", "-o", "remount,size=40m", str(small_disk)], check=True, timeout=30)
    resumed = cli(crawl, "-o", out, "--workers", "2")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert resumed.stdout.startswith("200 records: 200 written")
    fresh = cli(crawl, "-o", tmp_path / "fresh", "--local")
    assert fresh.returncode == 0
    names = sorted(os.listdir(tmp_path / "fresh" / "collection"))
    assert names == sorted(os.listdir(out / "collection"))
    for name in names:
        assert (out / "collection" / name).read_bytes() == (tmp_path / "fresh" / "collection" / name).read_bytes()
