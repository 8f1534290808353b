"""Input discovery and file-based pages, on inputs built byte by byte: each file read once (links, loops, the
same file given twice), every tar member accounted for (hard links read, symlinks and devices counted), ids
unique in the whole collection."""
import io
import json
import os
import tarfile
from pathlib import Path

from preprocess.config.options import CleanOptions
from preprocess.core.ids import cross_unit_renames, page_ids
from preprocess.readers import read_source
from preprocess.driver.preprocess import run_preprocess
from preprocess.readers.sources import discover
from preprocess.core.stats import Stats
from tests.conftest import local_run
from webprune.warcpack import pack_pages


def page(text: str) -> bytes:
    return f"<html><head><title>{text}</title></head><body><p>{text} is a page about rivers and bridges, " \
           f"written for this test.</p></body></html>".encode()


def warcs(folder: Path, n: int, per_file: int = 3) -> list[Path]:
    return [folder / f"part-{f}.warc.gz" for f in range(n)
            if pack_pages([(f"p{f}-{i}", f"http://s{f}.example/{i}", page(f"file {f} page {i}")) for i in range(per_file)],
                          folder / f"part-{f}.warc.gz")]


def shard_ids(out: Path) -> list[str]:
    return [json.loads(line)["id"] for p in sorted((out / "collection").glob("*.jsonl"))
            for line in p.read_text().splitlines()]


def add(tar: tarfile.TarFile, name: str, data: bytes | None = None, kind=tarfile.REGTYPE, link: str = "") -> None:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    info.size = len(data) if data is not None else 0
    tar.addfile(info, io.BytesIO(data) if data is not None else None)


# -- each file once -------------------------------------------------------------------------------------------
def test_a_symlink_loop_in_a_folder_gives_each_file_once(tmp_path):
    root = tmp_path / "in"
    warcs(root, 10)
    (root / "sub").mkdir()
    os.symlink("..", root / "sub" / "up")      # in/sub/up -> in: a loop
    os.symlink(root, root / "self")            # in/self -> in
    found = {}
    sources = discover([str(root)], found)
    assert sorted(Path(s.uri).name for s in sources) == sorted(f"part-{f}.warc.gz" for f in range(10))
    assert len(found["folders_reached_twice"]) >= 2
    r = run_preprocess([str(root)], str(tmp_path / "out"), run=local_run(), progress=False)
    assert r["records"] == r["written"] == 30 and r["units"]["total"] == 10
    assert r["counters"]["inputs.folders_reached_twice"] == len(found["folders_reached_twice"])


def test_the_same_file_given_twice_is_read_once(tmp_path):
    root = tmp_path / "in"
    a, b = warcs(root, 2)
    os.symlink(a, tmp_path / "link.warc.gz")
    os.link(b, tmp_path / "hard.warc.gz")
    given = [str(a), str(a), str(tmp_path / "link.warc.gz"), str(root / ".." / "in" / a.name), str(root),
             str(tmp_path / "hard.warc.gz")]
    found = {}
    sources = discover(given, found)
    assert [Path(s.uri).name for s in sources] == ["part-0.warc.gz", "part-1.warc.gz"]
    assert len(found["duplicates"]) == 5  # a again, link, d/../d/a, a inside its folder, b's hard link (b once)
    r = run_preprocess(given, str(tmp_path / "out"), run=local_run(), progress=False)
    assert r["records"] == r["written"] == 6 and r["counters"]["inputs.duplicates"] == 5
    assert sorted(shard_ids(tmp_path / "out")) == sorted(f"p{f}-{i}" for f in range(2) for i in range(3))


def test_html_pages_reached_twice_are_read_once_and_broken_links_are_left_out(tmp_path):
    root = tmp_path / "pages"
    (root / "a").mkdir(parents=True)
    (root / "a" / "one.html").write_bytes(page("one"))
    (root / "two.html").write_bytes(page("two"))
    os.symlink(root / "a" / "one.html", root / "alias.html")
    os.symlink(tmp_path / "nowhere.html", root / "broken.html")
    found = {}
    sources = discover([str(root), str(root / "a")], found)
    assert len(sources) == 1 and sorted(sources[0].members) == ["a/one.html", "two.html"]
    assert found["broken_links"] and len(found["duplicates"]) == 2  # alias.html; a/one.html via the 2nd folder


