"""Nothing deleted or replaced that webprune did not write: a user's files in an output folder survive
``preprocess -o``, ``--overwrite``, a resumed run, another input list, ``run --fresh``; hostile experiment names
are refused. Every file is hashed before and after."""
import hashlib
import json
from pathlib import Path

import pytest

from tests.conftest import local_run
from preprocess.driver.preprocess import run_preprocess
from webprune.cli import main
from webprune.config import load_config
from webprune.warcpack import pack_pages

USER_FILES = {  # names beside and inside the folders webprune uses, none of them one it writes
    "notes.md": b"my notes",
    "units/budget.json": b'{"budget": 3}',
    "units/x.json": b"{}",
    "work/draft.tmp": b"draft",
    "collection/notes.txt": b"about the collection",
    "collection/00000-foo.jsonl": b'{"id": "mine", "contents": "mine"}\n',
    "units/budget.json.wp-1-deadbeef.tmp": b"a temporary name of webprune's form, next to a file of the user's",
    "learned/readme.txt": b"mine",
}


def snapshot(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def user_folder(root: Path, files: dict[str, bytes] = USER_FILES) -> dict[str, str]:
    """Write the user's files into ``root``; their hashes."""
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return {name: digest for name, digest in snapshot(root).items() if name in files}


def kept(before: dict[str, str], root: Path) -> bool:
    after = snapshot(root)
    return all(after.get(name) == digest for name, digest in before.items())


def inputs(folder: Path, files: int = 2) -> list[str]:
    paths = []
    for f in range(files):
        path = folder / f"part-{f}.warc.gz"
        pack_pages([(f"p{f}-{i}", f"http://s{f}.example/{i}", f"<html><body><p>Page {i} of file {f}, a page "
                     f"with some words in it.</p></body></html>".encode()) for i in range(4)], path)
        paths.append(str(path))
    return paths


def one_error_line(capsys, argv: list[str], *fragments: str) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    for f in fragments:
        assert f in err, err
    return err


def test_a_users_folder_is_refused_then_written_beside_with_overwrite(tmp_path, capsys):
    warcs = inputs(tmp_path / "in")
    out = tmp_path / "mine"
    before = user_folder(out)
    one_error_line(capsys, ["preprocess", *warcs, "-o", str(out), "--local"], "not empty", "--overwrite")
    assert snapshot(out) == before  # nothing written at all
    assert main(["preprocess", *warcs, "-o", str(out), "--local", "--overwrite"]) == 0
    assert kept(before, out) and len(list((out / "collection").glob("0000*-part-*.jsonl.gz"))) == 2
    # other settings: webprune's own files are replaced, the user's stay
    assert main(["preprocess", *warcs, "-o", str(out), "--local", "--overwrite", "--cleaner", "density"]) == 0
    assert kept(before, out)
    # another input list: the dropped unit's shard and entry go, nothing of the user's
    assert main(["preprocess", warcs[0], "-o", str(out), "--local", "--cleaner", "density"]) == 0
    assert kept(before, out)
    assert sorted(p.name for p in (out / "collection").glob("*.jsonl.gz")) == ["00000-part-0.jsonl.gz"]
    assert not (out / "units" / "00001.json").exists()
    stats = json.loads((out / "stats.json").read_text())
    assert stats["written"] == stats["records"] == 4


def test_files_added_to_a_webprune_output_survive_resume_and_other_runs(tmp_path):
    warcs = inputs(tmp_path / "in", 3)
    out = tmp_path / "out"
    run_preprocess(warcs, str(out), run=local_run(), progress=False)
    before = user_folder(out)
    again = run_preprocess(warcs, str(out), run=local_run(), progress=False)
    assert again["units"]["reused"] == 3 and kept(before, out)
    run_preprocess(warcs[:1], str(out), run=local_run(), progress=False)
    assert kept(before, out)
    from preprocess.config.options import CleanOptions

    run_preprocess(warcs, str(out), CleanOptions(cleaner="density"), local_run(), progress=False, overwrite=True)
    assert kept(before, out)


@pytest.mark.parametrize("name", ["units/00000.json", "run.json", "stats.json", "collection/00001-part-1.jsonl",
                                  "work/not-a-marker.json"])
def test_a_user_file_where_webprune_would_write_refuses_the_run(tmp_path, capsys, name):
    warcs = inputs(tmp_path / "in")
    out = tmp_path / "out"
    before = user_folder(out, {name: b"the user's"})
    argv = ["preprocess", *warcs, "-o", str(out), "--local", "--no-compress", "--overwrite"]
    if name.startswith("work/"):  # not a name webprune writes: the run goes ahead beside it
        assert main(argv) == 0 and kept(before, out)
        return
    one_error_line(capsys, argv, name, "did not write it")
    assert snapshot(out) == before


def test_a_user_file_where_a_finished_run_would_write_next_refuses_the_next_run(tmp_path, capsys):
    warcs = inputs(tmp_path / "in", 3)
    out = tmp_path / "out"
    assert main(["preprocess", warcs[0], "-o", str(out), "--local"]) == 0
    (out / "units" / "00001.json").write_text("the user's")
    before = snapshot(out)
    one_error_line(capsys, ["preprocess", *warcs, "-o", str(out), "--local"], "units/00001.json")
    assert snapshot(out) == before


@pytest.mark.parametrize("flags, fragment", [(["--max-link-density", "2"], "[0, 1]"), (["--workers", "0"], "workers"),
                                             (["--page-timeout", "-1"], "seconds >= 0")])
def test_a_bad_flag_or_input_fails_before_the_output_folder_is_made(tmp_path, capsys, flags, fragment):
    warcs = inputs(tmp_path / "in", 1)
    out = tmp_path / "new" / "out"
    one_error_line(capsys, ["preprocess", *warcs, "-o", str(out), *flags], fragment)
    one_error_line(capsys, ["preprocess", str(tmp_path / "missing.warc.gz"), "-o", str(out)], "no such file")
    assert not (tmp_path / "new").exists()


def test_a_stale_temporary_file_of_webprunes_is_removed_and_a_lookalike_stays(tmp_path):
    warcs = inputs(tmp_path / "in")
    out = tmp_path / "out"
    run_preprocess(warcs, str(out), run=local_run(), progress=False)
    ours = out / "collection" / "00000-part-0.jsonl.wp-3f2-0123abcd.tmp"
    ours.write_text("half a shard of a killed run")
    lookalike = out / "collection" / "00000-mine.jsonl.wp-3f2-0123abcd.tmp"
    lookalike.write_text("the user's")
    run_preprocess(warcs, str(out), run=local_run(), progress=False)
    assert not ours.exists() and lookalike.read_text() == "the user's"


# -- experiments ----------------------------------------------------------------------------------------------
CONFIG = """
name = {name!r}
[collection]
inputs = ["in"]
[topics]
path = "topics.txt"
[qrels]
path = "qrels.txt"
[preprocess]
executor = "local"
[[variants]]
name = {variant!r}
cleaner = "tags"
"""


@pytest.mark.parametrize("name, variant", [("{victim}", "tags"), ("..", "tags"), ("a/b", "tags"), ("", "tags"),
                                           ("ok", "../../x"), ("ok", "/abs")])
def test_hostile_experiment_names_are_refused_at_load(tmp_path, capsys, name, variant):
    victim = tmp_path / "victim"
    before = user_folder(victim, {"thesis.tex": b"years of work"})
    cfg = tmp_path / "c.toml"
    cfg.write_text(CONFIG.format(name=name.format(victim=victim), variant=variant))
    with pytest.raises(ValueError, match="name"):
        load_config(cfg)
    one_error_line(capsys, ["run", str(cfg), "--fresh"], "name")
    assert snapshot(victim) == before and sorted(p.name for p in tmp_path.iterdir()) == ["c.toml", "victim"]


@pytest.mark.slow
def test_run_fresh_removes_only_the_experiments_own_files(tmp_path):
    from webprune.example import run_example

    mine = tmp_path / "mine"
    before = user_folder(mine)
    with pytest.raises(ValueError, match="not empty"):
        run_example(mine, progress=False)
    assert snapshot(mine) == before
    out = tmp_path / "ex"
    run_example(out, progress=False)
    key = sorted(p.name for p in (out / "collections").iterdir())[0]
    before = user_folder(out, {"notes.md": b"mine", "runs/mine.txt": b"my run", "plots/sketch.png": b"png",
                               f"collections/{key}/README": b"about this collection", "run.json": b"{}"})
    summary = run_example(out, progress=False)  # fresh=True: every stage redone
    assert kept(before, out) and summary["variants"]["tags"]["preprocess"]["written"] == 13
    assert (out / "report.html").exists() and (out / "runs" / "tags.txt").exists()


def test_a_half_written_file_a_stopped_runs_task_leaves_late_is_gone_when_the_run_ends(tmp_path, monkeypatch):
    """A task of a stopped run can outlive the stop (an attached cluster ends it later) and leave its half-written
    shard after the resumed run's start-up clean-up (seen once in test_interrupts' SIGTERM test): the run removes such
    leftovers of the names it lists when it ends. A file of the same look that webprune did not list stays."""
    import preprocess.driver.preprocess as run_module
    from preprocess.folder.owned import temporary_name

    out = tmp_path / "out"
    original = run_module.clean_unit

    def late_orphan(job, unit, progress=None):
        (out / "collection").mkdir(parents=True, exist_ok=True)
        (out / temporary_name(f"collection/{unit.shard}")).write_bytes(b'{"id": "half')
        (out / temporary_name("collection/not-ours.jsonl")).write_bytes(b"the user's")
        return original(job, unit, progress)

    monkeypatch.setattr(run_module, "clean_unit", late_orphan)
    warc = tmp_path / "in.warc.gz"
    pack_pages([("a", "http://a.example/", b"<html><body><p>one page with a few words</p></body></html>")], warc)
    r = run_preprocess([str(warc)], str(out), run=local_run(), progress=False)
    assert r["written"] == 1
    left = sorted(p.name for p in out.rglob("*.tmp"))
    assert len(left) == 1 and left[0].startswith("not-ours.jsonl.wp-"), left


def test_the_record_reads_back_names_holding_unicode_line_separators(tmp_path):
    """The record's JSON lines keep U+2028 and U+0085 raw (ensure_ascii=False): read back at newlines only."""
    import pyarrow.fs as pafs

    from preprocess.folder.owned import OwnedFiles

    fs = pafs.LocalFileSystem()
    owned = OwnedFiles.create(fs, str(tmp_path), str(tmp_path), "preprocess")
    names = {"collection/00000-a\u2028b.jsonl", "runs/x\x85y.run", "plain.json"}
    owned.add(sorted(names)[:2])
    owned.add(sorted(names)[2:])
    assert OwnedFiles.load(fs, str(tmp_path), str(tmp_path)).names == names
    owned.compact()
    assert OwnedFiles.load(fs, str(tmp_path), str(tmp_path)).names == names
