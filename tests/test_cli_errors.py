"""Every bad argument, file or config: exit code 2 and one line saying what to do, never a traceback."""
import os
import subprocess
import sys
import time
from pathlib import Path

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
                                             ("1 0 d1\n", "a qrels line has 4 columns 'qid iter docid relevance'"), ("", "no judgements")])
def test_bad_qrels(files, capsys, qrels, fragment):
    (files / "bad.txt").write_text(qrels)
    one_line_error(capsys, ["eval", "-q", str(files / "bad.txt"), str(files / "run.txt")], fragment)


@pytest.mark.parametrize("run, fragment", [("1 Q0 d1 1 nan t\n", "not a finite number"),
                                           ("1 Q0 d1 1 high t\n", "is not a number"),
                                           ("1 Q0 d1\n", "a run line has 6 columns 'qid Q0 docid rank score tag'"),
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
    one_line_error(capsys, ["preprocess", warc, "-o", out, "--recycle-after", "-1"], "give a whole number >= 0")
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
    (["--cleaner", "tags", "--learned-model", "{dir}/m.json"], "{}", "add --cleaner learned"),
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


# -- issue 21, item 9: flags and files that were accepted or hung -----------------------------------------------------
def refused(capsys, argv, fragment: str, *unwritten, seconds: float = 5.0) -> str:
    """Exit 2 with one line holding ``fragment``, within ``seconds``, and none of ``unwritten`` exists after."""
    t0 = time.perf_counter()
    line = one_line_error(capsys, argv, fragment)
    assert time.perf_counter() - t0 < seconds, f"took {time.perf_counter() - t0:.1f} s: {argv}"
    for p in unwritten:
        assert not Path(p).exists(), f"{p} was written: {argv}"
    return line


def real_command(args, env=None, timeout=60):
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=timeout)
    return proc, time.perf_counter() - t0


@pytest.fixture()
def warc():
    return str(shared("warc", "commoncrawl", "whirlwind-whirlwind.warc.gz"))


def test_an_address_where_no_ray_cluster_answers_fails_in_seconds(tmp_path, warc):
    out = tmp_path / "out"
    proc, took = real_command(["preprocess", warc, "-o", str(out), "--address", "127.0.0.1:1"])
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "no Ray cluster answers at 127.0.0.1:1" in lines[0] and "ray start --head" in lines[0]
    assert took < 10 and not out.exists()


def test_addresses_are_checked_by_every_command_that_takes_one(tmp_path, capsys, warc, monkeypatch):
    out, js, model = tmp_path / "out", tmp_path / "c.json", tmp_path / "model"
    refused(capsys, ["inspect", warc, "--address", "127.0.0.1:1", "--json", str(js)], "no Ray cluster answers", js)
    refused(capsys, ["lm", "train-crawl", warc, "-o", str(model), "--address", "127.0.0.1:1"],
            "no Ray cluster answers", model)
    refused(capsys, ["preprocess", warc, "-o", str(out), "--address", "ray://head:10001"],
            "ray:// addresses (Ray Client) are not supported", out)
    refused(capsys, ["preprocess", warc, "-o", str(out), "--address", "head"], "give the cluster's HOST:PORT", out)
    monkeypatch.setenv("RAY_ADDRESS", "ray://head:10001")
    line = refused(capsys, ["preprocess", warc, "-o", str(out)], "ray:// addresses (Ray Client)", out)
    assert "$RAY_ADDRESS" in line
    refused(capsys, ["inspect", warc, "--json", str(js)], "ray:// addresses (Ray Client)", js)


@pytest.mark.parametrize("flags, fragment", [
    (["--k", "0"], "k must be a whole number >= 1"),
    (["--threads", "0"], "threads must be a whole number >= 1"),
    (["--mu", "nan"], "mu must be a finite number"),
    (["--mu", "-5"], "mu must be > 0"),
    (["--model", "bm25", "--k1", "inf"], "k1 must be a finite number"),
    (["--model", "bm25", "--b", "nan"], "b must be a finite number"),
    (["--model", "bm25", "--k1", "-1"], "k1 >= 0"),
    (["--rm3", "--fb-terms", "0"], "fb_terms >= 1"),
    (["--rm3", "--original-query-weight", "1.5"], "0 <= original_query_weight <= 1"),
    (["--rm3", "--original-query-weight", "nan"], "original_query_weight must be a finite number"),
    (["--tag", " "], "the run tag is empty"),
])
def test_numeric_search_flags(tmp_path, capsys, flags, fragment):
    (tmp_path / "t.txt").write_text("<top>\n<num> Number: 1\n<title> x\n</top>\n")
    run = tmp_path / "runs" / "run.txt"
    refused(capsys, ["search", "-i", str(tmp_path / "idx"), "-t", str(tmp_path / "t.txt"), "-o", str(run), *flags],
            fragment, run, run.parent)


def test_a_text_file_as_prune_model(tmp_path, capsys, warc):
    out = tmp_path / "out"
    (tmp_path / "m.txt").write_text("this is not a language model\n")
    refused(capsys, ["preprocess", warc, "-o", str(out), "--prune-model", str(tmp_path / "m.txt"),
                     "--max-perplexity", "1000"], "is not a KenLM model (ARPA or binary)", out)
    (tmp_path / "m.arpa").write_text("\\data\\\nngram 1=5\n\n\\1-grams:\n-1.0\t<s>\n")  # an ARPA header, cut short
    refused(capsys, ["preprocess", warc, "-o", str(out), "--prune-model", str(tmp_path / "m.arpa"),
                     "--max-perplexity", "1000"], "is a damaged KenLM model", out)
    cdir = tmp_path / "contrastive"
    cdir.mkdir()
    for name, text in (("contrastive.json", "{}"), ("content.bin", "text"), ("boilerplate.bin", "text"),
                       ("vocab.txt", "a\n")):
        (cdir / name).write_text(text)
    refused(capsys, ["preprocess", warc, "-o", str(out), "--prune-model", str(cdir)],
            "content.bin is not a KenLM model", out)
    refused(capsys, ["lm", "score", str(tmp_path / "m.txt"), "a sentence"], "is not a KenLM model")


def test_a_text_file_as_prune_model_in_the_real_command(tmp_path, warc):
    (tmp_path / "m.txt").write_text("hello world\n")
    proc, _ = real_command(["preprocess", warc, "-o", str(tmp_path / "out"), "--prune-model",
                            str(tmp_path / "m.txt"), "--max-perplexity", "1000"])
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr  # KenLM says nothing
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("flags, fragment", [
    (["--max-perplexity", "nan"], "--max-perplexity nan: give a finite number"),
    (["--max-perplexity", "-5"], "would drop every sentence"),
    (["--max-perplexity", "inf"], "--max-perplexity inf: give a finite number"),
    (["--prune-threshold", "nan"], "--prune-threshold nan: give a finite number"),
    (["--prune-percentile", "nan"], "--prune-percentile nan: give a finite number"),
    (["--max-link-density", "nan"], "--max-link-density nan: give a finite number"),
    (["--max-link-density", "-0.1"], "[0, 1]"),
    (["--page-timeout", "nan"], "give a finite number of seconds >= 0"),
    (["--page-timeout", "-1"], "give a finite number of seconds >= 0"),
    (["--max-retries", "-1"], "give a whole number >= 0"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--batch-size", "0"], "--batch-size must be at least 1"),
    (["--max-bytes", "0"], "must be positive"),
    (["--address", ""], "--address is empty"),
    (["--prune-model", ""], "--prune-model is empty"),
])
def test_numbers_and_strings_of_preprocess(tmp_path, capsys, warc, flags, fragment):
    (tmp_path / "m.txt").write_text("x")
    needs_model = flags[0] in ("--max-perplexity", "--prune-threshold", "--prune-percentile")
    model = ["--prune-model", str(tmp_path / "m.txt")] if needs_model else []
    out = tmp_path / "out"
    refused(capsys, ["preprocess", warc, "-o", str(out), "--local", *model, *flags], fragment, out)


@pytest.mark.parametrize("argv, fragment", [
    (["preprocess", "{warc}", "-o", ""], "argument --output/-o: an empty path"),
    (["index", "{dir}/coll", "-i", ""], "argument --index/-i: an empty path"),
    (["index", "", "-i", "{dir}/idx"], "argument collection: an empty path"),
    (["search", "-i", "{dir}/idx", "-t", "{dir}/t.txt", "-o", ""], "argument --output/-o: an empty path"),
    (["eval", "-q", "{dir}/qrels.txt", "{dir}/run.txt", "--json", ""], "argument --json: an empty path"),
    (["lm", "train", "{dir}/qrels.txt", "-o", ""], "argument --output/-o: an empty path"),
    (["inspect", "{warc}", "--json", " "], "argument --json: an empty path"),
    (["run", "{dir}/c.toml", "-o", ""], "argument --output/-o: an empty path"),
    (["inspect", "{warc}", "--sample", "-1"], "argument --sample: -1: give a whole number >= 1"),
    (["inspect", "{warc}", "--sample", "0"], "argument --sample: 0: give a whole number >= 1"),
    (["inspect", "{warc}", "--workers", "0"], "argument --workers: 0: give a whole number >= 1"),
    (["index", "{dir}/coll", "-i", "{dir}/idx", "--threads", "0"], "threads must be a whole number >= 1"),
    (["lm", "train", "{dir}/qrels.txt", "-o", "{dir}/m.bin", "--order", "7"], "invalid choice"),
    (["lm", "train", "{dir}/qrels.txt", "-o", "{dir}/m.bin", "--prune", "0", "-1"], "give a whole number >= 0"),
    (["lm", "train", "{dir}/qrels.txt", "-o", "{dir}/m.bin", "--memory", "lots"], "a share of RAM such as 10%"),
    (["lm", "train-crawl", "{warc}", "-o", "{dir}/m", "--max-link-density", "nan"], "give a finite number"),
    (["lm", "train-crawl", "{warc}", "-o", "{dir}/m", "--sample-docs", "-1"], "give a whole number >= 0"),
    (["lm", "train-crawl", "{warc}", "-o", "{dir}/m", "--min-word-count", "0"], "give a whole number >= 1"),
    (["example", "-o", "{dir}/ex", "--workers", "0"], "give a whole number >= 1"),
])
def test_other_subcommands(files, capsys, warc, argv, fragment):
    (files / "coll").mkdir()
    (files / "coll" / "a.jsonl").write_text('{"id": "a", "contents": "x"}\n')
    (files / "t.txt").write_text("<top>\n<num> Number: 1\n<title> x\n</top>\n")
    argv = [a.replace("{dir}", str(files)).replace("{warc}", warc) for a in argv]
    before = sorted(p.name for p in files.iterdir())
    refused(capsys, argv, fragment)
    assert sorted(p.name for p in files.iterdir()) == before  # nothing written beside the inputs


@pytest.mark.parametrize("qrels, run, fragment", [
    (QRELS, "1 Q0 d1 1 2.0\n", "bad.txt:1: a run line has 6 columns"),
    (QRELS, "1 Q0 d1 1 2.0 t extra\n", "this one has 7"),
    (QRELS, "1 Q0 d1 1 2.0 t\n1 Q0 d2 2 1.0 t\n1 Q0 d1 3 0.5 t\n", "bad.txt:3: topic 1 ranks document d1 twice "
                                                                   "(also at line 1)"),
    ("1 0 d1 1\n1 0 d2 0\n1 0 d1 2\n", RUN, "qrels.txt:3: topic 1 document d1 is judged 2 here and 1 at line 1"),
    ("1 0 d1 1 0\n", RUN, "qrels.txt:1: a qrels line has 4 columns"),
    ("1 0 d1 1 0 0 0\n", RUN, "this one has 7"),
])
def test_bad_trec_files(files, capsys, qrels, run, fragment):
    (files / "qrels.txt").write_text(qrels)
    (files / "bad.txt").write_text(run)
    js = files / "out" / "e.json"
    refused(capsys, ["eval", "-q", str(files / "qrels.txt"), str(files / "bad.txt"), "--json", str(js)], fragment,
            js, js.parent)


def test_a_run_tag_with_spaces_still_makes_six_columns(tmp_path):
    from eval.trec_files import read_run
    from search.qld import write_run

    write_run({"1": [("d1", 2.0), ("d2", 1.0)]}, tmp_path / "r.txt", tag="learned, held out")
    lines = (tmp_path / "r.txt").read_text().splitlines()
    assert lines[0] == "1 Q0 d1 1 2.000000 learned,_held_out" and all(len(l.split()) == 6 for l in lines)
    assert read_run(tmp_path / "r.txt") == {"1": {"d1": 2.0, "d2": 1.0}}


@pytest.mark.parametrize("alpha", ["2", "0", "1", "nan", "-0.05"])
def test_alpha_is_a_significance_level(files, capsys, alpha):
    js = files / "e.json"
    refused(capsys, ["eval", "-q", str(files / "qrels.txt"), str(files / "run.txt"), "--alpha", alpha,
                     "--json", str(js)], "is not a significance level", js)


def test_identical_repeated_judgements_are_counted_once(files, capsys, caplog):
    (files / "q2.txt").write_text(QRELS + "1 0 d1 1\n")
    assert main(["eval", "-q", str(files / "q2.txt"), str(files / "run.txt")]) == 0
    assert "1 judgement(s) repeated with the same grade" in caplog.text
    assert capsys.readouterr().out.startswith("| run |")


def test_every_shared_qrels_file_is_read(files):
    from eval.trec_files import read_qrels

    for folder, name, topics, judged in [("cacm", "qrels.cacm.txt", 52, 796),
                                         ("trec-web-2013", "qrels.web.201-250.txt", 50, 14474),
                                         ("trec-dt-2019", "qrels.decision2019.txt", 50, 22859)]:
        qrels = read_qrels(shared("retrieval", folder, name))
        assert (len(qrels), sum(map(len, qrels.values()))) == (topics, judged)


@pytest.mark.parametrize("config, fragment", [
    ('[search]\nk = 0\n', "[search] k must be >= 1"),
    ('[search]\nthreads = 0\n', "[search] threads must be >= 1"),
    ('[search]\nmu = nan\n', "[search].mu must be a finite number"),
    ('[index]\nthreads = 0\n', "[index] threads must be >= 1"),
    ('[eval]\nalpha = 2.0\n', "[eval] alpha is a significance level"),
    ('[preprocess]\nworkers = 0\n', "--workers must be at least 1"),
    ('[[variants]]\nname = "p"\nmax_link_density = nan\n', "max_link_density must be a finite number"),
])
def test_config_values(files, capsys, config, fragment):
    (files / "c.toml").write_text('[collection]\ninputs = ["x"]\n[topics]\npath = "t"\n[qrels]\npath = "q"\n' + config)
    refused(capsys, ["run", str(files / "c.toml"), "-o", str(files / "res")], fragment, files / "res")


@pytest.mark.slow
def test_more_workers_than_cpus_are_reported_as_the_cpus_used(caplog):
    import ray

    from preprocess.runtime.executor import RayExecutor

    if ray.is_initialized():
        ray.shutdown()
    try:
        ex = RayExecutor(workers=10_000)
        cpus = int(ray.cluster_resources()["CPU"])
        assert ex.workers == cpus == os.cpu_count()
        assert f"--workers 10000: the Ray cluster has {cpus} CPUs" in caplog.text
        ex.close()
    finally:
        ray.shutdown()


@pytest.mark.parametrize("flags, fragment", [(["--limit", "-1"], "argument --limit: -1: give a whole number >= 1"),
                                             (["--limit", "0"], "argument --limit: 0"),
                                             (["--jobs", "0"], "argument --jobs: 0"),
                                             (["--json", ""], "argument --json: an empty path"),
                                             (["--max-link-density", "nan"], "give a finite number")])
def test_eval_cleaning_numbers(tmp_path, capsys, flags, fragment):
    refused(capsys, ["eval-cleaning", "--sets", "cleaneval-dev", *flags], fragment)


@pytest.mark.parametrize("command", [["preprocess", "x", "-o", "y"], ["eval-cleaning", "--sets", "dragnet"]])
def test_a_plugin_that_fails_to_import_is_one_line_and_exit_2(tmp_path, command):
    (tmp_path / "brokenplug.py").write_text("raise RuntimeError('the plugin is broken')\n")
    env = dict(os.environ, WEBPRUNE_PLUGINS="brokenplug, nosuchplug", PYTHONPATH=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", *command], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "'brokenplug'" in proc.stderr and "the plugin is broken" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("failure", ["user error", "bug", "none"])
def test_the_console_command_ends_ray_itself_after_an_error_too(files, capsys, monkeypatch, failure):
    """`webprune` (argv from sys.argv) shuts Ray down before it exits, whatever the command's outcome."""
    import preprocess.runtime.executor
    from webprune import commands

    ended = []
    monkeypatch.setattr(preprocess.runtime.executor, "shutdown_ray_at_exit", lambda: ended.append(True))
    if failure == "bug":
        monkeypatch.setattr(commands, "cmd_eval", lambda a: 1 / 0)
    metric = "FOO" if failure == "user error" else "P@1"
    monkeypatch.setattr(sys, "argv", ["webprune", "eval", "-q", str(files / "qrels.txt"), str(files / "run.txt"),
                                      "--metrics", metric])
    code = main()
    assert (code, ended) == ({"user error": 2, "bug": 1, "none": 0}[failure], [True]), capsys.readouterr().err


@pytest.mark.parametrize("failure", ["user error", "interrupt"])
def test_the_console_commands_last_line_is_its_own_whatever_rays_shutdown_prints(files, capfd, monkeypatch, failure):
    """Ray is ended before the error's (or interruption's) line, and what its shutdown writes to file descriptor 2
    (the driver's core worker, C++) is not shown: a stand-in Ray writes there as it shuts down."""
    import types

    from webprune import commands

    def noisy_shutdown():
        os.write(2, b"task_manager.cc:1545: Failed to push error to driver for task ...\n")
        print("(raylet) worker exiting", file=sys.stderr)
        fake.up = False
    fake = types.SimpleNamespace(up=True, shutdown=noisy_shutdown)
    fake.is_initialized = lambda: fake.up
    monkeypatch.setitem(sys.modules, "ray", fake)
    if failure == "interrupt":
        def interrupted(a):
            raise KeyboardInterrupt
        monkeypatch.setattr(commands, "cmd_eval", interrupted)
    monkeypatch.setattr(sys, "argv", ["webprune", "eval", "-q", str(files / "qrels.txt"), str(files / "run.txt"),
                                      "--metrics", "FOO" if failure == "user error" else "P@1"])
    code = main()
    err = capfd.readouterr().err
    assert not fake.up and "task_manager" not in err and "raylet" not in err, err
    assert err.strip().splitlines()[-1].startswith("webprune eval: " + ("error" if failure == "user error" else
                                                                        "interrupted")), err
    assert code == (2 if failure == "user error" else 130), err
    print("after", file=sys.stderr)  # the descriptor is back
    assert capfd.readouterr().err == "after\n"


def test_stderr_is_silenced_only_in_the_block_and_a_closed_one_is_no_error(capfd):
    from preprocess.runtime.executor import _stderr_silenced

    with _stderr_silenced():
        os.write(2, b"from C\n")
        print("from Python", file=sys.stderr)
    print("after", file=sys.stderr)
    assert capfd.readouterr().err == "after\n"
    saved = os.dup(2)
    try:
        os.close(2)
        with _stderr_silenced():
            pass
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def test_eval_cleaning_with_an_unknown_tool_says_so_in_one_line(capsys):
    from eval.cleaning.cli import main as eval_cleaning

    with pytest.raises(SystemExit) as exc:
        eval_cleaning(["--tools", "nosuchtool", "--sets", "cleaneval-dev", "--limit", "1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown tool 'nosuchtool'" in err[0]