# -- tar members ----------------------------------------------------------------------------------------------
def hostile_tar(path: Path) -> None:
    with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT) as tar:
        add(tar, "site", kind=tarfile.DIRTYPE)
        add(tar, "site/a.html", page("alpha"))
        add(tar, "site/copy.html", kind=tarfile.LNKTYPE, link="site/a.html")       # hard link: a.html's bytes
        add(tar, "site/data.bin", b"\x00\x01")
        add(tar, "site/via-bin.html", kind=tarfile.LNKTYPE, link="site/data.bin")  # hard link to a non-page
        add(tar, "site/chain.html", kind=tarfile.LNKTYPE, link="site/copy.html")   # link to a link
        add(tar, "site/sym.html", kind=tarfile.SYMTYPE, link="a.html")
        add(tar, "site/missing.html", kind=tarfile.LNKTYPE, link="site/gone.html")
        add(tar, "site/fifo.html", kind=tarfile.FIFOTYPE)
        add(tar, "site/tty", kind=tarfile.CHRTYPE)
        add(tar, "/abs/b.html", page("beta"))
        add(tar, "../up/c.html", page("gamma"))


def test_every_tar_member_is_accounted_for_and_hard_links_are_read(tmp_path):
    hostile_tar(tmp_path / "t.tar.gz")
    stats = Stats()
    docs = list(read_source(discover([str(tmp_path / "t.tar.gz")])[0], stats))
    got = {d.id: d.raw for d in docs}
    assert got == {"a": page("alpha"), "copy": page("alpha"), "chain": page("alpha"), "via-bin": b"\x00\x01",
                   "b": page("beta"), "c": page("gamma")}
    d = stats.to_dict()
    assert d["records"] == 11 and d["unaccounted"] == len(docs)  # every member but the folder; pages: the pipeline's
    assert d["skipped"] == {"non_html": 1, "symlink": 1, "not_a_file": 2}
    assert d["failed"] == {"broken_link": 1} and d["counters"]["read.hard_links"] == 3
    r = run_preprocess([str(tmp_path / "t.tar.gz")], str(tmp_path / "out"), run=local_run(), progress=False)
    assert r["records"] == 11 and r["unaccounted"] == 0
    assert {"a", "copy", "chain", "b", "c"} <= set(shard_ids(tmp_path / "out")) <= set(got)


