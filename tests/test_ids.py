"""One id rule (preprocess/core/ids.py): every document id is one that Lucene keeps and a TREC run file can name,
made safe reversibly from whatever the source id held; inputs built byte by byte."""
import gzip
import io
import json
import random
import tarfile
import urllib.parse

import pytest

from preprocess.core.ids import MAX_ID_BYTES, safe_id
from tests.hostile import http, page, read, warc_record

HOSTILE = ["a b", "a\tb", "a\nb", "a\u00a0b", "a\x0bb", "a\x0cb", "a\u2028b", "a\u200bb", "a\x1fb", "a\x85b",
           " lead", "trail ", "caf\udce9", "caf\udce8", "a%20b c", "\ufeffbom", "x" * 5000, "日本 語"]


def keeps_the_rule(i: str) -> bool:
    return bool(i) and i.split() == [i] and i.isprintable() and len(i.encode("utf-8")) <= MAX_ID_BYTES


@pytest.mark.parametrize("source", HOSTILE)
def test_a_hostile_source_id_becomes_one_that_a_run_file_and_lucene_keep(source):
    doc_id = safe_id(source)
    assert keeps_the_rule(doc_id), repr(doc_id)
    if len(source) < 1000:  # reversible: the source id's bytes, exactly
        assert urllib.parse.unquote_to_bytes(doc_id) == source.encode("utf-8", "surrogateescape")


@pytest.mark.parametrize("source", ["clueweb09-en0000-00-00001", "urn:uuid:0a1b", "CACM-0001", "a%20b", "日本語",
                                    "clueweb22-en0000-00-00000", "x.org:1234"])
def test_an_id_that_keeps_the_rule_is_unchanged(source):
    assert safe_id(source) == source


def test_different_source_ids_never_become_one_id():
    rng = random.Random(3)
    alphabet = "ab %\t\n\u00a0\x0b\udce9\udce8é日"
    sources = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(5000)}
    escaped = {s for s in sources if safe_id(s) != s}
    ids = [safe_id(s) for s in escaped]  # among the ids that were changed, one per source
    assert len(set(ids)) == len(ids)
    assert all(keeps_the_rule(i) for i in map(safe_id, sources))


def test_a_too_long_id_is_cut_with_a_hash_and_stays_unique():
    a, b = "x" * 3000 + "a", "x" * 3000 + "b"
    assert safe_id(a) != safe_id(b) and len(safe_id(a).encode()) <= MAX_ID_BYTES and "~" in safe_id(a)


def records_with(ids: list[bytes], header: bytes = b"WARC-TREC-ID") -> bytes:
    recs = []
    for n, raw in enumerate(ids):
        rec = warc_record(n)
        if header == b"WARC-Record-ID":
            rec = rec.replace(f"<urn:uuid:{n:08d}>".encode(), b"<" + raw + b">", 1)
        else:
            rec = rec.replace(b"WARC-Target-URI", header + b": " + raw + b"\r\nWARC-Target-URI", 1)
        recs.append(gzip.compress(rec, mtime=0))
    return b"".join(recs)


@pytest.mark.parametrize("header", [b"WARC-TREC-ID", b"WARC-Record-ID"])
def test_warc_ids_with_whitespace_or_foreign_bytes_are_written_safe_and_distinct(header):
    raw = [b"clueweb09-en0000-00-00001", b"clueweb09 en0000-00-00002", b"clueweb09\ten0000-00-00003",
           b"clueweb09-en0000\xc2\xa0-00-00004", b"clueweb09-en0000\x0b-00-00005", b"caf\xe9-1", b"caf\xe8-1",
           b"caf\xef\xbf\xbd-1"]  # the last: a real U+FFFD, which two foreign bytes once both became
    docs, stats = read(records_with(raw, header), "t.warc.gz")
    assert len(docs) == len(raw) and len({d.id for d in docs}) == len(raw)
    for d, source in zip(docs, raw):
        assert keeps_the_rule(d.id)
        assert urllib.parse.unquote_to_bytes(d.id) == source or d.id == source.decode()
        assert ("source_id" in d.fields) == (d.id != source.decode("utf-8", "replace"))
    assert stats.counts["read.id_escaped"] == 6


