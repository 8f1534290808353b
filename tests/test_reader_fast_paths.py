"""The reader's shortcuts give exactly what its careful code gives: a head parsed in one go as line by line, the
next-record check in one regex as field by field, SHA-1 base32 digests decoded as base64.b32decode does, the
HTTP head's end found as before. Inputs: the shared real archives, and records mutated at random (heads with
odd line ends, blank-looking lines, non-ASCII bytes, cut or doubled fields) in every framing.
"""
import base64
import hashlib
import random

import pytest

from preprocess.readers import digest
from preprocess.readers import record_starts as framing
from preprocess.readers.http import MAX_HEAD, split_head
from tests.conftest import shared
from tests.hostile import WARC_FRAMINGS, SUFFIX, assert_paths_agree, pack, warc_record

MUTATIONS = (b"\r\n", b"\n", b" \r\n", b"\t\n", b"\r\r\n", b"\x0b\n", b"\x1c\r\n", b"\xc3\xa9", b"\xff", b":", b" ",
             b"WARC/1.0\r\n", b"WARC-Type: response\r\n", b"\r\n\r\n", b"\n\n")


def mutate(rec: bytes, rng: random.Random) -> bytes:
    """``rec`` with one to three edits in or near its head: a byte sequence put in, a stretch cut or doubled."""
    head = rec.find(b"\r\n\r\n") + 4
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(0, head + 8)
        what = rng.randrange(3)
        if what == 0:
            rec = rec[:i] + rng.choice(MUTATIONS) + rec[i:]
        elif what == 1:
            rec = rec[:i] + rec[i + rng.randint(1, 12):]
        else:
            j = i + rng.randint(1, 40)
            rec = rec[:j] + rec[i:j] + rec[j:]
    return rec


@pytest.mark.parametrize("framing_", WARC_FRAMINGS)
def test_mutated_heads_read_the_same_on_both_paths(framing_):
    rng = random.Random(23)
    for trial in range(400):
        recs = [warc_record(n, digests=n % 2 == 0) for n in range(6)]
        for k in rng.sample(range(6), 2):
            recs[k] = mutate(recs[k], rng)
        assert_paths_agree(pack(recs, framing_), f"t{trial}" + SUFFIX[framing_])


def test_the_shared_archives_read_the_same_on_both_paths():
    files = sorted(p for p in shared("warc").rglob("*") if p.is_file())
    assert len(files) >= 10
    for path in files:
        for max_bytes in (16 << 20, 2000):
            assert_paths_agree(path.read_bytes(), path.name, max_bytes)


def test_the_next_record_check_in_one_regex_answers_as_field_by_field():
    rng = random.Random(5)
    base = [warc_record(n, digests=True)[:600] for n in range(4)]
    base.append(b"WARC/0.18\nWARC-Type: response\nwarc-record-id: x\n\nbody")
    seen = {True: 0, False: 0}
    for _ in range(3000):
        b = mutate(rng.choice(base), rng)[:rng.randint(20, 700)]
        for i in (0, rng.randrange(len(b))):
            got = framing.warc_header_at(b, i)
            assert got == framing._warc_header_fields(b, i), (b, i)
            seen[got] += 1
    assert min(seen.values()) > 100  # both answers met often


def test_sha1_base32_digests_decode_as_b32decode_does():
    rng = random.Random(9)
    for _ in range(2000):
        raw = hashlib.sha1(rng.randbytes(20)).digest()
        text = base64.b32encode(raw).decode()
        text = "".join(c.lower() if rng.random() < 0.2 else c for c in text)
        if rng.random() < 0.2:  # a letter outside the alphabet, or one too many or too few
            i = rng.randrange(32)
            text = text[:i] + rng.choice("0189=+ /") + text[i + rng.randint(0, 1):]
        for value in (f"sha1:{text}", f"SHA1:{text}", f"sha1: {text}", f"sha-1:{text}", f"sha1:{text}="):
            alg, colon, rest = value.strip().partition(":")
            assert digest._expected(value) == digest._expected_any(alg, colon, rest), value
    assert digest._expected("sha1:" + base64.b32encode(b"\x01" * 20).decode()) == ("sha1", b"\x01" * 20)


def reference_head_end(block: bytes) -> tuple[int, int]:
    """Where the HTTP head ends, as split_head found it before (both markers searched over 64 KiB)."""
    end, sep = -1, 0
    for marker in (b"\n\r\n", b"\n\n"):
        i = block.find(marker, 0, MAX_HEAD)
        if i >= 0 and (end < 0 or i < end):
            end, sep = i + 1, len(marker) - 1
    return end, sep


def test_the_http_head_ends_where_it_did():
    rng = random.Random(3)
    parts = (b"HTTP/1.1 200 OK", b"\r\n", b"\n", b"X: y", b"\r\n\r\n", b"\n\n", b"\n\r\n", b"body", b"\r")
    for _ in range(3000):
        block = b"HTTP/1.1 200 OK\r\n" + b"".join(rng.choice(parts) for _ in range(rng.randint(0, 12)))
        end, sep = reference_head_end(block)
        if end < 0:
            continue
        assert split_head(block)[2] == block[end + sep:], block


def test_a_head_of_ascii_fields_reads_as_its_lines_one_by_one():
    from preprocess.readers.archive import _add_field, _ascii_fields

    def by_lines(text):
        headers, last = {}, None
        for line in text.split("\n"):
            last = _add_field(headers, line, last)
        return headers

    rng = random.Random(5)
    bits = ["WARC-Type", "warc-type", "Content-Length", "WARC-Record-ID: <urn:uuid:1>", ":", " ", "\t", "\r", "\n",
            "\n ", "\n\t", "x", "a b", "  :v"]
    for _ in range(50_000):
        text = "".join(rng.choice(bits) for _ in range(rng.randrange(0, 12)))
        assert list(_ascii_fields(text).items()) == list(by_lines(text).items()), repr(text)
