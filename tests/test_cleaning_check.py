"""`webprune eval-cleaning --check FILE`: cleaning quality against committed figures with tolerances
(configs/cleaning/check.toml), `--write-check FILE` to write them from a run, and one line, exit 2, for a bad file."""
import json
import re
import tomllib

import pytest

from eval.cleaning.check_file import SPEED
from eval.cleaning.gold import PAGE_TYPES, first_pages, gold_pages
from tests.conftest import ROOT, shared
from webprune.cli import main

CHECK = ROOT / "configs" / "cleaning" / "check.toml"
SMALL = """\
[run]
tools = ["webprune/tags", "webprune/learned+hints+links"]

[run.sets]
cleaneval-dev = { first = 3, metrics = ["f1"] }
wcxb-dev = { per_type = 1, metrics = ["f1", "bow_f1"] }

[tolerance]
f1 = 0.0001
bow_f1 = 0.5
"""


def code_of(argv) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # eval-cleaning's own parser exits as argparse does
        return exc.code


def result_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(("OK ", "FAIL "))]


@pytest.mark.slow
def test_the_committed_check_passes(capsys):
    cfg = tomllib.loads(CHECK.read_text())
    assert code_of(["eval-cleaning", "--check", str(CHECK), "--jobs", "2", "--shared", str(shared())]) == 0
    lines = result_lines(capsys.readouterr().out)
    want = len(cfg["run"]["tools"]) * sum(len(s["metrics"]) for s in cfg["run"]["sets"].values())
    assert len(lines) == want and all(line.startswith("OK   ") for line in lines), lines


def test_the_committed_check_covers_what_it_says():
    """The CI set: webprune's shipped cleaners on three classic sets and every WCXB page type, no speed figure."""
    cfg = tomllib.loads(CHECK.read_text())
    tools, sets = cfg["run"]["tools"], cfg["run"]["sets"]
    assert {"webprune/tags", "webprune/learned", "webprune/learned+hints+links"} <= set(tools)
    assert all(t.startswith("webprune/") and "learned_model" not in t for t in tools)  # shipped model, no peers
    assert len([s for s in sets if s != "wcxb-dev"]) >= 2 and all("f1" in s["metrics"] for s in sets.values())
    assert "bow_f1" in sets["wcxb-dev"]["metrics"]
    picked = first_pages(gold_pages(shared(), ["wcxb-dev"]), per_type=sets["wcxb-dev"]["per_type"])
    assert {p.page_type for p in picked} == set(PAGE_TYPES)
    checked = {m for s in sets.values() for m in s["metrics"]} | set(cfg["tolerance"])
    assert not checked & set(SPEED) and "docs_per_s" not in CHECK.read_text()
    assert cfg["command"] == "webprune eval-cleaning --write-check configs/cleaning/check.toml"
    assert all(0 < tol <= 0.0001 for tol in cfg["tolerance"].values())  # the runs are deterministic


def test_first_pages_picks_the_first_of_each_page_type():
    pages = gold_pages(shared(), ["wcxb-dev"])
    two = first_pages(pages, per_type=2)
    assert len(two) == 2 * len(PAGE_TYPES)
    for kind in PAGE_TYPES:
        assert [p.name for p in two if p.page_type == kind] == [p.name for p in pages if p.page_type == kind][:2]
    assert [p.name for p in two] == [p.name for p in pages if p in two]  # in the set's order
    assert first_pages(pages, first=5) == pages[:5] and first_pages(pages) == pages


@pytest.mark.slow
def test_write_check_then_check_and_a_wrong_value_fails(tmp_path, capsys):
    path, run = tmp_path / "check.toml", tmp_path / "run.json"
    path.write_text(SMALL)
    data = str(shared())
    assert code_of(["eval-cleaning", "--write-check", str(path), "--shared", data, "--json", str(run)]) == 0
    written = tomllib.loads(path.read_text())
    assert written["run"] == tomllib.loads(SMALL)["run"] and written["tolerance"] == {"f1": 0.0001, "bow_f1": 0.5}
    assert written["command"] == f"webprune eval-cleaning --write-check {path}"
    got = json.loads(run.read_text())["summary"]["webprune/tags"]["cleaneval-dev"]["f1"]  # to the last bit
    line = f"cleaneval-dev = {{ f1 = {got:.4f} }}"
    assert 0 < got < 100 and line in path.read_text()
    capsys.readouterr()
    assert code_of(["eval-cleaning", "--check", str(path), "--shared", data]) == 0
    lines = result_lines(capsys.readouterr().out)
    assert len(lines) == 2 * 3 and all(x.startswith("OK   ") for x in lines), lines

    text = path.read_text()
    for shift, code in ((0.00009, 0), (-0.00009, 0), (0.0002, 1)):  # inside the tolerance of 0.0001, then outside
        path.write_text(text.replace(line, f"cleaneval-dev = {{ f1 = {got + shift:.8f} }}", 1))
        assert code_of(["eval-cleaning", "--check", str(path), "--shared", data]) == code
        lines = result_lines(capsys.readouterr().out)
        fails = [x for x in lines if x.startswith("FAIL")]
        assert len(lines) == 6 and len(fails) == (code == 1), lines
    assert fails == [f"FAIL webprune/tags cleaneval-dev f1: {got:.4f} (expected {got + 0.0002:.4f} ± 0.0001)"]


