"""A seeded generator of broken pages and broken archives, for the fuzz tests and ``scripts/bench/bench_fuzz.py``.

Pages start from real pages (the shared cleaning sets) and are mutated: cut short, byte flips, NULs, invalid
UTF-8, deep nesting, giant attributes, entity storms, wide tables, 20 MB single-line pages, binary noise,
markup the parser handles in superlinear time, binary files and lying charsets served as HTML. Records are
then written in every framing -- WARC with one gzip member per record, one for the whole file, or none (with
or without digests), ARC plain and gzipped, WET, tar -- and some are broken at the byte level
(:mod:`webprune.fuzz_records`); a file may end inside its last record or fail its gzip check.

Every record's fate is known: :func:`write_fuzz_files` returns, per file, the ids of the *pristine* records
(nothing mutated) and of the *repairable* ones (only their framing is wrong). A correct reader writes both,
with the same text as from an unbroken copy of the file (the *twin*, written with ``twin_dir``); one that loses
any of them lost it to a bad neighbour. Same seed, same bytes.
"""
from __future__ import annotations

import gzip
import random
from dataclasses import dataclass, field
from pathlib import Path

from webprune import fuzz_records as fr

PAGE_MUTATIONS = ("truncate", "flip", "nul", "bad_utf8", "deep", "giant_attr", "entities", "wide_table", "huge_line",
                  "binary", "deep_flip_table", "attr_storm", "distinct_attrs", "option_storm", "pdf", "gzipped",
                  "utf16_label")
HEAVY = {"deep", "giant_attr", "entities", "wide_table", "huge_line", "deep_flip_table", "attr_storm",
         "distinct_attrs", "option_storm"}  # drawn 4x less often
