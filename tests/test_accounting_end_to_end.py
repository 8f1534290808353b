"""Accounting end to end, every framing: records in = written + skipped + failed (each by reason) in every
input file, documents indexed = documents written, and the ids a run file names = the ids written.

One folder holds one file of each framing -- WARC with one gzip member per record, one for the whole file,
uncompressed, ARC plain and gzipped, WET, a tar of pages and a folder of pages -- each built byte by byte with
ordinary pages, an id that must be made safe, a repeated id, a record that is no page, an empty page and, where
the framing allows it, a damaged record; then preprocess, index and search run on it as a user would.
"""
import gzip
import io
import json
import tarfile

import pytest

from tests.hostile import arc_file, http, pack, warc_record
from webprune.cli import main

pytestmark = pytest.mark.slow
WORD = "zebrafinch"  # in every page: one query names them all


def page(n: int, empty: bool = False) -> bytes:
    if empty:
        return b"<html><head></head><body><script>var x = 1;</script></body></html>"
    return (f"<html><head><title>Page {n}</title></head><body><p>{WORD} page {n} with words of its own, "
            f"word{n} and more{n}.</p></body></html>").encode()


def warc(tag: str, ids: list[str], kind=None, empty=()) -> list[bytes]:
    return [warc_record(n, block=http(page(n, n in empty)), kind=(kind or {}).get(n, "response"),
                        headers={"WARC-TREC-ID": i}) for n, i in enumerate(ids)]


def damaged_member(record: bytes) -> bytes:
    member = bytearray(gzip.compress(record, mtime=0))
    member[len(member) // 2:len(member) // 2 + 40] = bytes(40)
    return bytes(member)


def build(root):
    """The inputs, and what each must give: {file: (records, written, skipped, failed)}."""
    root.mkdir()
    ids = lambda t: [f"{t}-0", f"{t}-1", f"{t} unsafe-2", f"{t}-1", f"{t}-4", f"{t}-5", f"{t}-6"]  # 3 repeats 1
    kinds, empty = {4: "request"}, {5}
    expect = {}
    recs = warc("rgz", ids("rgz"), kinds, empty)
    members = [gzip.compress(r, mtime=0) for r in recs]
    members[6] = damaged_member(recs[6])
    (root / "a-record.warc.gz").write_bytes(b"".join(members))
    expect["a-record.warc.gz"] = (7, 3, {"duplicate_id": 1, "non_response": 1, "empty": 1}, {"corrupt": 1})
    (root / "b-file.warc.gz").write_bytes(pack(warc("fgz", ids("fgz")[:6], kinds, empty), "file-gz"))
    expect["b-file.warc.gz"] = (6, 3, {"duplicate_id": 1, "non_response": 1, "empty": 1}, {})
    plain = warc("pln", ids("pln"), kinds, empty)
    plain[6] = plain[6].replace(b"WARC/1.0", b"WRAC/1.O", 1)  # a broken version line
    (root / "c-plain.warc").write_bytes(b"".join(plain))
    expect["c-plain.warc"] = (7, 3, {"duplicate_id": 1, "non_response": 1, "empty": 1}, {"corrupt": 1})
    arc = arc_file([(f"http://x.org/{n}", http(page(100 + n, n == 3))) for n in range(4)])
    (root / "d my crawl.arc").write_bytes(b"".join(arc))  # ids FILE:OFFSET, the file name with a space
    expect["d my crawl.arc"] = (5, 3, {"non_response": 1, "empty": 1}, {})
    (root / "e.arc.gz").write_bytes(pack(arc, "arc-gz"))
    expect["e.arc.gz"] = (5, 3, {"non_response": 1, "empty": 1}, {})
    wet = [warc_record(n, block=f"{WORD} text of page {n}".encode() if n != 2 else b" \n ", kind="conversion",
                       headers={"WARC-TREC-ID": f"wet {n}" if n == 1 else f"wet-{n}"}) for n in range(4)]
    (root / "f.warc.wet.gz").write_bytes(pack(wet, "record-gz"))
    expect["f.warc.wet.gz"] = (4, 3, {"empty_payload": 1}, {})
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, data in [("t-0.html", page(200)), ("t 1.html", page(201)), ("dir/t-0.html", page(202)),
                           ("t-3.html", page(203, True)), ("notes.txt", b"not a page")]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    (root / "g.tar.gz").write_bytes(buf.getvalue())  # two t-0 stems: named by path
    expect["g.tar.gz"] = (5, 3, {"non_html": 1, "empty": 1}, {})
    (root / "h").mkdir()
    for name, data in [("h-0.html", page(300)), ("h 1.html", page(301)), ("h-2.html", page(302, True))]:
        (root / "h" / name).write_bytes(data)
    expect["crawl"] = (3, 2, {"empty": 1}, {})  # the loose pages of crawl/ are one unit, named after it
    return expect


def test_every_record_of_every_framing_is_accounted_for_from_archive_to_run_file(tmp_path, capsys):
    expect = build(tmp_path / "crawl")
    out, idx, run = tmp_path / "out", tmp_path / "idx", tmp_path / "run.txt"
    assert main(["preprocess", str(tmp_path / "crawl"), "-o", str(out), "--local", "--outcomes"]) == 0
    stats = json.loads((out / "stats.json").read_text())
    manifest = json.loads((out / "manifest.json").read_text())
    by_source = {}
    for i, shard in enumerate(sorted((out / "units").glob("*.json"))):
        entry = json.loads(shard.read_text())
        counts = entry["stats"]["counts"]
        name = next(s["source"] for s in manifest["shards"] if s["shard"] == entry["shard"]).rsplit("/", 1)[-1]
        group = lambda p: {k.split(".", 1)[1]: v for k, v in counts.items() if k.startswith(p + ".")}
        by_source[name] = (counts["records"], counts.get("written", 0), group("skipped"), group("failed"))
    assert by_source == expect
    total = [sum(e[0] for e in expect.values()), sum(e[1] for e in expect.values())]
    assert [stats["records"], stats["written"], stats["unaccounted"]] == total + [0]
    written = [json.loads(line)["id"] for f in sorted((out / "collection").iterdir())
               for line in (gzip.open(f) if f.name.endswith(".gz") else open(f, "rb"))]
    assert len(written) == len(set(written)) == stats["written"]
    assert all(i.split() == [i] and i.isprintable() for i in written)  # a run file can name each
    ledger = [line.split("\t") for f in sorted((out / "outcomes").iterdir())
              for line in gzip.decompress(f.read_bytes()).decode().splitlines()]
    assert len(ledger) == stats["records"] and all(len(row) == 2 for row in ledger)
    assert sorted(i for i, o in ledger if o == "written") == sorted(written)
    capsys.readouterr()
    assert main(["index", str(out), "-i", str(idx)]) == 0
    assert capsys.readouterr().out.startswith(f"indexed {stats['written']} documents = the {stats['written']} "
                                              "preprocess wrote")
    (tmp_path / "topics.txt").write_text(f"<top>\n<num> Number: 1\n<title> {WORD}\n</top>\n")
    assert main(["search", "-i", str(idx), "-t", str(tmp_path / "topics.txt"), "-o", str(run), "--k", "1000"]) == 0
    named = [line.split()[2] for line in run.read_text().splitlines()]
    assert sorted(named) == sorted(written)
