"""Every real WARC/ARC under ../shared/data/warc gives a clear outcome; every record is accounted for."""
import json

import pytest

from preprocess.readers import read_source
from preprocess.config.options import CleanOptions
from preprocess.readers.sources import discover
from preprocess.driver.preprocess import run_preprocess
from preprocess.core.stats import Stats
from tests.conftest import local_run, shared

# file -> (documents written, {outcome: count}) as read by hand from each file
EXPECTED = {
    "clueweb09/clueweb09-ja-sample.warc.gz": (29, {"skipped.non_response": 1}),
    "commoncrawl/CC-MAIN-2020-34-sample.warc.gz": (16, {"skipped.non_response": 34}),
    "commoncrawl/whirlwind-whirlwind.warc.gz": (1, {"skipped.non_response": 3}),
    "commoncrawl/whirlwind-whirlwind.warc.wat.gz": (0, {"skipped.non_response": 2}),
    "commoncrawl/whirlwind-whirlwind.warc.wet.gz": (1, {"skipped.non_response": 1}),  # conversion: WET text
    "edge-cases/bad.arc": (0, {"skipped.non_response": 1, "skipped.empty_payload": 3}),
    "edge-cases/clipped.warc.gz": (1, {}),
    "edge-cases/example-bad-non-chunked.warc.gz": (1, {"skipped.non_response": 5}),
    "edge-cases/example-iana.org-chunked.warc": (1, {"skipped.non_response": 2}),
    "edge-cases/example-space-in-target-uri.warc.gz": (0, {"skipped.non_response": 2}),
    "edge-cases/example-trunc.warc": (1, {"skipped.non_response": 3}),
    # its response record spans two gzip members: read whole (warcio lost its payload and the record after it);
    # its HTTP head was edited (the block digest fails), its payload digest still matches: written
    "edge-cases/example-wrong-chunks.warc.gz": (1, {"skipped.non_response": 1}),
    "edge-cases/example.arc.gz": (1, {"skipped.non_response": 1}),
    "edge-cases/example.warc.gz": (1, {"skipped.non_response": 5}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_real_archive_has_a_clear_outcome(name, tmp_path):
    path = shared("warc", name)
    r = run_preprocess([str(path)], str(tmp_path), run=local_run(), progress=False)
    written, outcomes = EXPECTED[name]
    got = {f"skipped.{k}": v for k, v in r["skipped"].items()} | {f"failed.{k}": v for k, v in r["failed"].items()}
    assert (r["written"], got) == (written, outcomes)
    assert r["unaccounted"] == 0 and r["records"] == written + sum(outcomes.values())
    shard = next((tmp_path / "collection").glob("*.jsonl"))
    lines = [json.loads(l) for l in shard.read_text().splitlines()]
    assert len(lines) == written and all(set(d) == {"id", "contents", "url", "title"} for d in lines)
    assert all(d["contents"].strip() for d in lines)


def test_clueweb09_ids_urls_and_japanese_text():
    stats = Stats()
    src = discover([shared("warc", "clueweb09", "clueweb09-ja-sample.warc.gz")])[0]
    docs = list(read_source(src, stats))
    assert [d.id for d in docs[:2]] == ["clueweb09-ja0016-50-00000", "clueweb09-ja0016-50-00001"]
    assert all(d.url.startswith("http") and "euc-jp" in d.content_type.lower() for d in docs)


# warcio's edge cases hold one record in three framings, with one WARC-Record-ID: the first file in input order
# (example-bad-non-chunked.warc.gz) writes it, the other two skip it as a copy
COPIES = {"edge-cases/example-trunc.warc", "edge-cases/example.warc.gz"}


def test_whole_run_over_all_archives_accounts_for_every_record(tmp_path):
    r = run_preprocess([str(shared("warc"))], str(tmp_path), run=local_run(), progress=False)
    assert r["records"] == sum(w + sum(o.values()) for w, o in EXPECTED.values())
    assert r["written"] == sum(w for w, _ in EXPECTED.values()) - len(COPIES) and r["unaccounted"] == 0
    assert r["skipped"]["duplicate_id"] == len(COPIES)
    assert sorted(e.split(" (")[1].split(")")[0].split("/warc/")[1] for e in r["examples"]["skipped.duplicate_id"]) \
        == sorted(COPIES)
    assert r["failed"] == {}  # every record of every real file is read
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert stats["written"] == r["written"] and stats["times"]["tags"]["cpu_s"] >= 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert sum(s["documents"] for s in manifest["shards"]) == r["written"]
    ja = [json.loads(l) for l in (tmp_path / "collection" / "00000-clueweb09-ja-sample.jsonl").read_text().splitlines()]
    assert any("ヘッドポーター" in d["contents"] for d in ja)  # EUC-JP decoded to UTF-8


def test_file_cut_mid_record_keeps_whole_records_and_flags_the_cut_one(tmp_path):
    raw = shared("warc", "commoncrawl", "CC-MAIN-2020-34-sample.warc.gz").read_bytes()
    cut = tmp_path / "in" / "cut.warc.gz"
    cut.parent.mkdir()
    cut.write_bytes(raw[: len(raw) // 2])  # chopped in the middle of a gzip member
    r = run_preprocess([str(cut)], str(tmp_path / "out"), run=local_run(), progress=False)
    assert r["failed"] == {} and r["unaccounted"] == 0
    assert r["written"] == 7  # six whole responses and the partial one the cut went through
    assert r["counters"]["read.truncated_records"] == 1
    assert "bytes missing" in r["examples"]["read.truncated_records"][0]


def test_tar_of_html_pages_uses_file_stems_as_ids(tmp_path):
    import tarfile

    tar = tmp_path / "pages.tar.gz"
    with tarfile.open(tar, "w:gz") as t:
        for name, body in [("a/DOC-1.html", b"<p>one</p>"), ("a/DOC-2.htm", b"<p>two</p>"), ("a/notes.txt", b"x")]:
            f = tmp_path / name.replace("/", "_")
            f.write_bytes(body)
            t.add(f, arcname=name)
    r = run_preprocess([str(tar)], str(tmp_path / "out"), CleanOptions(cleaner="tags"), local_run(), progress=False)
    assert (r["written"], r["skipped"]) == (2, {"non_html": 1})
    ids = [json.loads(l)["id"] for l in next((tmp_path / "out" / "collection").glob("*")).read_text().splitlines()]
    assert ids == ["DOC-1", "DOC-2"]


def test_bad_paths_give_an_error_that_says_what_to_do(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        discover([tmp_path / "missing.warc.gz"])
    (tmp_path / "x.pdf").write_bytes(b"%PDF")
    with pytest.raises(ValueError, match="pass archives"):
        discover([tmp_path / "x.pdf"])
