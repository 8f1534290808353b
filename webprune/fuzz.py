"""A seeded generator of broken pages and broken WARC records, for the fuzz tests and ``scripts/bench_fuzz.py``.

Pages start from real pages (the shared cleaning sets) and are mutated: cut short,
byte flips, NULs, invalid UTF-8, deep nesting, giant attributes, entity storms,
wide tables, 20 MB single-line pages, binary noise. Records are then written as a
gzipped WARC, one member per record, and some records are broken at the byte
level: missing or duplicate headers, a wrong Content-Length, a bad HTTP head, a
gzip member with flipped bytes, junk between members, a file cut short.

Every record's fate is known: :func:`write_fuzz_warcs` returns, per file, the ids
of the *pristine* records (neither page nor record mutated). A correct reader and
pipeline write every pristine record; one that loses any of them lost it to a bad
neighbour. Same seed, same bytes.
"""
from __future__ import annotations

import gzip
import random
from dataclasses import dataclass, field
from pathlib import Path

PAGE_MUTATIONS = ("truncate", "flip", "nul", "bad_utf8", "deep", "giant_attr", "entities", "wide_table", "huge_line",
                  "binary", "deep_flip_table")
HEAVY = {"deep", "giant_attr", "entities", "wide_table", "huge_line", "deep_flip_table"}  # drawn 4x less often
_WEIGHTS = [1 if m in HEAVY else 4 for m in PAGE_MUTATIONS]
RECORD_MUTATIONS = ("no_uri", "no_type", "no_length", "dup_headers", "long_length", "short_length", "bad_http",
                    "flip_member", "junk_after", "bad_ctype")