def test_a_folded_warc_trec_id_is_read_whole():
    rec = warc_record(1).replace(b"WARC-Target-URI", b"WARC-TREC-ID: clueweb09-en0000-\r\n\t00-00011\r\n"
                                                     b"WARC-Target-URI", 1)
    for data in (gzip.compress(rec, mtime=0), rec):
        docs, _ = read(data, "t.warc.gz" if data[:2] == b"\x1f\x8b" else "t.warc")
        assert [d.id for d in docs] == ["clueweb09-en0000-%2000-00011"]  # the fold is one space (WARC, RFC 2616)
        assert docs[0].fields["source_id"] == "clueweb09-en0000- 00-00011"


def test_arc_ids_of_a_file_whose_name_holds_a_space_are_safe():
    from tests.hostile import arc_file

    data = b"".join(arc_file([("http://x.org/1", http(page(1)))]))
    docs, _ = read(data, "my crawl.arc")
    assert len(docs) == 1 and keeps_the_rule(docs[0].id) and docs[0].id.startswith("my%20crawl.arc:")


def _tar(names: list[str]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.GNU_FORMAT) as t:
        for i, name in enumerate(names):
            data = page(i)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def test_tar_member_names_with_whitespace_or_foreign_bytes_become_safe_distinct_ids(tmp_path):
    from tests.conftest import local_run
    from preprocess.driver.preprocess import run_preprocess

    names = ["ok one.html", "tab\there.html", "new\nline.html", "caf\udce9.html", "caf\udce8.html", "plain.html",
             "a b.html", "a%20b.html"]
    (tmp_path / "pages.tar.gz").write_bytes(_tar(names))
    r = run_preprocess([str(tmp_path / "pages.tar.gz")], str(tmp_path / "out"), run=local_run(outcomes=True),
                       progress=False)
    assert r["records"] == r["written"] == len(names) and not r["skipped"] and not r["failed"]
    ids = [json.loads(line)["id"] for line in (tmp_path / "out" / "collection").glob("*.jsonl").__next__().open()]
    assert len(set(ids)) == len(names) and all(keeps_the_rule(i) for i in ids)
    assert "caf%E9" in ids and "caf%E8" in ids
    # "a b" and "a%20b" meet as one safe stem: the unit's rule names both by path, the later copy numbered
    assert ids[-2:] == ["a%20b.html", "a%20b.html#2"]
    ledger = gzip.decompress((tmp_path / "out" / "outcomes" / "00000.tsv.gz").read_bytes()).decode().splitlines()
    assert [line.split("\t") for line in ledger] == [[i, "written"] for i in ids]  # one line, two columns each


def test_a_non_utf8_file_name_beside_a_good_one_costs_nothing(tmp_path):
    """``caf\\xe9.html`` beside ``ok.html``: both pages written, every record counted, the run ends well."""
    import os
    import subprocess
    import sys

    folder = tmp_path / "pages"
    folder.mkdir()
    with open(os.path.join(os.fsencode(folder), b"caf\xe9.html"), "wb") as fh:
        fh.write(page(1))
    (folder / "ok.html").write_bytes(page(2))
    arch = os.path.join(os.fsencode(tmp_path), b"crawl \xe9.warc.gz")  # an archive with such a name too
    with open(arch, "wb") as fh:
        fh.write(gzip.compress(warc_record(3), mtime=0))
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", "preprocess", os.fsdecode(folder),
                           os.fsdecode(arch), "-o", str(out), "--local"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("3 records: 3 written, skipped 0, failed 0")
    stats = json.loads((out / "stats.json").read_text())
    assert stats["records"] == stats["written"] == 3 and stats["unaccounted"] == 0
    ids = sorted(json.loads(line)["id"] for f in (out / "collection").iterdir() for line in gzip.open(f))
    assert ids == ["caf%E9", "ok", "urn:uuid:00000003"]
