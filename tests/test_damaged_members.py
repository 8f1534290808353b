"""A damaged gzip member costs its own record and nothing else, in files of one gzip member per record.

A damaged member's deflate data often goes on "inflating" into the raw bytes of the members after it, and its
garbage copies earlier text, record headers included. Each case damages one member (zeros, a flipped bit,
random bytes, anywhere in it) and checks the exact accounting: every record counted once, the damaged one
failed, every other one written with its own bytes -- as ``webprune inspect`` counts them too.
"""
import gzip
import random
import zlib

import pytest

from tests.conftest import shared
from tests.hostile import arc_file, http, page, read, rid, warc_record

N = 20


def damage(member: bytes, rng: random.Random, how: str | None = None, at: float | None = None,
           n: int | None = None) -> bytes:
    """``member`` damaged inside its deflate data: its trailer (CRC and size) is left whole, for a member that
    runs to the end of the file and has lost its trailer is what a file cut there is (its record keeps what
    it holds, :func:`test_a_last_member_without_its_trailer_reads_as_a_file_cut_short`)."""
    b = bytearray(member)
    how = how or rng.choice(("zeros", "flip", "random"))
    i = int(len(b) * at) if at is not None else rng.randrange(10, len(b) - 8)
    n = min(n or rng.choice((1, 4, 16, 40, 100)), len(b) - 8 - i)
    if how == "zeros":
        b[i:i + n] = bytes(len(b[i:i + n]))
    elif how == "flip":
        b[i] ^= 1 << rng.randrange(8)
    else:
        b[i:i + n] = bytes(rng.randrange(256) for _ in b[i:i + n])
    return bytes(b)


def records(kind: str, rng: random.Random | None = None) -> list[bytes]:
    if kind == "conversion":  # WET: text records
        return [warc_record(n, block=(f"text of page {n} " * (rng.randint(5, 80) if rng else 20)).encode(),
                            kind="conversion") for n in range(N)]
    return [warc_record(n, block=http(page(n, rng.randint(5, 400) if rng else 60))) for n in range(N)]


def inspect_count(data: bytes, name: str, tmp) -> int:
    """Records as ``webprune inspect`` counts them."""
    from preprocess.readers.inspect import inspect_unit
    from preprocess.readers.sources import discover
    from preprocess.run.units import Job, plan
    from preprocess.config.options import CleanOptions

    path = tmp / name
    path.write_bytes(data)
    unit, = plan(discover([str(path)]), Job(CleanOptions(), ""))
    return sum(inspect_unit(None, unit)["records"].values())


def harmless(member: bytes, original: bytes) -> bool:
    """The damage changed no byte the member inflates to (padding bits after its last block, say)."""
    try:
        return gzip.decompress(member) == original
    except (OSError, EOFError, zlib.error):
        return False


def check_only(docs, stats, broken: int | None, recs: list[bytes]) -> None:
    """Every record counted, the broken one failed (None: nothing broken), the others written whole."""
    assert stats.counts["records"] == N, dict(stats.counts)
    assert sum(stats.group("failed").values()) == (broken is not None), stats.group("failed")
    assert [d.id for d in docs] == [rid(n) for n in range(N) if n != broken]
    for d in docs:
        n = int(d.id[-8:])
        assert d.raw in recs[n], d.id  # its own bytes, whole


@pytest.mark.parametrize("kind", ["response", "conversion"])
@pytest.mark.parametrize("at", [0.3, 0.5, 0.8])
def test_zeros_in_the_eighth_member_cost_the_eighth_record_only(kind, at, tmp_path):
    recs = records(kind)
    members = [gzip.compress(r, mtime=0) for r in recs]
    members[7] = damage(members[7], random.Random(0), "zeros", at, 40)
    data = b"".join(members)
    docs, stats = read(data, "t.warc.gz")
    check_only(docs, stats, 7, recs)
    assert inspect_count(data, "t.warc.gz", tmp_path) == N


