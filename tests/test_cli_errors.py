"""Every bad argument, file or config: exit code 2 and one line saying what to do, never a traceback."""
import subprocess
import sys

import pytest

from tests.conftest import ROOT, shared
from webprune.cli import main

QRELS = "1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n"
RUN = "1 Q0 d1 1 2.0 t\n1 Q0 d2 2 1.0 t\n2 Q0 d3 1 1.5 t\n"


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "run.txt").write_text(RUN)
    return tmp_path


def one_line_error(capsys, argv, fragment: str) -> str:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code
    err = capsys.readouterr().err
    lines = [l for l in err.splitlines() if l.strip()]
    assert code == 2, (code, err)
    assert len(lines) == 1 and "Traceback" not in err, err
    assert fragment in lines[0], lines[0]
    return lines[0]


def test_unknown_metric_names_suggest_the_closest(files, capsys):
    one_line_error(capsys, ["eval", "-q", str(files / "qrels.txt"), str(files / "run.txt"), "--metrics", "FOO"],
                   "unknown metric 'FOO'")
    one_line_error(capsys, ["eval", "-q", str(files / "qrels.txt"), str(files / "run.txt"), "--metrics", "p@10"],
                   "did you mean 'P@10'")


def test_output_paths_that_are_folders(files, capsys):
    one_line_error(capsys, ["eval", "-q", str(files / "qrels.txt"), str(files / "run.txt"), "--json", str(files)],
                   "is a folder")


@pytest.mark.parametrize("qrels, fragment", [("1 0 d1 inf\n", "not a whole number"), ("1 0 d1 x\n", "not a number"),
                                             ("1 0 d1\n", "expected 'qid iter docid relevance'"), ("", "no judgements")])
def test_bad_qrels(files, capsys, qrels, fragment):
    (files / "bad.txt").write_text(qrels)
    one_line_error(capsys, ["eval", "-q", str(files / "bad.txt"), str(files / "run.txt")], fragment)


@pytest.mark.parametrize("run, fragment", [("1 Q0 d1 1 nan t\n", "not a finite number"),
                                           ("1 Q0 d1 1 high t\n", "is not a number"),
                                           ("1 Q0 d1\n", "expected 'qid Q0 docid rank score tag'"),
                                           ("\n", "no ranked documents")])
def test_bad_runs(files, capsys, run, fragment):
    (files / "bad.txt").write_text(run)
    one_line_error(capsys, ["eval", "-q", str(files / "qrels.txt"), str(files / "bad.txt")], fragment)


def test_missing_files(files, capsys):
    one_line_error(capsys, ["eval", "-q", str(files / "nope.txt"), str(files / "run.txt")], "no such qrels file")
    one_line_error(capsys, ["eval", "-q", str(files), str(files / "run.txt")], "is a folder")
    one_line_error(capsys, ["preprocess", str(files / "nope.warc.gz"), "-o", str(files / "o")], "no such file")
    one_line_error(capsys, ["search", "-i", str(files), "-t", str(files / "nope.txt"), "-o", str(files / "r")], "nope.txt")
    one_line_error(capsys, ["lm", "score", str(files / "nope.bin"), "a sentence"], "no such language model")
    one_line_error(capsys, ["run", str(files / "nope.toml")], "no such config file")


@pytest.mark.parametrize("config, fragment", [
    ("", "the [collection] section is missing"),
    ('[collection]\ninputs = ["x"]\n[topics]\npath = "t"\n', "the [qrels] section is missing"),
    ('[collection]\ninput = ["x"]\n[topics]\npath = "t"\n[qrels]\npath = "q"\n', "did you mean 'inputs'"),
    ('[collection]\ninputs = "x.warc.gz"\n[topics]\npath = "t"\n[qrels]\npath = "q"\n', "must be a list"),
    ("[[[", "not valid TOML"),
])
def test_bad_configs(files, capsys, config, fragment):
    (files / "c.toml").write_text(config)
    one_line_error(capsys, ["run", str(files / "c.toml")], fragment)


def test_bad_preprocess_options(files, capsys):
    warc = str(shared("warc", "commoncrawl", "whirlwind-whirlwind.warc.gz"))
    out = str(files / "o")
    one_line_error(capsys, ["preprocess", warc, "-o", out, "--cleaner", "nonsense"], "invalid choice")
    one_line_error(capsys, ["preprocess", warc, "-o", out, "--max-link-density", "2"], "[0, 1]")
    one_line_error(capsys, ["preprocess", warc, "-o", out, "--prune-model", "m.bin"], "--max-perplexity N")
    one_line_error(capsys, ["preprocess", warc, "-o", out, "--max-link-density", "half"], "invalid float value")
    one_line_error(capsys, ["preprocess", warc, "-o", out, "--recycle-after", "-1"], "must be 0 or more")
    (files / "x.pdf").write_bytes(b"%PDF")
    one_line_error(capsys, ["preprocess", str(files / "x.pdf"), "-o", out], "pass archives")
    assert main(["preprocess", warc, "-o", out, "--local"]) == 0
    capsys.readouterr()
    one_line_error(capsys, ["preprocess", warc, "-o", out, "--local", "--cleaner", "density"], "--overwrite")


def test_the_real_command_prints_no_traceback(files):
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", "eval", "-q", str(files / "qrels.txt"),
                           str(files / "run.txt"), "--metrics", "FOO"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", "--debug", "eval", "-q", str(files / "qrels.txt"),
                           str(files / "run.txt"), "--metrics", "FOO"], capture_output=True, text=True, cwd=ROOT)
    assert "Traceback" in proc.stderr  # --debug shows it


def test_bad_retrieval_model_options(files, capsys):
    (files / "t.txt").write_text("<top>\n<num> Number: 1\n<title> x\n</top>\n")
    args = ["search", "-i", str(files / "idx"), "-t", str(files / "t.txt"), "-o", str(files / "run.txt")]
    one_line_error(capsys, args + ["--model", "bm52"], "invalid choice")
    one_line_error(capsys, args + ["--model", "bm25", "--b", "1.5"], "0 <= b <= 1")
    one_line_error(capsys, args + ["--rm3", "--fb-docs", "0"], "fb_docs >= 1")


@pytest.mark.parametrize("args, content, fragment", [
    (["--cleaner", "learned", "--learned-model", "{dir}/none.json"], None, "no block model at"),
    (["--cleaner", "learned", "--learned-model", "{dir}/m.json"], '{"features":', "is not a block model"),
    (["--cleaner", "learned", "--learned-model", "{dir}/m.json"], '{"features": []}', "is not a block model"),
    (["--learned-model", "{dir}/m.json"], "{}", "add --cleaner learned"),
    (["--prune-model", "{dir}/none.bin", "--max-perplexity", "100"], None, "no model at"),
])
def test_model_files_are_checked_before_any_worker_starts(tmp_path, capsys, args, content, fragment):
    if content is not None:
        (tmp_path / "m.json").write_text(content)
    page = tmp_path / "in.warc.gz"
    page.write_bytes(b"")
    argv = ["preprocess", str(page), "-o", str(tmp_path / "out"), "--executor", "local"]
    one_line_error(capsys, argv + [a.replace("{dir}", str(tmp_path)) for a in args], fragment)
    assert not (tmp_path / "out" / "stats.json").exists()
