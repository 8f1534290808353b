"""The fuzz suite, bounded for CI: mutated real pages and records through every cleaner on Ray workers.

The full benchmark (>= 10,000 records, 20 MB pages) is scripts/bench_fuzz.py; this runs the same generator on
a few hundred records with the big mutations shrunk, and checks the same things: every record accounted for,
no pristine record lost to a bad neighbour, no unit lost, workers within 1 GB, failures only for reasons of
the records' own.
"""
import gzip

import pytest

from preprocess.options import CleanOptions, RunOptions
from preprocess.registry import CLEANERS
from preprocess.run import run_preprocess
from tests.conftest import shared
from webprune.benchdata import cleaning_pages
from webprune.fuzz import write_fuzz_warcs

pytestmark = pytest.mark.slow
OWN_REASONS = {"failed.corrupt", "failed.bad_headers", "failed.bad_http_head"}


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    shared()
    pages = [p.read_bytes() for p in cleaning_pages()[::20]]
    folder = tmp_path_factory.mktemp("fuzz")
    files = write_fuzz_warcs(folder, pages, records=360, files=4, seed=3, scale=0.05, page_rate=0.4,
                             record_rate=0.15)
    return folder, files


@pytest.mark.parametrize("cleaner", ["tags", "density", "sitediff"])
def test_every_fuzzed_record_is_accounted_for_and_none_is_lost_to_a_neighbour(fuzz, tmp_path, cleaner):
    import ray

    folder, files = fuzz
    r = run_preprocess([str(folder)], str(tmp_path / "out"),
                       CleanOptions(cleaner=cleaner, drop_hinted=True, max_link_density=0.5),
                       RunOptions(workers=2, batch_size=8, outcomes=True), progress=False)
    ray.shutdown()
    assert r["records"] == sum(f.records for f in files) == 360 and r["unaccounted"] == 0
    assert r["units"]["failed"] == 0 and r["units"]["worker_peak_rss_mb"] < 1024
    outcome = {}
    for p in (tmp_path / "out" / "outcomes").glob("*.tsv.gz"):
        for line in gzip.open(p, "rt"):
            rid, what = line.rstrip("\n").split("\t")
            outcome[rid] = what
    assert len([o for o in outcome.values()]) >= 360 - sum(r["failed"].get(k, 0) for k in ("corrupt",))
    pristine = [rid for f in files for rid in f.pristine]
    lost = [rid for rid in pristine if outcome.get(rid) is None or outcome[rid] in OWN_REASONS]
    assert lost == [], lost
    assert set(f"failed.{k}" for k in r["failed"]) <= OWN_REASONS, r["failed"]
    mutated = {rid for f in files for rid in f.mutated}
    strays = [(rid, what) for rid, what in outcome.items() if what in OWN_REASONS and rid not in mutated]
    assert all(rid.startswith("@") for rid, _ in strays), strays  # a broken member has no id: its offset
