"""`webprune index` accounts for every line of the collection: bad lines, truncated .gz shards and duplicate ids
are named and skipped, every valid document is indexed, and the user's files are never changed.

Shards are built byte by byte; what the index holds is read back from Lucene (in a child process)."""
import gzip
import hashlib
import json
import subprocess
import sys
import zlib

import pytest

from index.build import STAGING, STATS_FILE, build_index
from tests.conftest import ROOT
from webprune.cli import main


def doc(i: int, text: str = "") -> bytes:
    return json.dumps({"id": f"d{i:02d}", "contents": text or f"word{i} shared text"}).encode() + b"\n"


def fingerprint(folder) -> dict:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


READ_INDEX = """
import json, sys
from index.java import autoclass
utils = autoclass("io.anserini.index.IndexReaderUtils")
reader = utils.getReader(sys.argv[1])
ids = [utils.convertLuceneDocidToDocid(reader, i) for i in range(reader.maxDoc())]
raw = {d: utils.documentRaw(reader, d) for d in sys.argv[2:]}
print(json.dumps({"ids": ids, "raw": raw}))
"""


def read_index(index, *raw_of: str) -> dict:
    """The ids in the index (and the stored JSON of ``raw_of``), read by Lucene in a child process: in the full
    suite the test process, whose JVM earlier tests had started, died once of SIGSEGV in documentRaw here (not
    reproduced with those tests alone); a child JVM keeps such a crash from taking the suite with it."""
    proc = subprocess.run([sys.executable, "-c", READ_INDEX, str(index), *raw_of], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def indexed_ids(index) -> set[str]:
    ids = read_index(index)["ids"]
    assert len(ids) == len(set(ids))
    return set(ids)


def index_cli(capsys, coll, index) -> tuple[int, str, str]:
    code = main(["index", str(coll), "-i", str(index)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.slow
def test_one_malformed_line_among_twenty(tmp_path, capsys, caplog):
    coll = tmp_path / "coll"
    coll.mkdir()
    lines = [doc(i) for i in range(1, 21)]
    lines[6] = b'{"id": "d07", "contents": "cut in the middle\n'  # line 7: a raw newline inside a string
    (coll / "shard.jsonl").write_bytes(b"".join(lines))
    before = fingerprint(coll)
    code, out, err = index_cli(capsys, coll, tmp_path / "idx")
    assert code == 0, err
    assert "indexed 19 documents (1 bad line skipped: shard.jsonl:7 not JSON; see" in out
    assert any("shard.jsonl:7" in r.message for r in caplog.records if r.levelname == "WARNING")  # loud
    stats = json.loads((tmp_path / "idx" / STATS_FILE).read_text())
    assert (stats["lines"], stats["documents"], stats["valid_documents"], stats["bad_lines"]) == (20, 19, 19, 1)
    assert stats["bad_examples"] == ["shard.jsonl:7: not JSON"] and stats["repaired"] == ["shard.jsonl"]
    assert indexed_ids(tmp_path / "idx") == {f"d{i:02d}" for i in range(1, 21) if i != 7}
    assert fingerprint(coll) == before and not (tmp_path / "idx" / STAGING).exists()


@pytest.mark.slow
def test_truncated_gz_shard_keeps_its_complete_lines(tmp_path):
    coll = tmp_path / "coll"
    coll.mkdir()
    (coll / "a.jsonl").write_bytes(doc(0))
    # one gzip member per line: cut inside the 31st member, 30 lines are whole and the 31st is cut short
    members = [gzip.compress(doc(i, f"text of document {i} " * 20)) for i in range(1, 41)]
    cut = sum(map(len, members[:30])) + len(members[30]) // 2
    (coll / "b.jsonl.gz").write_bytes(b"".join(members)[:cut])
    before = fingerprint(coll)
    s = build_index(coll, tmp_path / "idx")
    assert s["truncated"] == [{"file": "b.jsonl.gz", "reason": "is truncated (ends inside its gzip stream)",
                               "complete_lines": 30}]
    assert s["documents"] == 31 and s["lines"] == 32 - (s["bad_lines"] == 0)
    assert indexed_ids(tmp_path / "idx") == {f"d{i:02d}" for i in range(0, 31)}
    assert "b.jsonl.gz is truncated" in s["problems"] and fingerprint(coll) == before


@pytest.mark.slow
def test_truncated_single_member_gz_indexes_a_prefix(tmp_path):
    coll = tmp_path / "coll"
    coll.mkdir()
    data = gzip.compress(b"".join(doc(i, f"words {i} " * 50) for i in range(1, 61)))
    (coll / "c.jsonl.gz").write_bytes(data[: len(data) * 2 // 3])
    s = build_index(coll, tmp_path / "idx")
    n = s["documents"]
    assert 0 < n < 60 and s["truncated"][0]["file"] == "c.jsonl.gz"
    assert s["lines"] == n + s["bad_lines"] + s["blank_lines"]  # every line read accounted for
    assert indexed_ids(tmp_path / "idx") == {f"d{i:02d}" for i in range(1, n + 1)}  # the lines before the break


@pytest.mark.slow
def test_lines_that_are_not_documents_are_named(tmp_path):
    coll = tmp_path / "coll"
    (coll / "sub").mkdir(parents=True)
    (coll / "sub" / "s.jsonl").write_bytes(
        doc(1) + b'{"contents": "no id here"}\n' + doc(2) + b'{"id": 5, "contents": "a number"}\n'
        + b'{"id": "e", "contents": " \\t"}\n' + b"\n" + b'[1, 2]\n' + b'{"id": "two words", "contents": "x"}\n'
        + b'{"id": "nc"}\n' + b'\xff\xfe\n' + doc(3))
    (coll / "empty.jsonl").write_bytes(b"")
    s = build_index(coll, tmp_path / "idx")
    assert s["documents"] == 3 and s["lines"] == 11 and s["blank_lines"] == 1 and s["bad_lines"] == 7
    assert s["bad_examples"][0] == "sub/s.jsonl:2: no id"
    assert s["bad_reasons"] == {"no id": 1, "id not a non-empty string": 1, "empty contents": 1,
                                "not a JSON object (one document a line)": 1, "no contents": 1, "not UTF-8": 1,
                                "id holds whitespace (a TREC run splits on it)": 1}
    assert indexed_ids(tmp_path / "idx") == {"d01", "d02", "d03"}


@pytest.mark.slow
def test_duplicate_ids_keep_the_first(tmp_path):
    coll = tmp_path / "coll"
    coll.mkdir()
    (coll / "a.jsonl").write_bytes(doc(1, "first copy") + doc(2))
    (coll / "b.jsonl").write_bytes(doc(1, "second copy") + doc(3))
    s = build_index(coll, tmp_path / "idx", store_raw=True)
    assert s["duplicates"] == 1 and s["duplicate_examples"] == ["b.jsonl:1: id 'd01' (first at a.jsonl:1)"]
    assert s["documents"] == 3 and s["repaired"] == ["b.jsonl"]
    got = read_index(tmp_path / "idx", "d01")
    assert sorted(got["ids"]) == ["d01", "d02", "d03"] and json.loads(got["raw"]["d01"])["contents"] == "first copy"


@pytest.mark.slow
def test_a_clean_collection_is_read_in_place(tmp_path, capsys):
    coll = tmp_path / "coll"
    coll.mkdir()
    (coll / "a.jsonl").write_bytes(b"".join(doc(i) for i in range(5)))
    (coll / "b.jsonl.gz").write_bytes(gzip.compress(b"".join(doc(i) for i in range(5, 9))))
    (coll / "c.jsonl").write_bytes(b"")  # an empty shard is no problem
    code, out, err = index_cli(capsys, coll, tmp_path / "idx")
    assert code == 0 and out.startswith("indexed 9 documents in ") and "WARNING" not in err
    stats = json.loads((tmp_path / "idx" / STATS_FILE).read_text())
    assert stats["problems"] is None and stats["repaired"] == [] and stats["lines"] == 9
    from index.validate import check

    assert check(coll, tmp_path / "staging")[0] == coll and not (tmp_path / "staging").exists()


def test_empty_gz_and_corrupt_gz_are_named_without_the_jvm(tmp_path):
    from index.validate import check

    coll = tmp_path / "coll"
    coll.mkdir()
    (coll / "a.jsonl.gz").write_bytes(b"")
    (coll / "b.jsonl.gz").write_bytes(b"not gzip at all\n")
    z = zlib.compressobj(6, zlib.DEFLATED, 31)
    (coll / "c.jsonl.gz").write_bytes(z.compress(doc(1) + doc(2)) + z.flush())
    source, report = check(coll, tmp_path / "staging")
    assert source == tmp_path / "staging" and report.documents == 2
    assert [(t["file"], t["reason"].split(" (")[0]) for t in report.truncated] == [
        ("a.jsonl.gz", "is empty"), ("b.jsonl.gz", "is corrupt")]
    assert (tmp_path / "staging" / "c.jsonl.gz").is_symlink()  # clean files are linked, not copied
    assert gzip.decompress((tmp_path / "staging" / "b.jsonl.gz").read_bytes()) == b""


def test_anserini_count_must_equal_the_valid_documents(tmp_path, monkeypatch):
    import index.build as build

    coll = tmp_path / "coll"
    coll.mkdir()
    (coll / "a.jsonl").write_bytes(doc(1) + doc(2))
    fake_log = "Indexing Complete! 1 documents indexed\nindexed:   1\nTotal 1 documents indexed in 00:00:00\n"
    monkeypatch.setattr(build, "_anserini", lambda *a: (fake_log, 0, 0.1))
    with pytest.raises(RuntimeError, match="Anserini indexed 1 documents .* holds 2 valid ones"):
        build.build_index(coll, tmp_path / "idx")


def test_an_index_inside_its_collection_is_refused(tmp_path, capsys):
    coll = tmp_path / "coll"
    coll.mkdir()
    (coll / "a.jsonl").write_bytes(doc(1))
    assert main(["index", str(coll), "-i", str(coll / "idx")]) == 2
    assert "inside the collection" in capsys.readouterr().err and not (coll / "idx").exists()
