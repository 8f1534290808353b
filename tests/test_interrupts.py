"""Interrupted and concurrent runs: Ctrl-C or SIGTERM at random points, then the same command, gives the
uninterrupted run's bytes with no record blamed; a second run on the same output is refused, naming the first.

Input: real pages of the shared cleaning sets packed into 8 WARCs, so that some units finish and some do not.
"""
import gzip
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from preprocess.runtime.executor import LocalExecutor
from preprocess.runtime.attempts import AttemptGuard
from preprocess.runtime.interrupt import Interrupted, SigtermInterrupts
from preprocess.folder.lock import LOCK, OutputLocked
from preprocess.config.options import CleanOptions
from preprocess.folder.output import OutputDir
from preprocess.driver.preprocess import run_preprocess
from preprocess.core.stats import Stats
from tests.conftest import ROOT, local_run, shared
from webprune.benchdata import pack_cleaning_pages

FILES, PAGES = 8, 800
ACCOUNTS = ("records", "written", "skipped", "failed", "unaccounted")
DUMPS = ("Fatal Python error", "Traceback", "*** SIGTERM received", "Stack (most recent call first)",
         "Current thread", "crashed its worker", "retrying after a worker died")


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    """The inputs, and the output of an uninterrupted run over them."""
    shared("cleaning")
    base = tmp_path_factory.mktemp("crawl")
    pack_cleaning_pages(base / "in", files=FILES, limit=PAGES)
    ref = run_preprocess([str(base / "in")], str(base / "ref"), CleanOptions(cleaner="density"),
                         local_run(compress=True), progress=False)
    assert ref["records"] == PAGES and ref["unaccounted"] == 0
    return base / "in", base / "ref", ref


TAGS = CleanOptions(cleaner="tags")  # tiny pages: tag removal writes them (the learned cleaner rightly drops them)


def cli(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "webprune.cli", "preprocess", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def shard_bytes(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / "collection").glob("*.jsonl.gz"))}


def assert_complete(out: Path, ref_dir: Path, ref: dict, stderr: str) -> dict:
    """OUT holds exactly the uninterrupted run's collection, and its stats say so."""
    stats = json.loads((out / "stats.json").read_text())
    assert {k: stats[k] for k in ACCOUNTS} == {k: ref[k] for k in ACCOUNTS}
    assert not any(k in stats["failed"] for k in ("native_crash", "timeout", "worker_crash"))
    assert shard_bytes(out) == shard_bytes(ref_dir)
    manifest = json.loads((out / "manifest.json").read_text())
    lines = {p.name: len(gzip.decompress(p.read_bytes()).splitlines()) for p in (out / "collection").glob("*.gz")}
    assert {s["shard"]: s["documents"] for s in manifest["shards"]} == lines
    assert sum(lines.values()) == stats["written"]
    assert not list((out / "work").iterdir()) and not list(out.rglob("*.tmp")) and not (out / LOCK).exists()
    for dump in DUMPS:
        assert dump not in stderr, stderr[-3000:]
    return stats


@pytest.mark.slow
@pytest.mark.parametrize("sig, group, seed", [("INT", True, 0), ("INT", True, 1), ("INT", True, 2),
                                              ("TERM", False, 0), ("TERM", False, 1), ("TERM", False, 2),
                                              ("TERM", True, 1), ("INT", False, 2)])
