"""The front door (issue 26): README and docs/ tables generated from committed result files, every config with
expected values, links that resolve, and a README a newcomer can read."""
import importlib.util
import re
import tomllib

import pytest

from tests.conftest import ROOT

_spec = importlib.util.spec_from_file_location("render_docs", ROOT / "scripts" / "tools" / "render_docs.py")
render_docs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(render_docs)
CONFIGS = sorted(p for p in (ROOT / "configs").glob("*.toml") if not p.name.startswith("."))


@pytest.mark.parametrize("page", render_docs.PAGES, ids=lambda p: p.name)
def test_generated_tables_equal_what_their_result_files_give(page):
    text = page.read_text(encoding="utf-8")
    assert render_docs.stale(text) == [], f"run: python scripts/tools/render_docs.py ({page.name} is stale)"


def test_a_changed_number_or_result_file_is_caught(tmp_path, monkeypatch):
    text = (ROOT / "docs" / "cleaning.md").read_text(encoding="utf-8")
    assert "<!-- table:cleaning all-sets -->" in text
    body = text.split("<!-- table:cleaning all-sets -->\n")[1].split("<!-- /table -->")[0]
    cell = re.search(r"\| (\d+\.\d) \(", body).group(1)
    edited = text.replace(f"| {cell} (", f"| {float(cell) + 0.1:.1f} (", 1)
    assert render_docs.stale(edited) == ["cleaning all-sets"]
    # the other way round: a result file that changed makes the committed page stale
    results = tmp_path / "results"
    (results / "cleaning").mkdir(parents=True)
    data = (render_docs.RESULTS / "cleaning" / "all-sets.json").read_text()
    (results / "cleaning" / "all-sets.json").write_text(_bump_first_f1(data))
    monkeypatch.setattr(render_docs, "RESULTS", results)
    assert render_docs.stale(text) == ["cleaning all-sets"]
    assert render_docs.stale(render_docs.render(text)) == []


def _bump_first_f1(data: str) -> str:
    import json

    d = json.loads(data)
    tool = next(iter(d["summary"]))
    first = next(iter(d["summary"][tool]))
    d["summary"][tool][first]["f1"] += 1.0
    return json.dumps(d)


def test_unknown_table_kinds_and_tools_are_refused():
    with pytest.raises(ValueError, match="unknown table kind 'speed'"):
        render_docs.render("<!-- table:speed x -->\n<!-- /table -->")
    with pytest.raises(ValueError, match="no tool nosuch"):
        render_docs.render("<!-- table:cleaning all-sets tools=nosuch -->\n<!-- /table -->")


@pytest.mark.parametrize("config", CONFIGS, ids=lambda p: p.stem)
def test_every_config_variant_carries_expected_values_and_is_documented(config):
    cfg = tomllib.loads(config.read_text())
    missing = [v["name"] for v in cfg["variants"] if not v.get("expect")]
    assert not missing, f"{config.name}: variants without expect: {missing}"
    assert all(0 <= x <= 1 for v in cfg["variants"] for x in v["expect"].values())
    assert f"<!-- table:expect {config.stem} -->" in (ROOT / "docs" / "experiments.md").read_text()


def test_readme_is_short_and_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").split("\n")
    assert len(lines) <= 300
    assert lines[:10] == ["# webprune", "", "```bash", "bash scripts/setup.sh && .venv/bin/webprune example", "```",
                          "", "```bash", "bash scripts/setup.sh --test && .venv/bin/python -m pytest -q", "```", ""]
    assert "bash scripts/setup.sh --test && .venv/bin/python -m pytest -q" in (ROOT / ".ci" / "run").read_text()


def _anchors(page) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation out, spaces to hyphens."""
    heads = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


@pytest.mark.parametrize("page", render_docs.PAGES, ids=lambda p: p.name)
def test_relative_links_and_their_anchors_resolve(page):
    text = page.read_text(encoding="utf-8")
    for target, anchor in re.findall(r"\]\((?!https?://)([^)#\s]*)(?:#([^)]*))?\)", text):
        dest = page.parent / target if target else page
        assert dest.exists(), f"{page.name}: link to {target} does not resolve"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{page.name}: no heading #{anchor} in {dest.name}"


def test_the_configs_said_to_be_checked_in_ci_are():
    tests = (ROOT / "tests" / "test_end_to_end.py").read_text()
    assert render_docs.CI_CHECKED == ("example", "cacm")
    assert '"run", str(ROOT / "configs" / "cacm.toml")' in tests and '"--check"' in tests
    assert '"example", "-o"' in tests and 'all(c["ok"] for c in summary["checks"])' in tests


def test_generated_labels_and_commands_name_no_run_folder():
    """A held-out model's folder is the run's own (its result file keeps it): labels say "held out", and the
    command names the folder by $HELD_OUT, set to where train_learned.py --loso writes."""
    table = render_docs.cleaning_table("all-sets")
    assert "held out" in table and "build/learned" not in table
    command = render_docs.cleaning_command("all-sets")
    assert "$HELD_OUT/{set}.json" in command and command.count("build/learned/") == 1
    types = render_docs.page_types_table("all-sets", tools="learned@held-out,trafilatura")
    assert types.split("\n")[0] == "| tool | all | article | documentation | service | forum | collection | listing | product |"