_WEIGHTS = [1 if m in HEAVY else 4 for m in PAGE_MUTATIONS]
FRAMINGS = ("record-gz", "file-gz", "plain", "arc", "arc-gz", "wet", "tar")
SUFFIX = {"record-gz": ".warc.gz", "file-gz": ".warc.gz", "plain": ".warc", "arc": ".arc", "arc-gz": ".arc.gz",
          "wet": ".warc.wet.gz", "tar": ".tar.gz"}


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
    if kind == "attr_storm":  # thousands of attributes on one element: lexbor checks them pairwise
        attrs = " ".join(f"a{i}=x" for i in range(int(100_000 * scale)))
        return page.replace(b"<body", b"<body><p " + attrs.encode() + b">storm</p", 1)
    if kind == "distinct_attrs":  # hundreds of thousands of attribute names
        return page.replace(b"<body>", b"<body>" + "".join(f'<i a{i}="x">t</i>' for i in range(int(400_000 * scale)))
                            .encode(), 1)
    if kind == "option_storm":  # unclosed <option>s: quadratic in lexbor
        return page.replace(b"<body>", b"<body><select>" + b"<option>x" * int(100_000 * scale) + b"</select>", 1)
    if kind == "pdf":
        return b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n" + rng.randbytes(int(50_000 * scale) + 100)
    if kind == "gzipped":  # served without its Content-Encoding
        return gzip.compress(page, mtime=0)
    if kind == "utf16_label":  # a UTF-8 page whose <meta> says UTF-16
        return page.replace(b"<head>", b'<head><meta charset="utf-16">', 1)
    if kind == "deep_flip_table":  # what once crashed resiliparse's extractor: all of it at once, ~3 MB
        n = int(20_000 * scale)
        body = (b"<table>" + (b"<tr>" + b"<td>&amp;x&#x41;</td>" * 200 + b"</tr>") * int(100 * scale) + b"</table>")
        out = bytearray(b"<html><body>" + b"<div><span>" * n + body + b"</span></div>" * (n // 2) + page)
        for _ in range(len(out) // 500):
            out[rng.randrange(len(out))] = rng.randrange(256)
        return bytes(out)
    raise ValueError(kind)


@dataclass
class FuzzFile:
    path: Path
    framing: str
    records: int = 0                   # records written (documents, not ARC's filedesc)
    pristine: list[str] = field(default_factory=list)    # keys that must come out written, as from the twin
    repairable: list[str] = field(default_factory=list)  # keys whose framing only is broken: the same
    mutated: dict[str, str] = field(default_factory=dict)  # key -> mutation

    @property
    def key(self) -> str:
        """How a document of this file is matched to its twin: ``url`` for ARC (ids are offsets), else ``id``."""
        return "url" if self.framing.startswith("arc") else "id"


def _mutation(framing: str, rng: random.Random, rate: float, digests: bool) -> str | None:
    if rng.random() >= rate or framing == "tar":
        return None
    choices = fr.ARC_MUTATIONS if framing.startswith("arc") else fr.WET_MUTATIONS if framing == "wet" else \
        tuple(m for m in fr.WARC_MUTATIONS if (digests or m != "digest_mismatch")
              and (framing == "record-gz" or m != "flip_member"))
    return rng.choice(choices)


def write_fuzz_files(out_dir: str | Path, pages: list[bytes], records: int, files: int, seed: int = 1,
                     page_rate: float = 0.3, record_rate: float = 0.1, scale: float = 1.0,
                     truncate_last: bool = True, framings: tuple[str, ...] = FRAMINGS,
                     twin_dir: str | Path | None = None) -> list[FuzzFile]:
    """``records`` records over ``files`` files, the framings taken in turn; a share of pages and records
    mutated. ``twin_dir``: also write each file without record or file mutations (same pages, same keys)."""
    rng = random.Random(seed)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    result, per_file, n = [], -(-records // files), 0
    for f in range(files):
        framing = framings[f % len(framings)]
        ff = FuzzFile(out_dir / f"fuzz-{seed}-{f:03d}{SUFFIX[framing]}", framing)
        digests = framing in ("record-gz", "file-gz", "plain") and rng.random() < 0.5
        broken, clean, flip = [], [], set()
        for _ in range(min(per_file, records - n)):
            rid, url = f"fuzz-{seed}-{n:06d}", f"http://fuzz{n % 37}.example/{n}"
            payload = pages[rng.randrange(len(pages))]
            page_mut = rng.choices(PAGE_MUTATIONS, _WEIGHTS)[0] if rng.random() < page_rate else None
            rec_mut = _mutation(framing, rng, record_rate, digests)
            if page_mut:
                payload = mutate_page(payload, page_mut, rng, scale)
            if framing == "wet":  # extracted text, as Common Crawl's WET files hold it
                payload = payload.decode("utf-8", "replace").encode("utf-8")
            state = rng.getstate()
            for out, mut in ((broken, rec_mut), (clean, None)):
                rng.setstate(state)
                if framing.startswith("arc"):
                    out.append(fr.arc_record(url, payload, mut, rng, n))
                elif framing == "tar":
                    out.append((f"pages/{rid}.html", payload))
                else:
                    out.append(fr.warc_record(rid, url, payload, mut, rng, digests,
                                              "conversion" if framing == "wet" else "response"))
            key = url if ff.key == "url" else rid
            ff.records += 1
            if rec_mut == "flip_member":
                flip.add(len(broken) - 1)
            if rec_mut in fr.NEEDS_DIGEST and not digests:
                rec_mut += "_no_digest"
            if page_mut or rec_mut:
                ff.mutated[key] = "+".join(filter(None, (page_mut, rec_mut)))
                if rec_mut in fr.REPAIRABLE and not page_mut:
                    ff.repairable.append(key)
            else:
                ff.pristine.append(key)
            n += 1
        data = _pack(broken, framing, ff.path.name, frozenset(flip), rng)
        if twin_dir is not None:
            Path(twin_dir).mkdir(parents=True, exist_ok=True)
            (Path(twin_dir) / ff.path.name).write_bytes(_pack(clean, framing, ff.path.name))
        if truncate_last and ff.records and rng.random() < 0.3:  # the file ends inside its last record
            data = data[: len(data) - max(len(_pack(broken[-1:], framing, ff.path.name)) // 2, 1)]
            _damage(ff, key, "file_cut")
        elif framing == "file-gz" and rng.random() < 0.3:  # the member fails its CRC: only digests vouch
            data = data[:-8] + bytes([data[-8] ^ 1]) + data[-7:]
            for k in ff.pristine + ff.repairable:
                ff.mutated[k] = "member_crc"
            ff.pristine, ff.repairable = [], []
        ff.path.write_bytes(data)
        result.append(ff)
    return result


def _damage(ff: FuzzFile, key: str, what: str) -> None:
    for group in (ff.pristine, ff.repairable):
        if key in group:
            group.remove(key)
    ff.mutated[key] = "+".join(filter(None, (ff.mutated.get(key), what)))


def _pack(records: list, framing: str, name: str, flip: frozenset = frozenset(), rng=None) -> bytes:
    if framing == "tar":
        return fr.pack_tar(records)
    if framing.startswith("arc"):
        records = [fr.arc_filedesc(name)] + records
        flip = frozenset(i + 1 for i in flip)
    return fr.pack(records, framing, flip, rng)