def test_an_interrupted_run_resumes_to_the_same_bytes(crawl, tmp_path, sig, group, seed):
    inputs, ref_dir, ref = crawl
    out = tmp_path / "out"
    args = [str(inputs), "-o", str(out), "--cleaner", "density", "--workers", "2"]
    rng = random.Random(seed)
    proc = cli(args)
    if seed == 0:  # early: Ray starting, or the first units
        time.sleep(rng.uniform(0.3, 2.5))
    else:  # once a few units are done, some way into the next ones
        want, deadline = rng.randint(1, FILES // 2), time.time() + 60
        while time.time() < deadline and len(list((out / "units").glob("*.json"))) < want:
            time.sleep(0.05)
        time.sleep(rng.uniform(0, 0.4))
    signum = getattr(signal, f"SIG{sig}")
    os.killpg(proc.pid, signum) if group else proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, stderr[-3000:]
    assert "interrupted; run the same command again to resume" in stderr
    for dump in DUMPS:
        assert dump not in stderr, stderr[-3000:]
    assert not (out / LOCK).exists()
    done_before = len(list((out / "units").glob("*.json")))
    assert done_before < FILES
    proc = cli(args)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr[-3000:]
    stats = assert_complete(out, ref_dir, ref, stderr)
    assert stats["units"]["reused"] >= done_before


@pytest.mark.slow
def test_a_second_run_on_the_same_output_is_refused_and_the_first_completes(crawl, tmp_path):
    inputs, ref_dir, ref = crawl
    out = tmp_path / "out"
    args = [str(inputs), "-o", str(out), "--cleaner", "density", "--workers", "2"]
    first = cli(args)
    deadline = time.time() + 60
    while time.time() < deadline and not (out / LOCK).exists():
        time.sleep(0.05)
    second = subprocess.run([sys.executable, "-m", "webprune.cli", "preprocess", *args], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert first.poll() is None, "the first run ended before the second started"
    assert second.returncode == 2
    line = second.stderr.strip()
    assert len(line.splitlines()) == 1 and "in use by another webprune run" in line
    assert f"pid {first.pid} on {socket.gethostname()}" in line and "preprocess" in line
    _, stderr = first.communicate(timeout=120)
    assert first.returncode == 0, stderr[-3000:]
    assert_complete(out, ref_dir, ref, stderr)


# -- the lock, without Ray ------------------------------------------------------------------------------------
def lock_file(out: Path, **holder) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / LOCK).write_text(json.dumps({"webprune": "lock", "host": socket.gethostname(), "pid": os.getpid(),
                                        "started": "2026-01-01T00:00:00", "command": "webprune preprocess x",
                                        "run": "other"} | holder))


def tiny_input(tmp_path: Path) -> str:
    from webprune.warcpack import pack_pages

    path = tmp_path / "in.warc.gz"
    pack_pages([("a", "http://a.example/", b"<html><body><p>one page with a few words</p></body></html>")], path)
    return str(path)


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_live_holder_refuses_every_command_on_that_folder_before_anything_is_written(tmp_path):
    warc = tiny_input(tmp_path)
    out = tmp_path / "out"
    lock_file(out)
    with pytest.raises(OutputLocked, match=f"pid {os.getpid()} on {socket.gethostname()}.*webprune preprocess x"):
        run_preprocess([warc], str(out), run=local_run(), progress=False)
    from preprocess.driver.train_crawl import train_crawl

    with pytest.raises(OutputLocked, match="in use by another webprune run"):
        train_crawl([warc], str(out), executor="local")
    from webprune.config import load_config
    from webprune.experiment import run_experiment

    with pytest.raises(OutputLocked, match="in use by another webprune run"):
        run_experiment(load_config(ROOT / "configs" / "example.toml"), out)
    assert sorted(p.name for p in out.iterdir()) == [LOCK]


@pytest.mark.parametrize("holder", [{"pid": "dead"}, {"proc_start": -1}])
def test_a_stale_lock_on_this_host_is_taken_over_with_a_warning(tmp_path, caplog, holder):
    out = tmp_path / "out"
    lock_file(out, **({"pid": dead_pid()} if holder.get("pid") == "dead" else holder))  # dead, or a reused pid
    r = run_preprocess([tiny_input(tmp_path)], str(out), run=local_run(), progress=False)
    assert r["written"] == 1 and "taking over the lock" in caplog.text and not (out / LOCK).exists()


@pytest.mark.parametrize("holder, fragment", [({"host": "elsewhere.example", "pid": 1}, "remove"),
                                              (None, "not a webprune lock")])
def test_a_lock_that_cannot_be_judged_stale_is_never_taken_over(tmp_path, holder, fragment):
    out = tmp_path / "out"
    if holder is None:
        out.mkdir()
        (out / LOCK).write_text("the user's own file")
    else:
        lock_file(out, **holder)
    before = (out / LOCK).read_bytes()
    with pytest.raises(OutputLocked, match=fragment):
        run_preprocess([tiny_input(tmp_path)], str(out), run=local_run(), progress=False)
    assert (out / LOCK).read_bytes() == before and sorted(p.name for p in out.iterdir()) == [LOCK]


# -- attempt markers of another run ---------------------------------------------------------------------------
def test_a_marker_of_another_run_is_a_cancelled_attempt_not_a_crash(tmp_path):
    out = OutputDir(str(tmp_path / "o"))
    marker = {"run": "run-a", "attempt": 1, "poison": {}, "suspect": None, "inflight": {"first": 2, "last": 2}}
    out.write_json(marker, "work", "k.json")
    other = AttemptGuard(out, "k", "s", page_timeout=0, run="run-b")
    assert other.cancelled and not other.poison and other.suspect is None and other.lost == 0
    same = AttemptGuard(out, "k", "s", page_timeout=0, run="run-a")  # Ray's retry within the run
    assert not same.cancelled and same.poison == {2: "native_crash"} and same.lost == 1


def test_a_rerun_after_an_interrupted_attempt_writes_the_page_and_blames_nothing(tmp_path):
    from webprune.warcpack import pack_pages

    pages = [(f"p{i}", f"http://a.example/{i}", f"<html><body><p>page {i} with words</p></body></html>".encode())
             for i in range(5)]
    pack_pages(pages, tmp_path / "in" / "a.warc.gz")
    pack_pages([("b0", *pages[0][1:])], tmp_path / "in" / "b.warc.gz")  # a unit of one record: its only batch
    out = tmp_path / "out"
    first = run_preprocess([str(tmp_path / "in")], str(out), TAGS, local_run(), progress=False)
    entry = json.loads((out / "units" / "00001.json").read_text())
    (out / "units" / "00001.json").unlink()  # as if the run was stopped while cleaning b's record
    (out / "work" / f"{entry['key']}.json").write_text(json.dumps(
        {"run": "the-stopped-run", "attempt": 1, "poison": {}, "suspect": None,
         "inflight": {"first": 0, "last": 0, "pid": 1}}))
    again = run_preprocess([str(tmp_path / "in")], str(out), TAGS, local_run(), progress=False)
    assert again["failed"] == {} and again["written"] == first["written"] == 6
    assert again["counters"]["units.cancelled_attempts_redone"] == 1
    assert not list((out / "work").iterdir())
    assert Stats.from_state(entry["stats"]).counts["written"] == 1


def test_a_marker_left_beside_a_finished_unit_goes_on_resume(tmp_path):
    """Stopped between writing a unit's entry and removing its marker: the resume reuses the unit and removes
    the marker (webprune's own file), and the shards stay as they were."""
    from webprune.warcpack import pack_pages

    pages = [(f"p{i}", f"http://a.example/{i}", f"<html><body><p>page {i} with words</p></body></html>".encode())
             for i in range(3)]
    pack_pages(pages, tmp_path / "in" / "a.warc.gz")
    out = tmp_path / "out"
    first = run_preprocess([str(tmp_path / "in")], str(out), TAGS, local_run(), progress=False)
    before = {p.name: p.read_bytes() for p in (out / "collection").iterdir()}
    key = json.loads((out / "units" / "00000.json").read_text())["key"]
    (out / "work" / f"{key}.json").write_text(json.dumps(
        {"run": "the-stopped-run", "attempt": 0, "stopped": 1, "poison": {}, "suspect": None, "inflight": {}}))
    again = run_preprocess([str(tmp_path / "in")], str(out), TAGS, local_run(), progress=False)
    assert again["written"] == first["written"] == 3 and again["units"]["reused"] == 1
    assert not list((out / "work").iterdir())
    assert {p.name: p.read_bytes() for p in (out / "collection").iterdir()} == before


# -- stop signals in the driver, without Ray ------------------------------------------------------------------
def test_a_failure_seen_after_a_stop_signal_was_sent_is_the_stop_not_a_failure():
    """A unit whose worker died of the same SIGTERM may be seen failing before the driver's handler has run (it
    runs between bytecodes of the main thread): the executor raises Interrupted instead of counting it."""
    def dies_with_the_stop(shared, item, progress):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # sent, not yet handled
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
        raise OSError("the worker's connection was lost")

    try:
        with SigtermInterrupts(), pytest.raises(Interrupted) as stop:
            list(LocalExecutor().map(dies_with_the_stop, [1]))
    finally:
        signal.sigtimedwait({signal.SIGTERM}, 0)  # taken here, never by pytest's own disposition
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    assert stop.value.status == 143
    assert list(LocalExecutor().map(lambda s, i, p: 1 / 0, [1]))[0][1].reason == "unit_error"  # no signal: failed


def test_a_stop_signal_while_ray_starts_is_held_until_it_is_up():
    """ray.init is never interrupted (a KeyboardInterrupt inside it crashed the driver; Ray's SIGTERM handlers
    exit 1): the signal is raised as Interrupted once the block around it is done."""
    reached = False
    with SigtermInterrupts() as stops, pytest.raises(Interrupted) as stop:
        with stops.starting_ray():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            reached = True
    assert reached and stop.value.status == 143


RACE = """
import os, signal, time
import ray
import ray._private.worker as worker
from preprocess.runtime.executor import RayExecutor
from preprocess.runtime.interrupt import Interrupted, SigtermInterrupts
connect = worker.connect
def connect_then_stop(*args, **kwargs):  # the driver's core worker is up, ray.init not yet returned
    out = connect(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.2)
    return out
worker.connect = connect_then_stop
try:
    with SigtermInterrupts() as stops, stops.starting_ray():
        RayExecutor(workers=1)
except Interrupted as stop:
    print("interrupted", stop.status)
finally:
    ray.shutdown()
"""


@pytest.mark.slow
def test_a_stop_signal_once_the_drivers_core_worker_is_up_prints_no_crash_dump():
    """Ray's C++ failure-signal handler, installed with the driver's core worker, printed "*** SIGTERM received"
    and a stack for a stop signal in the last part of ray.init; the driver's core worker now installs none."""
    out = subprocess.run([sys.executable, "-c", RACE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "interrupted 143", out.stderr[-2000:]
    for dump in DUMPS:
        assert dump not in out.stderr, out.stderr[-2000:]
