"""Ids that two records share (preprocess/run/duplicates.py): the first by input order is written, every other copy
``skipped.duplicate_id``, in a file and across files, with the same bytes for any worker count, on a resume,
and after the unit that kept a page is redone without it."""
import gzip
import json
import os
import time

import pytest

from preprocess.driver.preprocess import run_preprocess
from tests.conftest import local_run
from tests.hostile import warc_record


def archive(path, records: list[tuple[int, str]]) -> str:
    path.write_bytes(b"".join(gzip.compress(warc_record(n, headers={"WARC-TREC-ID": tid}), mtime=0)
                              for n, tid in records))
    return str(path)


def shard_ids(out) -> dict[str, list[tuple[str, str]]]:
    """Each shard's (id, title) pairs: which page holds an id."""
    got = {}
    for f in sorted((out / "collection").iterdir()):
        rows = [json.loads(line) for line in (gzip.open(f) if f.name.endswith(".gz") else open(f))]
        got[f.name] = [(r["id"], r["title"]) for r in rows]
    return got


def crawl(tmp_path):
    a = archive(tmp_path / "a.warc.gz", [(1, "d-1"), (2, "d-2"), (3, "d-1"), (4, "d-4")])
    b = archive(tmp_path / "b.warc.gz", [(5, "d-4"), (6, "d-6"), (7, "d-2")])
    c = archive(tmp_path / "c.warc.gz", [(8, "d-8"), (9, "d-6")])
    return [a, b, c]


def test_the_first_copy_by_input_order_is_written_and_every_other_is_counted(tmp_path):
    r = run_preprocess(crawl(tmp_path), str(tmp_path / "out"), run=local_run(outcomes=True), progress=False)
    assert (r["records"], r["written"], r["skipped"]) == (9, 5, {"duplicate_id": 4}) and r["unaccounted"] == 0
    assert shard_ids(tmp_path / "out") == {"00000-a.jsonl": [("d-1", "Page 1"), ("d-2", "Page 2"), ("d-4", "Page 4")],
                                           "00001-b.jsonl": [("d-6", "Page 6")], "00002-c.jsonl": [("d-8", "Page 8")]}
    ledger = [line.split("\t") for i in range(3) for line in
              gzip.decompress((tmp_path / "out" / "outcomes" / f"{i:05d}.tsv.gz").read_bytes()).decode().splitlines()]
    assert [o for _, o in ledger].count("skipped.duplicate_id") == 4 and [o for _, o in ledger].count("written") == 5
    entries = [json.loads((tmp_path / "out" / "units" / f"{i:05d}.json").read_text()) for i in range(3)]
    assert [e["documents"] for e in entries] == [3, 1, 1]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert sum(s["documents"] for s in manifest["shards"]) == r["written"]


@pytest.mark.slow
def test_ray_workers_and_a_resume_give_the_same_bytes(tmp_path):
    inputs = crawl(tmp_path)
    run_preprocess(inputs, str(tmp_path / "local"), run=local_run(compress=True), progress=False)
    from preprocess.config.options import RunOptions

    r = run_preprocess(inputs, str(tmp_path / "ray"), run=RunOptions(workers=2), progress=False)
    assert r["skipped"] == {"duplicate_id": 4}
    again = run_preprocess(inputs, str(tmp_path / "ray"), run=RunOptions(workers=2), progress=False)
    assert again["units"]["reused"] == 3 and again["written"] == 5
    for name in sorted(os.listdir(tmp_path / "local" / "collection")):
        assert (tmp_path / "local" / "collection" / name).read_bytes() == \
            (tmp_path / "ray" / "collection" / name).read_bytes()


def test_a_page_dropped_as_a_copy_comes_back_when_the_unit_that_kept_it_no_longer_has_it(tmp_path):
    inputs = crawl(tmp_path)
    out = tmp_path / "out"
    run_preprocess(inputs, str(out), run=local_run(), progress=False)
    assert ("d-6", "Page 9") not in shard_ids(out)["00002-c.jsonl"]
    time.sleep(0.01)
    archive(tmp_path / "b.warc.gz", [(5, "d-5"), (7, "d-7")])  # b no longer holds d-4, d-6 or d-2
    r = run_preprocess(inputs, str(out), run=local_run(), progress=False)
    # a reused; b changed; c cleaned again, its dropped copy of d-6 back (b no longer keeps it)
    assert r["units"]["reused"] == 1 and r["skipped"] == {"duplicate_id": 1} and r["written"] == 7
    assert shard_ids(out)["00002-c.jsonl"] == [("d-8", "Page 8"), ("d-6", "Page 9")]  # c keeps d-6 now
    fresh = run_preprocess(inputs, str(tmp_path / "fresh"), run=local_run(), progress=False)
    assert shard_ids(out) == shard_ids(tmp_path / "fresh") and fresh["written"] == r["written"]


@pytest.mark.slow
def test_written_is_what_the_index_holds(tmp_path):
    from index.build import build_index

    run_preprocess(crawl(tmp_path), str(tmp_path / "out"), run=local_run(), progress=False)
    s = build_index(tmp_path / "out", tmp_path / "idx")
    assert s["documents"] == 5 and s["duplicates"] == 0 and s["preprocess"]["complete"]
