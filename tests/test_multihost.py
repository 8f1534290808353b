"""A real multi-host Ray cluster on one machine (tests/multihost.py): a head, two worker nodes and an S3 server,
each a network namespace with its own address; faults at a random point of a run, each compared byte for byte
with an uninterrupted run. One seed a fault here; more with ``-m multihost_long`` (by hand, minutes each).

Table of every fault and seed: ``python scripts/bench/multihost.py`` (docs/cluster.md).
"""
import gzip
import json
import os
import shutil
import subprocess

import pytest

import tests.plugins.faults  # registers the test cleaners in this process too
from preprocess.config.options import CleanOptions
from preprocess.driver.preprocess import run_preprocess
from tests.conftest import local_run, shared
from tests.multihost import (ARGS, FAULTS, FILES, PAGES, PREFIX, SLOW_S, Cluster, Study, _namespaces, remove_leftovers,
                             run_folder, run_ip, unavailable, write_owner)
from webprune.benchdata import pack_cleaning_pages

pytestmark = pytest.mark.slow
WHY_NOT = unavailable()
needs_namespaces = pytest.mark.skipif(WHY_NOT is not None, reason=f"no multi-host cluster here: {WHY_NOT}")
LONG_SEEDS = (2, 3, 4)


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    shared()
    return pack_cleaning_pages(tmp_path_factory.mktemp("crawl"), files=FILES, limit=PAGES)[0].parent


@pytest.fixture(scope="module")
def study(crawl, tmp_path_factory):
    """The cluster and its uninterrupted run, shared by the module's tests; every namespace, process and temp dir
    of it removed at the end, on failure too."""
    if WHY_NOT is not None:
        pytest.skip(f"no multi-host cluster here: {WHY_NOT}")
    cluster = Cluster(workers=2, env={"WEBPRUNE_TEST_SLOW_S": SLOW_S})
    cluster.start()
    try:
        yield Study(cluster, crawl, tmp_path_factory.mktemp("multihost"), ARGS)
    finally:
        cluster.close()
    assert not [ns for ns in _namespaces() if ns.startswith(f"{PREFIX}{cluster.run_id}-")]


def explain(study, outcome) -> str:
    logs = "\n".join(f"--- driver run {i}: exit {r[0]}, {r[1]} s\n"
                     + (study.work / f"out-{outcome.kind}-{outcome.seed}.{i}.log").read_text()[-3000:]
                     for i, r in enumerate(outcome.runs))
    return f"{json.dumps(outcome.row(), indent=1)}\n{logs}"


@needs_namespaces
def test_the_uninterrupted_run_is_spread_over_both_worker_hosts_and_equals_one_local_process(study, crawl, tmp_path,
                                                                                          monkeypatch):
    cluster = study.cluster
    assert not cluster.address.startswith("127.") and cluster.alive_workers() == 2
    stats = json.loads((study.work / "ref" / "stats.json").read_text())
    assert len(stats["units"]["nodes"]) == 2 and stats["unaccounted"] == 0  # units ran on both worker hosts
    monkeypatch.setattr(tests.plugins.faults, "SLOW_S", 0.0)  # the same cleaner, without its sleep
    local = run_preprocess([str(crawl)], str(tmp_path / "local"), CleanOptions(cleaner="slow"), local_run(compress=True),
                           progress=False)
    assert {k: local[k] for k in study.counts} == study.counts and study.counts["records"] == PAGES
    assert {p.name: p.read_bytes() for p in sorted((tmp_path / "local" / "collection").glob("*"))} == study.shards
    assert all(gzip.decompress(data) for data in study.shards.values())


@needs_namespaces
@pytest.mark.parametrize("kind", list(FAULTS))
def test_a_fault_at_a_random_point_gives_the_uninterrupted_runs_shards(study, kind):
    outcome = study.run(kind, seed=1)
    assert outcome.as_expected, explain(study, outcome)


@needs_namespaces
@pytest.mark.multihost_long
@pytest.mark.parametrize("seed", LONG_SEEDS)
@pytest.mark.parametrize("kind", list(FAULTS))
def test_more_seeds(study, kind, seed):
    outcome = study.run(kind, seed)
    assert outcome.as_expected, explain(study, outcome)


@needs_namespaces
def test_leftovers_of_a_killed_run_are_removed_and_a_running_ones_kept():
    gone = subprocess.Popen(["true"])
    gone.wait()
    runs = {"0dead0": gone.pid, "11fe11": os.getpid()}  # a run whose owner is gone, one still running
    try:
        for run_id, pid in runs.items():
            run_ip("netns", "add", f"{PREFIX}{run_id}-w1")
            write_owner(run_id, pid)
        assert "0dead0" in remove_leftovers()
        left = _namespaces()
        assert f"{PREFIX}0dead0-w1" not in left and not run_folder("0dead0").exists()
        assert f"{PREFIX}11fe11-w1" in left and run_folder("11fe11").exists()
    finally:
        for run_id in runs:
            run_ip("netns", "del", f"{PREFIX}{run_id}-w1", check=False)
            shutil.rmtree(run_folder(run_id), ignore_errors=True)
