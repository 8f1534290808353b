"""Hostile archives built byte by byte, in every framing: a record's problem costs that record alone.

Each case breaks one record (or one stretch of the file) and checks the exact accounting: every record
counted, every other record written with exactly its own bytes, the broken one repaired or counted by
reason. Framings: one gzip member per record, one member for the whole file, uncompressed, ARC (plain and
gzipped), WET.
"""
import gzip
import random
import struct
import zlib

import pytest

from tests.hostile import (WARC_FRAMINGS, SUFFIX, arc_file, http, pack, page, read, rid, sha1_b32,
                           warc_record)
from tests.conftest import shared

N = 12
BROKEN = 5


def check_intact(docs, expect_ids):
    """The documents are exactly ``expect_ids``, each with its own page, untouched."""
    assert [d.id for d in docs] == [rid(n) for n in expect_ids]
    for d in docs:
        assert d.raw == page(int(d.id[-8:])), d.id


def failures(stats):
    return stats.group("failed")


@pytest.mark.parametrize("framing", WARC_FRAMINGS)
@pytest.mark.parametrize("delta", [+5000, +2_000_000, 10 ** 22, -100, "zero"])
def test_a_wrong_content_length_is_repaired_and_swallows_nothing(framing, delta):
    size = len(http(page(BROKEN)))
    length = 0 if delta == "zero" else delta if delta == 10 ** 22 else size + delta
    recs = [warc_record(n, length=length if n == BROKEN else None) for n in range(N)]
    docs, stats = read(pack(recs, framing), "t" + SUFFIX[framing])
    assert stats.counts["records"] == N and not failures(stats)
    check_intact(docs, range(N))
    assert stats.counts["read.bad_length"] == 1


@pytest.mark.parametrize("framing", WARC_FRAMINGS)
def test_a_request_with_a_wrong_length_does_not_swallow_the_response_after_it(framing):
    request = b"GET /5 HTTP/1.1\r\nHost: x.org\r\n\r\n"
    recs = []
    for n in range(N):
        recs.append(warc_record(1000 + n, block=request, kind="request", length=len(request) + 3000 if n == 5 else None))
        recs.append(warc_record(n))
    docs, stats = read(pack(recs, framing), "t" + SUFFIX[framing])
    assert stats.counts["records"] == 2 * N and stats.group("skipped") == {"non_response": N}
    check_intact(docs, range(N))


@pytest.mark.parametrize("framing", WARC_FRAMINGS)
def test_a_broken_version_line_costs_its_record_alone(framing):
    recs = [warc_record(n) for n in range(N)]
    recs[BROKEN] = recs[BROKEN].replace(b"WARC/1.0", b"WRAC/1.O", 1)
    docs, stats = read(pack(recs, framing), "t" + SUFFIX[framing])
    assert stats.counts["records"] == N and failures(stats) == {"corrupt": 1}
    check_intact(docs, [n for n in range(N) if n != BROKEN])


@pytest.mark.parametrize("framing", WARC_FRAMINGS)
def test_junk_after_a_record_is_skipped_and_never_joins_a_page(framing):
    recs = [warc_record(n) for n in range(N)]
    recs[BROKEN] += b"garbage \x00\x01\x02 not a record\r\n" * 30
    docs, stats = read(pack(recs, framing), "t" + SUFFIX[framing])
    assert stats.counts["records"] == N and not failures(stats)
    check_intact(docs, range(N))


@pytest.mark.parametrize("framing", WARC_FRAMINGS)
def test_an_unreadable_length_fails_its_record_alone(framing):
    recs = [warc_record(n, headers={"Content-Length": "abc"} if n == BROKEN else None) for n in range(N)]
    docs, stats = read(pack(recs, framing), "t" + SUFFIX[framing])
    assert stats.counts["records"] == N and failures(stats) == {"bad_headers": 1}
    check_intact(docs, [n for n in range(N) if n != BROKEN])


@pytest.mark.parametrize("framing", WARC_FRAMINGS)
def test_a_payload_that_does_not_match_its_digest_fails_alone(framing):
    recs = [warc_record(n, digests=True) for n in range(N)]
    recs[BROKEN] = recs[BROKEN].replace(b"word", b"wurd", 1)  # same length: framing cannot see it
    docs, stats = read(pack(recs, framing), "t" + SUFFIX[framing])
    assert stats.counts["records"] == N and failures(stats) == {"digest_mismatch": 1}
    assert stats.counts["read.digest_ok"] == N - 1
    check_intact(docs, [n for n in range(N) if n != BROKEN])


def test_a_payload_digest_proves_the_page_when_only_the_http_head_changed():
    """The block digest fails (the HTTP head was edited) but the payload digest matches the page: written."""
    block = http(page(3))
    edited = block.replace(b"200 OK", b"200 Ok", 1)
    payload_digest = sha1_b32(page(3))
    rec = warc_record(3, block=edited, headers={"WARC-Block-Digest": sha1_b32(block),
                                                 "WARC-Payload-Digest": payload_digest})
    docs, stats = read(pack([rec], "plain"), "t.warc")
    check_intact(docs, [3])


