"""Readers isolate records: one odd record never costs its neighbours, and every record is counted.

Each test builds a WARC around real pages, breaks one record or one stretch of the file, and checks that
every other record is read exactly as from the unbroken file, with the broken one counted by reason.
"""
import gzip
import io
import zlib

import pytest

from preprocess.readers.archive import read_archive
from preprocess.core.stats import Stats
from tests.conftest import shared
from tests.hostile import assert_paths_agree

PAGE = b"<html><head><title>T</title></head><body><p>" + b"Some words of a real page. " * 40 + b"</p></body></html>"


def record(n: int, headers: dict | None = None, http: bytes | None = None, kind: str = "response",
           length: int | None = None) -> bytes:
    body = http if http is not None else (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + PAGE + str(n).encode())
    h = {"WARC-Type": kind, "WARC-Record-ID": f"<urn:uuid:{n:08d}>", "WARC-Target-URI": f"http://x.org/{n}",
         "Content-Type": "application/http; msgtype=response",
         "Content-Length": str(len(body) if length is None else length)}
    h.update(headers or {})
    head = "WARC/1.0\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items() if v is not None) + "\r\n"
    return head.encode() + body + b"\r\n\r\n"


def gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def read(data: bytes, name: str = "t.warc.gz", max_bytes: int = 16 << 20):
    stats = Stats()
    docs = list(read_archive(io.BytesIO(data), name, name, stats, max_bytes))
    outcomes = stats.counts["written"] + sum(stats.group("skipped").values()) + sum(stats.group("failed").values())
    assert stats.counts["records"] == len(docs) + outcomes, stats.counts  # every record accounted for
    assert_paths_agree(data, name, max_bytes)  # the fast path reads it as the careful one does
    return [d.id for d in docs], stats


def ids(ns) -> list[str]:
    return [f"urn:uuid:{n:08d}" for n in ns]


def test_a_response_without_target_uri_is_read_and_so_is_the_rest_of_the_file():
    members = [gz(record(n, {"WARC-Target-URI": None} if n == 3 else None)) for n in range(10)]
    got, stats = read(b"".join(members))
    assert got == ids(range(10)) and not stats.group("failed")


@pytest.mark.parametrize("bad", ["abc", "-5", ""])
def test_a_record_with_an_unreadable_length_is_failed_alone(bad):
    members = [gz(record(n, {"Content-Length": bad} if n == 4 else None)) for n in range(8)]
    got, stats = read(b"".join(members))
    assert got == ids([0, 1, 2, 3, 5, 6, 7]) and stats.group("failed") == {"bad_headers": 1}
    assert "offset" in stats.examples["failed.bad_headers"][0]


def test_a_length_that_runs_into_the_next_record_is_cut_at_its_gzip_member():
    members = [gz(record(n, length=len(record(n)) + 5000 if n == 2 else None)) for n in range(6)]
    got, stats = read(b"".join(members))
    assert got == ids(range(6)) and stats.counts["read.bad_length"] == 1 and not stats.group("failed")


@pytest.mark.parametrize("big", [100_000, 2_500_000])  # skipped in one chunk, and across several
def test_a_too_large_record_whose_length_runs_into_the_next_record_does_not_swallow_it(big):
    """The fuzz benchmark's case: a page over --max-bytes with a Content-Length longer than its block."""
    huge = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>" + b"x" * big + b"</p></body></html>"
    members = [gz(record(n, http=huge if n == 2 else None, length=len(huge) * 3 if n == 2 else None))
               for n in range(6)]
    got, stats = read(b"".join(members), max_bytes=1_000)
    assert got == ids([0, 1, 3, 4, 5]) and stats.group("skipped") == {"too_large": 1}
    assert stats.counts["records"] == 6 and "read.bad_length" in stats.counts


def test_a_length_too_short_is_repaired_at_the_next_record_and_the_page_kept_whole():
    members = [gz(record(n, length=500 if n == 2 else None)) for n in range(6)]
    stats = Stats()
    docs = list(read_archive(io.BytesIO(b"".join(members)), "t.warc.gz", "t", stats, 1 << 24))
    assert [d.id for d in docs] == ids(range(6)) and not stats.group("failed") and stats.counts["read.bad_length"] == 1
    assert docs[2].raw == PAGE + b"2"  # not cut at byte 500


def test_a_corrupt_gzip_member_costs_one_record_and_reading_resumes_at_the_next_member():
    members = [gz(record(n)) for n in range(10)]
    bad = bytearray(members[5])
    bad[40:80] = bytes(40)  # inside the deflate stream
    got, stats = read(b"".join(members[:5] + [bytes(bad)] + members[6:]))
    assert got == ids([0, 1, 2, 3, 4, 6, 7, 8, 9]) and stats.group("failed") == {"corrupt": 1}
    assert stats.counts["records"] == 10


