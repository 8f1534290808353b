"""Faults at scale: kill -9 of the driver and resume, a worker killed mid-unit, a poison record, a poison file.

Every run here is a real Ray run (local cluster); the test-only cleaners of tests/plugins/faults.py reach
the workers through $WEBPRUNE_PLUGINS. Outputs are compared byte for byte with an uninterrupted run.
"""
import gzip
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import tests.plugins.faults  # noqa: F401 -- registers the test cleaners in this process too
from preprocess.config.options import CleanOptions, RunOptions
from preprocess.driver.preprocess import run_preprocess
from tests.conftest import ROOT, local_run
from webprune.warcpack import pack_pages

pytestmark = pytest.mark.slow
PLUGINS = "tests.plugins.faults,tests.plugins.first_block"


@pytest.fixture()
def plugin_env(monkeypatch):
    """Ray started afresh with the test cleaners importable on its workers."""
    import ray

    ray.shutdown()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("WEBPRUNE_PLUGINS", PLUGINS)
    yield dict(os.environ)
    ray.shutdown()


def page(n: int, marker: str = "") -> bytes:
    body = " ".join(f"Sentence {i} of page {n} about the river and its bridges." for i in range(30))
    return (f"<html><head><title>Page {n}</title></head><body><nav><a href=/>Home</a></nav>"
            f"<p>{body}</p><p>{marker}</p></body></html>").encode()


def make_inputs(folder: Path, files: int, per_file: int, markers: dict | None = None) -> Path:
    markers = markers or {}
    for f in range(files):
        pack_pages([(f"f{f}-{i}", f"http://site{f}.example/{i}", page(f * 1000 + i, markers.get((f, i), "")))
                    for i in range(per_file)], folder / f"part-{f:02d}.warc.gz")
    return folder


def shards(out: Path) -> dict[str, bytes]:
    return {p.name: gzip.decompress(p.read_bytes()) for p in sorted((out / "collection").glob("*.jsonl.gz"))}


def cli(args: list[str], env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "webprune.cli", "preprocess", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_kill_9_of_the_driver_then_the_same_command_gives_byte_identical_output(tmp_path, plugin_env):
    inputs = make_inputs(tmp_path / "in", files=8, per_file=40)
    reference = run_preprocess([str(inputs)], str(tmp_path / "ref"), CleanOptions(cleaner="tags"),
                               RunOptions(executor="local"), progress=False)
    out = tmp_path / "out"
    args = [str(inputs), "-o", str(out), "--cleaner", "slow", "--workers", "2"]
    env = plugin_env | {"WEBPRUNE_TEST_SLOW_S": "0.02"}
    proc = cli(args, env)
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "units").glob("*.json"))) < 2:
        time.sleep(0.05)
    done_before = len(list((out / "units").glob("*.json")))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 0 < done_before < 8, done_before  # killed mid-run
    proc = cli(args, env)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr[-2000:]
    stats = json.loads((out / "stats.json").read_text())
    assert stats["units"]["reused"] >= done_before and stats["unaccounted"] == 0
    assert stats["written"] == reference["written"] == 320 and stats["records"] == 320
    # the slow cleaner keeps every page as tag removal writes it: same bytes as the uninterrupted run
    assert shards(out) == shards(tmp_path / "ref")
    assert not list((out / "collection").glob("*.tmp")) and not list((out / "work").glob("*"))


def test_a_worker_killed_mid_unit_is_redone_without_loss_or_duplicates(tmp_path, plugin_env):
    inputs = make_inputs(tmp_path / "in", files=3, per_file=60)
    out = tmp_path / "out"
    env = plugin_env | {"WEBPRUNE_TEST_SLOW_S": "0.05"}
    proc = cli([str(inputs), "-o", str(out), "--cleaner", "slow", "--workers", "2", "--batch-size", "8"], env)
    killed, deadline = None, time.time() + 120
    while killed is None and time.time() < deadline:
        for marker in (out / "work").glob("*.json"):
            try:
                pid = json.loads(marker.read_text())["inflight"]["pid"]
            except (OSError, ValueError, KeyError):
                continue
            os.kill(pid, signal.SIGKILL)
            killed = pid
            break
        time.sleep(0.05)
    assert killed, "no unit was seen running"
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr[-2000:]
    stats = json.loads((out / "stats.json").read_text())
    assert stats["counters"]["units.retried"] >= 1
    assert (stats["records"], stats["written"], stats["failed"]) == (180, 180, {})
    ids = [json.loads(l)["id"] for data in shards(out).values() for l in data.decode().splitlines()]
    assert len(ids) == len(set(ids)) == 180