@pytest.mark.parametrize("edit, fragment", [
    (lambda t: t.replace("f1 = 0.0001", 'f1 = "small"'), "[tolerance] f1 must be a finite number >= 0"),
    (lambda t: t.replace("f1 = 0.0001", "f1 = -0.1"), "[tolerance] f1 must be a finite number >= 0"),
    (lambda t: t.replace("bow_f1 = 0.5\n", ""), "[tolerance] has no bow_f1"),
    (lambda t: t.replace("cleaneval-dev =", "cleaneval-deve ="), "unknown set 'cleaneval-deve' (did you mean"),
    (lambda t: t.replace('"f1", "bow_f1"', '"f1", "bow_F1"'), "unknown metric 'bow_F1' (did you mean 'bow_f1'?)"),
    (lambda t: t.replace('"f1", "bow_f1"', '"f1", "docs_per_s"'), "docs_per_s is speed, which is never checked"),
    (lambda t: t.replace("first = 3", "first = 0"), "cleaneval-dev.first must be a whole number >= 1"),
    (lambda t: t.replace("first = 3", "per_type = 3"), "per_type needs a set with page types"),
    (lambda t: t.replace('"webprune/tags"', '"trafilatura"'), "'trafilatura' is not a webprune tool"),
    (lambda t: t.replace('"webprune/tags"', '"webprune/tagz"'), "unknown cleaner 'tagz'"),
    (lambda t: t.replace("[run.sets]", "[run.sets"), "not valid TOML"),
    (lambda t: t + "\n[expect]\n", '[expect."webprune/tags"] is missing'),
    (lambda t: t + '\n[expect."webprune/tags"]\ncleaneval-dev = { f1 = 80.0 }\n', "wcxb-dev: no f1, bow_f1"),
    (lambda t: t + '\n[expect."webprune/tags"]\ncleaneval-dev = { f1 = 80.0, bow_f1 = 80.0 }\n',
     "bow_f1 is not checked on cleaneval-dev"),
])
def test_a_malformed_check_file_is_one_line_and_exit_2(tmp_path, capsys, edit, fragment):
    path = tmp_path / "check.toml"
    path.write_text(edit(SMALL))
    assert code_of(["eval-cleaning", "--check", str(path), "--shared", str(tmp_path)]) == 2  # read before any page
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and "Traceback" not in err[0] and fragment in err[0], err
    assert err[0].startswith(f"webprune eval-cleaning: error: {path}: ")


@pytest.mark.parametrize("argv, fragment", [
    (["--check", "nosuch.toml"], "nosuch.toml: no such check file"),
    (["--check", str(CHECK), "--tools", "tags", "--limit", "3"], "--check runs what its file says: leave out --limit, "
                                                                 "--tools"),
    (["--write-check", str(CHECK), "--max-link-density", "0.3"], "leave out --max-link-density"),
    (["--check", str(CHECK), "--write-check", str(CHECK)], "not allowed with argument --check"),
])
def test_check_flags_are_refused_in_one_line(tmp_path, capsys, argv, fragment):
    before = CHECK.read_bytes()
    assert code_of(["eval-cleaning", *argv]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and fragment in err[0], err
    assert CHECK.read_bytes() == before  # a refused --write-check wrote nothing


def test_the_check_is_documented():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"^\| `webprune eval-cleaning [^|]*\[--check FILE\]` \|", readme, flags=re.M)
    page = (ROOT / "docs" / "cleaning.md").read_text(encoding="utf-8")
    assert "<!-- table:cleaning-check check -->" in page  # what it checks, generated from the file (test_docs)
    assert "webprune eval-cleaning --check configs/cleaning/check.toml" in page
    assert "webprune eval-cleaning --write-check configs/cleaning/check.toml" in page