def test_a_length_running_into_a_corrupt_member_costs_that_member_alone():
    """The fuzz benchmark's case: record 4's Content-Length is too long and record 5's member is corrupt.
    Record 4 is kept (its own member is intact); record 5 is the one record lost."""
    members = [gz(record(n, length=len(record(n)) + 5000 if n == 4 else None)) for n in range(10)]
    bad = bytearray(members[5])
    bad[20:80] = bytes(60)
    got, stats = read(b"".join(members[:5] + [bytes(bad)] + members[6:]))
    assert got == ids([0, 1, 2, 3, 4, 6, 7, 8, 9]) and stats.group("failed") == {"corrupt": 1}
    assert stats.counts["records"] == 10


def test_junk_between_members_is_skipped():
    members = [gz(record(n)) for n in range(6)]
    got, stats = read(b"".join(members[:3]) + b"\x00garbage bytes\x01" * 50 + b"".join(members[3:]))
    assert got == ids(range(6))


def test_an_uncompressed_warc_resynchronises_at_the_next_warc_line():
    recs = [record(n) for n in range(6)]
    broken = recs[2].replace(b"WARC/1.0\r\n", b"WRAC/1.O\r\n", 1)  # its version line is gone
    got, stats = read(b"".join(recs[:2] + [broken] + recs[3:]), name="t.warc")
    assert got == ids([0, 1, 3, 4, 5]) and stats.group("failed") == {"corrupt": 1}


def test_duplicate_headers_keep_the_first_and_bad_http_heads_fail_alone():
    members = [gz(record(0)), gz(record(1, http=b"HTTP/1.1 200 OK\r\n" + b"X: y\r\n" * 20000)),
               gz(record(2).replace(b"WARC-Record-ID: <urn:uuid:00000002>\r\n",
                                    b"WARC-Record-ID: <urn:uuid:00000002>\r\nWARC-Record-ID: <urn:uuid:99>\r\n")),
               gz(record(3))]
    got, stats = read(b"".join(members))
    assert got == ids([0, 2, 3]) and stats.group("failed") == {"bad_http_head": 1}


def test_a_file_cut_inside_a_record_keeps_the_partial_page():
    data = b"".join(gz(record(n)) for n in range(4))
    got, stats = read(data[:-60])
    assert got == ids(range(4)) and stats.counts["read.truncated_records"] == 1


def test_chunked_and_gzip_encoded_payloads_are_decoded_and_broken_ones_kept_raw():
    body = PAGE
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 100]), body[i:i + 100]) for i in range(0, len(body), 100))
    gzipped = zlib.compress(body, wbits=31)
    members = [gz(record(0, http=b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked + b"0\r\n\r\n")),
               gz(record(1, http=b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzipped)),
               gz(record(2, http=b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nnot gzip at all"))]
    stats = Stats()
    docs = list(read_archive(io.BytesIO(b"".join(members)), "t.warc.gz", "t", stats, 1 << 24))
    assert docs[0].raw == body and docs[1].raw == body and docs[2].raw == b"not gzip at all"
    assert stats.counts["read.bad_content_encoding_kept_raw"] == 1


def test_oversized_records_are_skipped_without_being_held():
    big = b"HTTP/1.1 200 OK\r\n\r\n" + b"x" * 300_000  # more than --max-bytes plus room for an HTTP head
    members = [gz(record(0)), gz(record(1, http=big)), gz(record(2))]
    got, stats = read(b"".join(members), max_bytes=100_000)
    assert got == ids([0, 2]) and stats.group("skipped") == {"too_large": 1}


def test_clueweb22_ids_are_used():
    got, _ = read(gz(record(0, {"ClueWeb22-ID": "clueweb22-en0000-00-00000", "WARC-Record-ID": None})))
    assert got == ["clueweb22-en0000-00-00000"]


def test_real_files_with_a_record_broken_in_the_middle_lose_only_that_record():
    raw = shared("warc", "commoncrawl", "CC-MAIN-2020-34-sample.warc.gz").read_bytes()
    whole, _ = read(raw)
    starts = [i for i in range(len(raw) - 2) if raw[i:i + 3] == b"\x1f\x8b\x08"]
    target = starts[len(starts) // 2]
    bad = bytearray(raw)
    bad[target + 30:target + 60] = bytes(30)
    got, stats = read(bytes(bad))
    assert stats.counts["records"] == 50 and len(stats.group("failed")) <= 1
    assert set(got) <= set(whole) and len(whole) - len(got) <= 1
