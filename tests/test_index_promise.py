"""``webprune index`` checks a preprocess output against what its run promised (index/expected.py): an unfinished
run, a shard missing, resized, edited in place or added is refused in one line; ``--partial`` indexes what is
there and names the differences; a finished run indexes with written = indexed."""
import json
import shutil
import subprocess
import sys

import pytest

from tests.conftest import local_run
from tests.hostile import warc_record
from webprune.cli import main

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def done(tmp_path_factory):
    """A finished preprocess run of three small files (plain shards, so a byte can be edited in place)."""
    from preprocess.driver.preprocess import run_preprocess

    root = tmp_path_factory.mktemp("promise")
    inputs = []
    for k in range(3):
        (root / f"f{k}.warc").write_bytes(b"".join(warc_record(10 * k + n) for n in range(4)))
        inputs.append(str(root / f"f{k}.warc"))
    run_preprocess(inputs, str(root / "out"), run=local_run(), progress=False)
    return root / "out"


def copy(done, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(done, out)
    return out


def index(capsys, out, idx, *flags) -> tuple[int, str, str]:
    code = main(["index", str(out), "-i", str(idx), *flags])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_a_finished_run_is_indexed_whole_and_says_so(done, tmp_path, capsys):
    code, out, _ = index(capsys, done, tmp_path / "idx")
    assert code == 0 and out.startswith("indexed 12 documents = the 12 preprocess wrote")
    s = json.loads((tmp_path / "idx" / "webprune-index.json").read_text())
    assert s["preprocess"] == {"folder": str(done), "written": 12, "indexed_equals_written": True, "differences": [],
                               "complete": True}


@pytest.mark.parametrize("damage, fragment", [
    ("unfinished", "unfinished preprocess run (2 of 3 input files done"),
    ("missing", "00001-f1.jsonl is missing"),
    ("resized", "bytes, the manifest"),
    ("edited", "its bytes changed"),
    ("added", "extra.jsonl is not in the manifest"),
])
def test_an_unfinished_or_altered_collection_is_refused_and_partial_names_why(done, tmp_path, capsys, damage,
                                                                               fragment):
    out = copy(done, tmp_path)
    shard = out / "collection" / "00001-f1.jsonl"
    if damage == "unfinished":  # what a killed run leaves: no stats.json or manifest, one unit not done
        for name in ("stats.json", "manifest.json", "units/00002.json", "collection/00002-f2.jsonl"):
            (out / name).unlink()
    elif damage == "missing":
        shard.unlink()
    elif damage == "resized":
        shard.write_bytes(shard.read_bytes() + b"\n")
    elif damage == "edited":  # same size, one byte other
        data = bytearray(shard.read_bytes())
        data[data.index(b"word")] = ord("W")
        shard.write_bytes(bytes(data))
    else:
        (out / "collection" / "extra.jsonl").write_text('{"id": "x", "contents": "someone else\'s"}\n')
    code, _, err = index(capsys, out, tmp_path / "idx")
    assert code == 2 and fragment in err and "--partial" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "idx" / "webprune-index.json").exists()
    code, said, _ = index(capsys, out, tmp_path / "idx", "--partial")
    assert code == 0 and fragment.split(" (")[0] in said
    s = json.loads((tmp_path / "idx" / "webprune-index.json").read_text())
    assert s["preprocess"]["differences"] and not s["preprocess"]["complete"]


def test_a_collection_a_live_run_is_writing_is_refused_even_with_partial(done, tmp_path, capsys):
    from preprocess.folder.lock import OutputLock
    from preprocess.core.paths import filesystem

    out = copy(done, tmp_path)
    (out / "stats.json").unlink()
    fs, root = filesystem(str(out))
    with OutputLock(fs, root, str(out)):
        code, _, err = index(capsys, out, tmp_path / "idx", "--partial")
    assert code == 2 and "still writing" in err


def test_a_second_index_into_one_folder_names_the_first(done, tmp_path):
    """Two builds into one folder at once: the second is refused with the first one named, no Java exception."""
    cmd = [sys.executable, "-m", "webprune.cli", "index", str(done), "-i", str(tmp_path / "idx")]
    first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(200):  # until the first holds the folder
            if (tmp_path / "idx" / ".webprune.lock").exists():
                break
            first.poll()
            assert first.returncode is None, first.communicate()
            import time
            time.sleep(0.02)
        second = subprocess.run(cmd, capture_output=True, text=True)
    finally:
        first.communicate(timeout=120)
    assert first.returncode == 0
    assert second.returncode == 2 and "in use by another webprune run" in second.stderr
    assert "Exception" not in second.stderr and "Traceback" not in second.stderr


def test_a_folder_of_shards_alone_is_indexed_as_it_is(done, tmp_path, capsys):
    shutil.copytree(done / "collection", tmp_path / "shards")
    code, out, _ = index(capsys, tmp_path / "shards", tmp_path / "idx")
    assert code == 0 and out.startswith("indexed 12 documents in")