def test_a_record_that_kills_its_worker_fails_alone(tmp_path, plugin_env):
    inputs = make_inputs(tmp_path / "in", files=2, per_file=50, markers={(1, 17): "WEBPRUNE-ABORT"})
    r = run_preprocess([str(inputs)], str(tmp_path / "out"), CleanOptions(cleaner="abort"),
                       RunOptions(workers=2, batch_size=8), progress=False)
    assert r["failed"] == {"native_crash": 1} and r["written"] == 99 and r["unaccounted"] == 0
    assert "f1-17" in r["examples"]["failed.native_crash"][0]
    assert r["units"]["failed"] == 0 and r["counters"]["units.attempts_lost"] == 2  # batch, then the record


def test_a_record_whose_step_panics_fails_alone(tmp_path, plugin_env):
    """A native library's panic (pyo3's PanicException, not an Exception) costs its record, not the unit."""
    inputs = make_inputs(tmp_path / "in", files=2, per_file=20, markers={(0, 5): "WEBPRUNE-PANIC"})
    r = run_preprocess([str(inputs)], str(tmp_path / "out"), CleanOptions(cleaner="abort"),
                       RunOptions(workers=2, batch_size=8), progress=False)
    assert r["failed"] == {"abort_error": 1} and r["written"] == 39 and r["unaccounted"] == 0
    assert "f0-5" in r["examples"]["failed.abort_error"][0] and "PanicException" in r["examples"]["failed.abort_error"][0]
    assert r["units"]["failed"] == 0


def test_recycled_workers_give_the_same_shards(tmp_path, plugin_env):
    inputs = make_inputs(tmp_path / "in", files=3, per_file=10)
    reference = run_preprocess([str(inputs)], str(tmp_path / "ref"), CleanOptions(), RunOptions(executor="local"),
                               progress=False)
    r = run_preprocess([str(inputs)], str(tmp_path / "out"), CleanOptions(), RunOptions(workers=1), progress=False,
                       max_calls=1)
    pids = {json.loads(p.read_text())["pid"] for p in (tmp_path / "out" / "units").glob("*.json")}
    assert len(pids) == 3  # one fresh worker process per input file
    assert shards(tmp_path / "out") == shards(tmp_path / "ref") and r["written"] == reference["written"] == 30


def test_a_record_past_the_page_timeout_fails_alone(tmp_path, plugin_env):
    inputs = make_inputs(tmp_path / "in", files=1, per_file=20, markers={(0, 5): "WEBPRUNE-STALL"})
    t0 = time.time()
    r = run_preprocess([str(inputs)], str(tmp_path / "out"), CleanOptions(cleaner="abort"),
                       RunOptions(workers=1, batch_size=4), progress=False, page_timeout=3)
    assert r["failed"] == {"timeout": 1} and r["written"] == 19
    assert time.time() - t0 < 60


def test_a_page_a_little_past_the_page_timeout_fails_every_time(tmp_path, plugin_env):
    """The watchdog wakes at the deadline, not on a tick: a page 0.15 s past a 1 s limit, run alone on its retry,
    fails as a timeout every time, and no other page does."""
    inputs = make_inputs(tmp_path / "in", files=1, per_file=8, markers={(0, 2): "WEBPRUNE-LATE", (0, 6): "WEBPRUNE-LATE"})
    r = run_preprocess([str(inputs)], str(tmp_path / "out"), CleanOptions(cleaner="abort"),
                       RunOptions(workers=1, batch_size=1), progress=False, page_timeout=1)
    assert r["failed"] == {"timeout": 2} and r["written"] == 6


def test_a_page_timeout_no_page_could_keep_is_refused(tmp_path, plugin_env):
    inputs = make_inputs(tmp_path / "in", files=1, per_file=2)
    with pytest.raises(ValueError, match="every ordinary page"):
        run_preprocess([str(inputs)], str(tmp_path / "out"), page_timeout=0.000001)
    assert not (tmp_path / "out").exists()


