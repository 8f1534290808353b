"""Every command that writes leaves a file of someone else's at its output path as it was, file for file:
``index``, ``search``, ``eval``, ``inspect``, ``lm train``, ``lm train-crawl`` and ``eval-cleaning`` here
(``preprocess`` and ``run`` in tests/test_ownership.py). Each refuses in one line, exit 2, before any work;
each replaces its own output when run again."""
import hashlib
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE, local_run, shared
from webprune.cli import main

pytestmark = pytest.mark.slow
LUCENE_LIKE = {"segments_1": b"\x3f\xd7\x6c\x17 another tool's index", "_0.cfs": b"lucene", "write.lock": b""}


def hashes(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def users_file(path: Path, data: bytes = b"the user's own file\n") -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def refused(capsys, argv: list[str], fragment: str = "webprune did not write") -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # eval-cleaning's own parser exits as argparse does
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and fragment in err[0] and "Traceback" not in err[0], err


@pytest.fixture(scope="module")
def stage(tmp_path_factory):
    """A small preprocess output, its index and a run, built once."""
    from preprocess.driver.preprocess import run_preprocess
    from webprune.example import pack_example

    root = tmp_path_factory.mktemp("stage")
    warc = root / "example.warc.gz"
    pack_example(warc)
    run_preprocess([str(warc)], str(root / "out"), run=local_run(), progress=False)
    assert main(["index", str(root / "out"), "-i", str(root / "idx")]) == 0
    topics, qrels = EXAMPLE / "topics.txt", EXAMPLE / "qrels.txt"
    assert main(["search", "-i", str(root / "idx"), "-t", str(topics), "-o", str(root / "run.txt")]) == 0
    return root, warc, topics, qrels


def test_index_refuses_another_tools_index_and_a_users_notes(stage, tmp_path, capsys):
    root = stage[0]
    for files in (LUCENE_LIKE, {"notes.txt": b"mine"}):
        folder = tmp_path / f"idx-{len(files)}"
        for name, data in files.items():
            users_file(folder / name, data)
        before = hashes(folder)
        refused(capsys, ["index", str(root / "out"), "-i", str(folder)])
        assert hashes(folder) == before


def test_index_rebuilds_its_own_index_in_place(stage, capsys):
    root = stage[0]
    before = set(hashes(root / "idx"))
    assert main(["index", str(root / "out"), "-i", str(root / "idx")]) == 0
    assert "= the" in capsys.readouterr().out  # documents indexed = documents written
    assert set(hashes(root / "idx")) == before


def test_search_refuses_a_users_run_file_and_stats(stage, tmp_path, capsys):
    root, _, topics, _ = stage
    for target in ("run.txt", "run.txt.stats.json"):
        folder = tmp_path / target
        digest = users_file(folder / target)
        refused(capsys, ["search", "-i", str(root / "idx"), "-t", str(topics), "-o", str(folder / "run.txt")])
        assert hashes(folder) == {target: digest}
    assert main(["search", "-i", str(root / "idx"), "-t", str(topics), "-o", str(root / "run.txt")]) == 0  # its own


def test_eval_and_inspect_refuse_a_users_json(stage, tmp_path, capsys):
    root, warc, _, qrels = stage
    mine = tmp_path / "result.json"
    digest = users_file(mine)
    refused(capsys, ["eval", "-q", str(qrels), str(root / "run.txt"), "--json", str(mine)])
    refused(capsys, ["inspect", str(warc), "--local", "--json", str(mine)])
    assert hashes(tmp_path) == {"result.json": digest}
    ours = tmp_path / "ours" / "result.json"
    for _ in range(2):  # written, then replaced: webprune's own
        assert main(["eval", "-q", str(qrels), str(root / "run.txt"), "--json", str(ours)]) == 0
        assert main(["inspect", str(warc), "--local", "--json", str(ours)]) == 0


def test_lm_train_refuses_a_users_file(tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("a line of text\n" * 50)
    digest = users_file(tmp_path / "model.binary")
    refused(capsys, ["lm", "train", str(corpus), "-o", str(tmp_path / "model.binary")])
    assert hashes(tmp_path)["model.binary"] == digest


def test_lm_train_crawl_refuses_a_users_folder_and_file(stage, tmp_path, capsys):
    warc = stage[1]
    digest = users_file(tmp_path / "model" / "notes.txt")
    refused(capsys, ["lm", "train-crawl", str(warc), "-o", str(tmp_path / "model"), "--local"], "not empty")
    assert hashes(tmp_path / "model") == {"notes.txt": digest}
    users_file(tmp_path / "file")
    refused(capsys, ["lm", "train-crawl", str(warc), "-o", str(tmp_path / "file"), "--local"], "is a file")


def test_eval_cleaning_refuses_a_users_json(tmp_path, capsys):
    shared("cleaning")
    digest = users_file(tmp_path / "scores.json")
    refused(capsys, ["eval-cleaning", "--sets", "cleaneval-dev", "--limit", "2", "--tools", "webprune-tags",
                     "--json", str(tmp_path / "scores.json")])
    assert hashes(tmp_path) == {"scores.json": digest}