@pytest.mark.parametrize("kind", ["response", "conversion"])
@pytest.mark.parametrize("seed", range(4))
def test_any_damage_to_any_member_costs_that_record_only(kind, seed):
    rng = random.Random(seed)
    for _ in range(25):
        recs = records(kind, rng)
        members = [gzip.compress(r, mtime=0) for r in recs]
        broken = rng.randrange(N)
        members[broken] = damage(members[broken], rng)
        docs, stats = read(b"".join(members), "t.warc.gz")
        check_only(docs, stats, None if harmless(members[broken], recs[broken]) else broken, recs)


def test_two_damaged_members_side_by_side_cost_two_records():
    rng = random.Random(7)
    recs = records("response")
    members = [gzip.compress(r, mtime=0) for r in recs]
    for k in (9, 10):
        members[k] = damage(members[k], rng, "zeros", 0.6, 40)
    docs, stats = read(b"".join(members), "t.warc.gz")
    assert stats.counts["records"] == N and sum(stats.group("failed").values()) == 2
    assert [d.id for d in docs] == [rid(n) for n in range(N) if n not in (9, 10)]


@pytest.mark.parametrize("seed", range(3))
def test_arc_gz_damage_costs_that_record_only(seed):
    rng = random.Random(seed)
    for _ in range(20):
        blocks = [(f"http://x.org/{i}", http(page(i, rng.randint(5, 400)))) for i in range(N)]
        recs = arc_file(blocks)
        members = [gzip.compress(r, mtime=0) for r in recs]
        broken = rng.randrange(1, len(members))  # the filedesc is member 0
        members[broken] = damage(members[broken], rng)
        lost = not harmless(members[broken], recs[broken])
        docs, stats = read(b"".join(members), "t.arc.gz")
        assert stats.counts["records"] == N + 1 and sum(stats.group("failed").values()) == lost
        assert [d.url for d in docs] == [f"http://x.org/{i}" for i in range(N) if not (lost and i == broken - 1)]


def test_real_pages_next_to_a_damaged_member_are_written():
    """Real Dragnet pages, one member each: zeros at 80% of one member cost that page, never its neighbour."""
    pages = sorted(shared("cleaning", "dragnet", "input").glob("*.html"))[:N]
    recs = [warc_record(n, block=http(p.read_bytes())) for n, p in enumerate(pages)]
    for broken in (3, 7, 12):
        members = [gzip.compress(r, mtime=0) for r in recs]
        members[broken] = damage(members[broken], random.Random(broken), "zeros", 0.8, 40)
        docs, stats = read(b"".join(members), "t.warc.gz")
        assert stats.counts["records"] == N and stats.group("failed") == {"corrupt": 1}
        assert [d.id for d in docs] == [rid(n) for n in range(N) if n != broken]
        for d in docs:
            assert d.raw == pages[int(d.id[-8:])].read_bytes()


def test_a_damaged_last_member_is_not_taken_for_a_file_cut_short():
    """Damage in the last member makes it run to the end of the file, as a cut file does; its trailer is still
    there (the size field names the whole record), so it is damaged: failed, never written with garbage."""
    recs = records("response")
    members = [gzip.compress(r, mtime=0) for r in recs]
    members[-1] = damage(members[-1], random.Random(2), "zeros", 0.5, 40)
    docs, stats = read(b"".join(members), "t.warc.gz")
    check_only(docs, stats, N - 1, recs)


def test_a_last_member_without_its_trailer_reads_as_a_file_cut_short():
    """A file cut inside its last member keeps that record's partial page, counted in read.truncated_records."""
    recs = records("response")
    data = b"".join(gzip.compress(r, mtime=0) for r in recs)[:-60]
    docs, stats = read(data, "t.warc.gz")
    assert stats.counts["records"] == N and not stats.group("failed") and len(docs) == N
    assert stats.counts["read.truncated_records"] == 1 and page(N - 1).startswith(docs[-1].raw)
