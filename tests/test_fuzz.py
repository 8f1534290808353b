"""The fuzz suite, bounded for CI: mutated real pages and records, in every framing, through the cleaners.

The full benchmark (>= 10,000 records, 20 MB pages) is scripts/bench/bench_fuzz.py; this runs the same generator on
a few hundred records with the big mutations shrunk, and checks the same things: every record accounted for
(records in = records counted, per framing), no pristine or repairable record lost to a bad neighbour, none
written with a text other than its unbroken twin's, no unit lost, workers within 1 GB, failures only for
reasons of the records' own.
"""
import pytest

from preprocess.config.options import CleanOptions, RunOptions
from preprocess.driver.preprocess import run_preprocess
from tests.conftest import local_run, shared
from webprune.benchdata import cleaning_pages
from webprune.fuzz import FRAMINGS, write_fuzz_files
from webprune.fuzz_check import integrity

pytestmark = pytest.mark.slow
OWN_REASONS = {"corrupt", "bad_headers", "bad_http_head", "digest_mismatch"}


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    shared()
    pages = [p.read_bytes() for p in cleaning_pages()[::20]]
    folder = tmp_path_factory.mktemp("fuzz")
    files = write_fuzz_files(folder / "in", pages, records=420, files=len(FRAMINGS), seed=3, scale=0.05,
                             page_rate=0.4, record_rate=0.3, twin_dir=folder / "twin")
    return folder, files


def test_every_framing_counts_every_record_and_loses_or_alters_none(fuzz, tmp_path):
    folder, files = fuzz
    opts = CleanOptions()
    run_preprocess([str(folder / "in")], str(tmp_path / "run"), opts, local_run(), progress=False)
    run_preprocess([str(folder / "twin")], str(tmp_path / "twin"), opts, local_run(), progress=False)
    rows = {k: v.row() for k, v in integrity(files, tmp_path / "run", tmp_path / "twin").items()}
    assert set(rows) == set(FRAMINGS)
    for framing, row in rows.items():
        assert row["records_in"] == row["counted"], row
        assert row["lost"] == 0 and row["altered"] == 0, row
        assert row["expected"] > 20, row  # the check had records to check


@pytest.mark.parametrize("cleaner", ["density", "learned"])
def test_cleaners_on_ray_workers_account_for_every_fuzzed_record(fuzz, tmp_path, cleaner):
    import ray

    folder, files = fuzz
    r = run_preprocess([str(folder / "in")], str(tmp_path / "out"),
                       CleanOptions(cleaner=cleaner, drop_hinted=True, max_link_density=0.5),
                       RunOptions(workers=2, batch_size=8, outcomes=True), progress=False)
    ray.shutdown()
    arc_filedescs = sum(1 for f in files if f.framing.startswith("arc"))
    assert r["records"] == sum(f.records for f in files) + arc_filedescs and r["unaccounted"] == 0
    assert r["units"]["failed"] == 0 and r["units"]["worker_peak_rss_mb"] < 1024
    assert set(r["failed"]) <= OWN_REASONS, r["failed"]