def mutate_page(page: bytes, kind: str, rng: random.Random, scale: float = 1.0) -> bytes:
    """One page-level mutation of ``page``; ``scale`` shrinks the big ones (CI runs use small pages)."""
    if kind == "truncate":
        return page[: rng.randint(0, max(len(page) - 1, 0))]
    if kind == "flip":
        b = bytearray(page)
        for _ in range(max(1, len(b) // 200)):
            b[rng.randrange(len(b))] = rng.randrange(256) if b else 0
        return bytes(b)
    if kind == "nul":
        cut = rng.randrange(len(page) + 1)
        return page[:cut] + b"\x00" * rng.randint(1, 5000) + page[cut:]
    if kind == "bad_utf8":
        return page.replace(b"e", b"\xc3\x28", 200).replace(b"a", b"\xff\xfe", 50)
    if kind == "deep":
        n = int(100_000 * scale)
        return b"<html><body>" + b"<div>" * n + b"deep text" + b"</div>" * rng.choice((0, n)) + page
    if kind == "giant_attr":
        return page.replace(b"<body", b'<body data-x="' + b"A" * int(3_000_000 * scale) + b'"', 1)
    if kind == "entities":
        return page.replace(b"<body>", b"<body><p>" + b"&amp;&#x1F600;&nbsp;&bogus;&#99999999;" * int(60_000 * scale)
                            + b"</p>", 1)
    if kind == "wide_table":
        row = b"<tr>" + b"<td>cell</td>" * int(20_000 * scale) + b"</tr>"
        return page.replace(b"<body>", b"<body><table>" + row * 3 + b"</table>", 1)
    if kind == "huge_line":
        return b"<html><body><p>" + b"word " * int(4_000_000 * scale) + b"</p></body></html>"
    if kind == "binary":
        return rng.randbytes(int(200_000 * scale))
    if kind == "deep_flip_table":  # what once crashed resiliparse's extractor: all of it at once, ~3 MB
        n = int(20_000 * scale)
        body = (b"<table>" + (b"<tr>" + b"<td>&amp;x&#x41;</td>" * 200 + b"</tr>") * int(100 * scale) + b"</table>")
        out = bytearray(b"<html><body>" + b"<div><span>" * n + body + b"</span></div>" * (n // 2) + page)
        for _ in range(len(out) // 500):
            out[rng.randrange(len(out))] = rng.randrange(256)
        return bytes(out)
    raise ValueError(kind)


def _http(payload: bytes, ctype: str = "text/html; charset=utf-8") -> bytes:
    return f"HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nContent-Length: {len(payload)}\r\n\r\n".encode() + payload


def record_bytes(rid: str, url: str, payload: bytes, mutation: str | None, rng: random.Random) -> bytes:
    """One WARC response record (uncompressed), broken by ``mutation`` if given."""
    http = _http(payload, "application/pdf" if mutation == "bad_ctype" else "text/html; charset=utf-8")
    if mutation == "bad_http":
        http = b"HTTP/1.1 200 OK\r\n" + b"X-Junk: " + b"y" * 70_000 + b"\r\n\r\n" + payload
    headers = [("WARC-Type", "response"), ("WARC-Record-ID", f"<urn:uuid:{rid}>"), ("WARC-TREC-ID", rid),
               ("WARC-Target-URI", url), ("Content-Type", "application/http; msgtype=response"),
               ("Content-Length", str(len(http)))]
    if mutation == "no_uri":
        headers = [h for h in headers if h[0] != "WARC-Target-URI"]
    elif mutation == "no_type":
        headers = [h for h in headers if h[0] != "WARC-Type"]
    elif mutation == "no_length":
        headers = [h for h in headers if h[0] != "Content-Length"]
    elif mutation == "dup_headers":
        headers = headers + [("WARC-TREC-ID", rid + "-dup"), ("Content-Length", "7")]
    elif mutation == "long_length":
        headers = [(k, str(len(http) + rng.randint(10, 50_000)) if k == "Content-Length" else v) for k, v in headers]
    elif mutation == "short_length":
        headers = [(k, str(max(len(http) - rng.randint(1, len(http)), 0)) if k == "Content-Length" else v)
                   for k, v in headers]
    head = "WARC/1.0\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    return head.encode() + http + b"\r\n\r\n"


@dataclass
class FuzzFile:
    path: Path
    records: int                       # response records written
    pristine: list[str] = field(default_factory=list)  # ids that must come out written
    mutated: dict[str, str] = field(default_factory=dict)  # id -> mutation


def write_fuzz_warcs(out_dir: str | Path, pages: list[bytes], records: int, files: int, seed: int = 1,
                     page_rate: float = 0.3, record_rate: float = 0.1, scale: float = 1.0,
                     truncate_last: bool = True) -> list[FuzzFile]:
    """``records`` records over ``files`` gzipped WARCs; a share of pages and records mutated."""
    rng = random.Random(seed)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    result = []
    per_file = -(-records // files)
    n = 0
    for f in range(files):
        ff = FuzzFile(out_dir / f"fuzz-{seed}-{f:03d}.warc.gz", 0)
        members = []
        for _ in range(min(per_file, records - n)):
            rid, url = f"fuzz-{seed}-{n:06d}", f"http://fuzz{n % 37}.example/{n}"
            payload = pages[rng.randrange(len(pages))]
            page_mut = rng.choices(PAGE_MUTATIONS, _WEIGHTS)[0] if rng.random() < page_rate else None
            rec_mut = rng.choice(RECORD_MUTATIONS) if rng.random() < record_rate else None
            if page_mut:
                payload = mutate_page(payload, page_mut, rng, scale)
            data = gzip.compress(record_bytes(rid, url, payload, rec_mut, rng), compresslevel=1, mtime=0)
            if rec_mut == "flip_member":
                b = bytearray(data)
                for _ in range(5):
                    b[rng.randrange(10, len(b))] ^= 0xFF
                data = bytes(b)
            if rec_mut == "junk_after":
                data += rng.randbytes(rng.randint(1, 300))
            members.append(data)
            ff.records += 1
            if page_mut or rec_mut:
                ff.mutated[rid] = "+".join(filter(None, (page_mut, rec_mut)))
            else:
                ff.pristine.append(rid)
            n += 1
        if truncate_last and members and rng.random() < 0.5:  # the file ends inside its last record
            last = members[-1]
            members[-1] = last[: len(last) // 2]
            rid = f"fuzz-{seed}-{n - 1:06d}"
            if rid in ff.pristine:
                ff.pristine.remove(rid)
                ff.mutated[rid] = "file_cut"
        ff.path.write_bytes(b"".join(members))
        result.append(ff)
    return result