def test_a_file_that_fails_every_retry_is_counted_failed_and_the_run_finishes(tmp_path, plugin_env):
    markers = {(0, i): "WEBPRUNE-ABORT" for i in range(10)}  # more poison than the retries can isolate
    inputs = make_inputs(tmp_path / "in", files=2, per_file=10, markers=markers)
    r = run_preprocess([str(inputs)], str(tmp_path / "out"), CleanOptions(cleaner="abort"),
                       RunOptions(workers=2, batch_size=4), progress=False, max_retries=2)
    assert r["units"]["failed"] == 1 and r["written"] == 10 and r["unaccounted"] == 0
    assert r["failed"] == {"worker_crash": 10} and r["records"] == 20
    assert "part-00" in r["examples"]["failed.worker_crash"][0]
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", "preprocess", str(inputs), "-o",
                           str(tmp_path / "cli"), "--cleaner", "abort", "--workers", "2", "--max-retries", "2"],
                          cwd=ROOT, env=plugin_env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 1 and "failed on every retry" in proc.stderr


def test_an_output_folder_made_with_other_options_is_refused_and_other_files_stay(tmp_path):
    inputs = make_inputs(tmp_path / "in", files=1, per_file=3)
    out = tmp_path / "out"
    run_preprocess([str(inputs)], str(out), CleanOptions(), local_run(), progress=False)
    (out / "notes.txt").write_text("mine")
    (out / "collection" / "README").write_text("mine too")
    with pytest.raises(ValueError, match="--overwrite"):
        run_preprocess([str(inputs)], str(out), CleanOptions(cleaner="density"), local_run(), progress=False)
    r = run_preprocess([str(inputs)], str(out), CleanOptions(cleaner="density"), local_run(), progress=False,
                       overwrite=True)
    assert r["written"] == 3
    assert (out / "notes.txt").read_text() == "mine" and (out / "collection" / "README").exists()
    again = run_preprocess([str(inputs)], str(out), CleanOptions(cleaner="density"), local_run(), progress=False)
    assert again["units"]["reused"] == 1 and again["written"] == 3


def test_a_worker_stopped_by_sigterm_is_redone_and_blames_no_record(tmp_path, plugin_env, monkeypatch):
    """SIGTERM to a worker (a stop of the whole service reaches every process) is no crash: even a one-record
    batch in flight is not counted failed.native_crash, so no unit entry a resume would reuse blames a record."""
    inputs = make_inputs(tmp_path / "in", files=2, per_file=20)
    out = tmp_path / "out"
    monkeypatch.setenv("WEBPRUNE_TEST_SLOW_S", "0.05")
    stopped = []

    def stop_a_running_worker():
        deadline = time.time() + 120
        while not stopped and time.time() < deadline:
            for marker in (out / "work").glob("*.json"):
                try:
                    inflight = json.loads(marker.read_text())["inflight"]
                except (OSError, ValueError, KeyError):
                    continue
                if inflight and inflight["first"] < 8:  # far from the unit's end: the signal finds it running
                    os.kill(inflight["pid"], signal.SIGTERM)
                    stopped.append(inflight["pid"])
                    break
            time.sleep(0.02)

    watcher = threading.Thread(target=stop_a_running_worker, daemon=True)
    watcher.start()
    stats = run_preprocess([str(inputs)], str(out), CleanOptions(cleaner="slow"), RunOptions(workers=2, batch_size=1),
                           progress=False)
    watcher.join()
    assert stopped, "no unit was seen running"
    assert (stats["records"], stats["written"], stats["failed"]) == (40, 40, {})
    assert stats["counters"]["units.stopped_attempts_redone"] == 1 and "units.attempts_lost" not in stats["counters"]
    assert stopped[0] not in {json.loads(p.read_text())["pid"] for p in (out / "units").glob("*.json")}
    ids = [json.loads(line)["id"] for data in shards(out).values() for line in data.decode().splitlines()]
    assert len(ids) == len(set(ids)) == 40
    # and a signal to the driver's process group spares the daemons whose loss ends the driver (raylet, GCS):
    # they have their own group
    daemons = {name: group for name, parent, group in processes() if parent == os.getpid()
               and name in ("raylet", "gcs_server")}
    assert set(daemons) == {"raylet", "gcs_server"} and os.getpgid(0) not in daemons.values()


def processes() -> list[tuple[str, int, int]]:
    """(name, parent pid, process group) of every process, from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        found.append((text[text.index("(") + 1:text.rindex(")")], int(fields[1]), int(fields[2])))
    return found