def test_a_tar_cut_inside_a_member_fails_that_member_and_keeps_the_ones_before(tmp_path):
    body = page("page") * 20
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for i in range(3):
            add(tar, f"p{i}.html", body)
    member = 512 + (len(body) + 511) // 512 * 512  # a header block, then the data padded to 512
    cut = tmp_path / "cut.tar"
    cut.write_bytes(raw.getvalue()[:member + 512 + len(body) // 2])  # half way through p1's data
    stats = Stats()
    docs = list(read_source(discover([str(cut)])[0], stats))
    d = stats.to_dict()
    assert [doc.id for doc in docs] == ["p0"] and docs[0].raw == body
    assert d["records"] == 2 and d["failed"] == {"corrupt": 1} and d["unaccounted"] == len(docs)


# -- ids ------------------------------------------------------------------------------------------------------
def test_ids_are_stems_when_unique_and_paths_otherwise():
    assert page_ids(["CACM-0001.html", "CACM-0002.html"]) == ["CACM-0001", "CACM-0002"]
    assert page_ids(["a/page1.html", "b/page1.html", "c/page1.htm", "d/x.html"]) == \
        ["a/page1.html", "b/page1.html", "c/page1.htm", "x"]
    assert page_ids(["/a/p.html", "a/p.html", "a/p.html"]) == ["a/p.html", "a/p.html#2", "a/p.html#3"]
    assert page_ids([".html", "x/.html"]) == [".html", "x/.html"] and page_ids(["/.htm"]) == [".htm"]
    renames = cross_unit_renames([(0, "siteA", "00000-siteA", ["index", "a"]), (1, "siteB", "00001-siteB", ["index"]),
                                  (2, "siteB", "00002-siteB", ["index", "b"])])
    assert renames == {"0": {"index": "siteA/index"}, "1": {"index": "00001-siteB/index"},
                       "2": {"index": "00002-siteB/index"}}


def test_page1_in_three_folders_gets_three_ids_and_the_run_counts_them(tmp_path):
    root = tmp_path / "pages"
    for d in "abc":
        (root / d).mkdir(parents=True)
        (root / d / "page1.html").write_bytes(page(f"folder {d}"))
    (root / "a" / "only.html").write_bytes(page("only"))
    r = run_preprocess([str(root)], str(tmp_path / "out"), run=local_run(), progress=False)
    assert sorted(shard_ids(tmp_path / "out")) == ["a/page1.html", "b/page1.html", "c/page1.html", "only"]
    assert r["counters"]["read.duplicate_id_renamed"] == 3


def test_ids_shared_by_two_tars_are_prefixed_and_unique_ones_stay(tmp_path):
    for site, pages in (("siteA", ["index.html", "CACM-0001.html"]), ("siteB", ["index.html", "CACM-0002.html"])):
        with tarfile.open(tmp_path / f"{site}.tar.gz", "w:gz") as tar:
            for name in pages:
                add(tar, name, page(f"{site} {name}"))
    (tmp_path / "loose").mkdir()
    (tmp_path / "loose" / "index.html").write_bytes(page("loose index"))
    inputs = [str(tmp_path / "siteA.tar.gz"), str(tmp_path / "siteB.tar.gz"), str(tmp_path / "loose")]
    out = tmp_path / "out"
    r = run_preprocess(inputs, str(out), run=local_run(), progress=False)
    ids = shard_ids(out)
    assert sorted(ids) == ["CACM-0001", "CACM-0002", "loose/index", "siteA/index", "siteB/index"]
    assert r["counters"]["read.duplicate_id_renamed"] == 3 and r["written"] == 5
    assert json.loads((out / "learned" / "page_ids.json").read_text())["artefact"]["info"]["ids_prefixed"] == 3
    again = run_preprocess(inputs, str(out), run=local_run(), progress=False)  # the census is reused
    assert again["units"]["reused"] == 3 and again["learned"]["page_ids"]["reused"]


def test_a_warc_only_run_needs_no_census(tmp_path):
    warcs(tmp_path / "in", 2)
    r = run_preprocess([str(tmp_path / "in")], str(tmp_path / "out"), run=local_run(), progress=False)
    assert "page_ids" not in r["learned"] and not (tmp_path / "out" / "learned" / "page_ids.json").exists()


def test_a_fifo_in_an_input_folder_is_counted_not_ignored_unsaid(tmp_path):
    pack_pages([("p1", "http://x.org/1", b"<html><body><p>one page here</p></body></html>")], tmp_path / "a.warc.gz")
    os.mkfifo(tmp_path / "pipe.warc.gz")
    found = {}
    assert [s.filename for s in discover([str(tmp_path)], found)] == ["a.warc.gz"]
    assert found["not_files"] == [str(tmp_path / "pipe.warc.gz")]
    r = run_preprocess([str(tmp_path)], str(tmp_path / "out"), CleanOptions(cleaner="tags"), local_run(), progress=False)
    assert r["counters"]["inputs.not_files"] == 1 and r["written"] == 1


def test_an_input_edited_in_place_keeping_size_and_mtime_is_cleaned_again(tmp_path):
    """A file's ctime, which no edit can keep, is part of what identifies it: its shard is not reused stale."""
    from tests.hostile import warc_record

    path = tmp_path / "in" / "a.warc"
    path.parent.mkdir()
    path.write_bytes(warc_record(1))
    out = tmp_path / "out"
    run_preprocess([str(path.parent)], str(out), run=local_run(), progress=False)
    st = path.stat()
    data = path.read_bytes().replace(b"Page number 1", b"PAGE NUMBER 1")
    assert len(data) == st.st_size
    path.write_bytes(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # size and mtime as they were
    r = run_preprocess([str(path.parent)], str(out), run=local_run(), progress=False)
    assert r["units"]["reused"] == 0
    assert "PAGE NUMBER 1" in (out / "collection" / "00000-a.jsonl").read_text()