@pytest.mark.parametrize("framing", WARC_FRAMINGS)
@pytest.mark.parametrize("keep", [0.3, 0.9])
def test_a_file_cut_inside_its_last_record_keeps_the_others_whole(framing, keep):
    """The cut record keeps the part of its page that is there (read.truncated_records), or fails alone when
    the cut went through its headers."""
    recs = [warc_record(n) for n in range(N)]
    before = pack(recs[:-1], framing)
    data = pack(recs, framing)
    cut = len(before) + int((len(data) - len(before)) * keep)
    if framing == "file-gz":  # the first raw offset that inflates past ``keep`` of the last record
        want = len(b"".join(recs[:-1])) + int(len(recs[-1]) * keep)
        cut = next(c for c in range(len(data)) if len(zlib.decompressobj(31).decompress(data[:c])) >= want)
    docs, stats = read(data[:cut], "t" + SUFFIX[framing])
    whole = [d for d in docs if d.raw == page(int(d.id[-8:]))]
    partial = [d for d in docs if d not in whole]
    assert stats.counts["records"] == N and len(whole) == N - 1
    assert len(partial) + sum(failures(stats).values()) == 1
    check_intact(whole, range(len(whole)))
    for d in partial:
        assert stats.counts["read.truncated_records"] == 1 and page(int(d.id[-8:])).startswith(d.raw.split(b"\r\n\r\n", 1)[-1][:50])


@pytest.mark.parametrize("digests", [False, True])
def test_a_whole_file_gzip_that_fails_its_crc_counts_every_record_and_writes_only_proven_ones(digests):
    """One gzip member holds the whole file and its CRC fails: nothing in it can be trusted but what a digest
    proves. Every record is counted; none is written with a text nobody can vouch for."""
    recs = [warc_record(n, digests=digests) for n in range(N)]
    data = bytearray(pack(recs, "file-gz"))
    data[-8] ^= 0x01  # the CRC-32 in the trailer
    docs, stats = read(bytes(data), "t.warc.gz")
    assert stats.counts["records"] == N
    if digests:
        check_intact(docs, range(N))
    else:
        assert docs == [] and failures(stats) == {"corrupt": N}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("digests", [False, True])
def test_zeros_inside_a_whole_file_gzip_never_write_altered_text(seed, digests):
    """Real pages, one gzip member for the file, a run of zero bytes somewhere inside it: every record read is
    counted, and the only pages written are those whose digest proves them intact."""
    pages = sorted(shared("cleaning", "dragnet", "input").glob("*.html"))[:40]
    bodies = [p.read_bytes() for p in pages]
    recs = [warc_record(n, block=http(b), digests=digests) for n, b in enumerate(bodies)]
    data = bytearray(pack(recs, "file-gz"))
    rng = random.Random(seed)
    at, n = rng.randrange(100, len(data) - 100), rng.choice((1, 16, 64, 512))
    data[at:at + n] = bytes(n)
    docs, stats = read(bytes(data), "t.warc.gz")
    for d in docs:
        assert d.raw == bodies[int(d.id[-8:])], d.id
    if not digests:
        assert docs == []
    assert stats.counts["records"] >= 1 and stats.counts["failed.corrupt"] + stats.counts["failed.digest_mismatch"] >= 1


@pytest.mark.parametrize("digests", [False, True])
def test_a_per_record_member_with_a_bad_crc_costs_that_record_unless_its_digest_proves_it(digests):
    members = [gzip.compress(warc_record(n, digests=digests), mtime=0) for n in range(N)]
    bad = bytearray(members[BROKEN])
    crc = struct.unpack("<I", bad[-8:-4])[0]
    bad[-8:-4] = struct.pack("<I", crc ^ 1)
    members[BROKEN] = bytes(bad)
    docs, stats = read(b"".join(members), "t.warc.gz")
    assert stats.counts["records"] == N
    if digests:
        check_intact(docs, range(N))
    else:
        assert failures(stats) == {"corrupt": 1}
        check_intact(docs, [n for n in range(N) if n != BROKEN])


def test_a_per_record_member_that_does_not_inflate_costs_that_record_alone():
    members = [gzip.compress(warc_record(n), mtime=0) for n in range(N)]
    bad = bytearray(members[BROKEN])
    bad[30:60] = bytes(30)
    members[BROKEN] = bytes(bad)
    docs, stats = read(b"".join(members), "t.warc.gz")
    assert stats.counts["records"] == N and failures(stats) == {"corrupt": 1}
    check_intact(docs, [n for n in range(N) if n != BROKEN])


def arc_docs_intact(docs, expect):
    assert [d.url for d in docs] == [f"http://x.org/{i}" for i in expect]
    for d in docs:
        assert d.raw == page(int(d.url.rsplit("/", 1)[1])), d.url


@pytest.mark.parametrize("framing", ["arc", "arc-gz"])
@pytest.mark.parametrize("delta", [+3000, +2_000_000, 10 ** 22, -100, "zero", "junk"])
def test_arc_records_with_a_wrong_length_or_junk_cost_nothing(framing, delta):
    recs = [(f"http://x.org/{i}", http(page(i))) for i in range(N)]
    size = len(recs[BROKEN][1])
    lengths = {} if delta == "junk" else {BROKEN: 0 if delta == "zero" else delta if delta == 10 ** 22 else size + delta}
    records = arc_file(recs, lengths)
    if delta == "junk":
        records[BROKEN + 1] += b"junk that is not a record\n" * 4
    docs, stats = read(pack(records, framing), "t" + SUFFIX[framing])
    assert stats.counts["records"] == N + 1 and stats.group("skipped") == {"non_response": 1}  # the filedesc
    assert not failures(stats)
    arc_docs_intact(docs, range(N))


@pytest.mark.parametrize("framing", WARC_FRAMINGS)
def test_wet_conversion_records_with_a_wrong_length_are_repaired(framing):
    def text(n):
        return f"Page {n} text line one.\nLine two of page {n}.".encode()

    recs = [warc_record(n, block=text(n), kind="conversion", headers={"Content-Type": "text/plain"},
                        length=10 if n == BROKEN else None) for n in range(N)]
    docs, stats = read(pack(recs, framing), "t.wet" + (".gz" if framing != "plain" else ""))
    assert stats.counts["records"] == N and not failures(stats)
    assert [d.raw for d in docs] == [text(n) for n in range(N)]
