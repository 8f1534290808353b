"""The file of expected cleaning figures that ``webprune eval-cleaning --check FILE`` compares a run with
(:mod:`eval.cleaning.check`): read, every key checked, and written again with a run's figures (``--write-check``).

It is TOML (``configs/cleaning/check.toml``)::

    command = "webprune eval-cleaning --write-check configs/cleaning/check.toml"   # what wrote [expect]

    [run]                       # by hand: webprune's tools, and which pages of each set
    tools = ["webprune/tags", "webprune/learned"]

    [run.sets]                  # by hand: per set, its pages and the metrics checked on them
    dragnet = { first = 50, metrics = ["f1"] }                # the set's first 50 pages that have gold text
    wcxb-dev = { per_type = 8, metrics = ["f1", "bow_f1"] }   # the first 8 of each WCXB page type

    [tolerance]                 # by hand: per metric, in points (x100)
    f1 = 0.0001

    [expect."webprune/tags"]    # written by --write-check: the run's macro means per set (x100), 4 decimals
    dragnet = { f1 = 46.1234 }

The metrics are the quality figures of a set's aggregate (``eval.report.cleaning_tables.aggregate``): ``f1``,
``precision``, ``recall`` (exact word LCS), ``bow_f1``, ``bow_precision``, ``bow_recall`` (WCXB's bags of words)
and ``cleaneval``. Speed (docs/s, CPU s) is never checked: it varies from run to run; nor are the peers, whose
figures move with their versions. The run is eval-cleaning's own (:mod:`eval.cleaning.runs`) with its defaults.
"""
from __future__ import annotations

import math
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from eval.cleaning.gold import SETS
from eval.cleaning.harness import WP_PREFIX, scoring_settings, tool_options
from preprocess.config.params import closest

QUALITY = ("f1", "precision", "recall", "bow_f1", "bow_precision", "bow_recall", "cleaneval")
SPEED = ("docs_per_s", "cpu_s")
DECIMALS = 4  # of the values --write-check writes
ROOT = Path(__file__).resolve().parents[2]  # the project: the file's name in its `command` is relative to it
HEADER = """\
# Expected cleaning figures: webprune's own cleaners on a fixed slice of the gold sets of ../shared/data/cleaning
# (each key: eval/cleaning/check_file.py; tests/test_cleaning_check.py runs the check in CI).
#   check:  webprune eval-cleaning --check {name}
#   update: {command}
# [run] and [tolerance] are written by hand; [expect] and [versions] by the update command, which keeps the rest.
# The run is deterministic for webprune's own cleaners: with --jobs 1 or 2, compiled or WEBPRUNE_PURE_PYTHON=1,
# it gave the same figures to the last bit. A tolerance only absorbs the rounding of [expect] to {decimals}
# decimals (at most 0.00005 points); one word more or less on one page moves a set's mean by more, as a rule.
"""


@dataclass(frozen=True)
class CheckFile:
    path: Path
    tools: list[str]
    sets: dict[str, dict]                     # set -> {"first" or "per_type": N, "metrics": [...]}
    tolerance: dict[str, float]               # metric -> points
    expect: dict[str, dict[str, dict]]        # tool -> set -> metric -> expected value


def _count(value, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{where} must be a whole number >= 1, not {value!r}")
    return value


def _number(value, where: str, low: float | None = None) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or \
            (low is not None and value < low):
        raise ValueError(f"{where} must be a finite number{f' >= {low:g}' if low is not None else ''}, not {value!r}")
    return float(value)


def _table(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a table, not {type(value).__name__}")
    return value


def _keys(table: dict, valid, where: str) -> None:
    for key in table:
        if key not in valid:
            raise ValueError(f"{where}: unknown key {key!r}{closest(key, valid)}")


def _metric(name, where: str) -> str:
    if name in SPEED:
        raise ValueError(f"{where}: {name} is speed, which is never checked (it varies from run to run)")
    if name not in QUALITY:
        raise ValueError(f"{where}: unknown metric {name!r}{closest(str(name), QUALITY)}; choose from "
                         f"{', '.join(QUALITY)}")
    return name


def _set(name: str, spec, where: str) -> dict:
    if name not in SETS:
        raise ValueError(f"{where}: unknown set {name!r}{closest(name, SETS)}; choose from {', '.join(SETS)}")
    spec = _table(spec, where)
    _keys(spec, ("first", "per_type", "metrics"), where)
    if ("first" in spec) == ("per_type" in spec):
        raise ValueError(f"{where} needs one of first = N (the first N pages) or per_type = N (the first N of "
                         "each WCXB page type)")
    if "per_type" in spec and SETS[name] != "wcxb":
        raise ValueError(f"{where}: per_type needs a set with page types (wcxb-dev); use first = N")
    metrics = spec.get("metrics")
    if not isinstance(metrics, list) or not metrics:
        raise ValueError(f"{where} needs metrics = [...], a non-empty list such as [\"f1\"]")
    return {k: _count(v, f"{where}.{k}") for k, v in spec.items() if k != "metrics"} | {
        "metrics": list(dict.fromkeys(_metric(m, f"{where}.metrics") for m in metrics))}


def parse(data: dict, path: Path, with_expect: bool = True) -> CheckFile:
    """A check file's contents, every key checked (ValueError saying what to fix); ``with_expect=False``: [expect]
    may be missing or stale (what --write-check replaces)."""
    _keys(data, ("command", "run", "tolerance", "versions", "expect"), "check file")
    run = _table(data.get("run", {}), "[run]")
    _keys(run, ("tools", "sets"), "[run]")
    tools = run.get("tools")
    if not isinstance(tools, list) or not tools or not all(isinstance(t, str) for t in tools):
        raise ValueError('[run] needs tools = ["webprune/tags", ...], a non-empty list of tool ids')
    for t in tools:
        if not t.startswith(WP_PREFIX):
            raise ValueError(f"[run] tools: {t!r} is not a webprune tool (webprune/<spec>); peers are not checked, "
                             "their figures move with their versions")
        try:
            tool_options(t, scoring_settings())  # an unknown cleaner or step
        except ValueError as exc:
            raise ValueError(f"[run] tools: {t}: {exc}") from None
    if len(set(tools)) != len(tools):
        raise ValueError(f"[run] tools: a tool is named twice in {tools}")
    sets = {s: _set(s, v, f"[run.sets] {s}") for s, v in _table(run.get("sets", {}), "[run.sets]").items()}
    if not sets:
        raise ValueError('[run.sets] is empty: name a set, e.g. dragnet = { first = 50, metrics = ["f1"] }')
    checked = list(dict.fromkeys(m for s in sets.values() for m in s["metrics"]))
    tol = _table(data.get("tolerance", {}), "[tolerance]")
    for m in tol:
        if m not in checked:
            raise ValueError(f"[tolerance] {m}: no set checks {m!r} (checked: {', '.join(checked)})"
                             f"{closest(m, checked)}")
    for m in checked:
        if m not in tol:
            raise ValueError(f"[tolerance] has no {m}: give its tolerance in points, e.g. {m} = 0.0001")
    tolerance = {m: _number(tol[m], f"[tolerance] {m}", low=0) for m in checked}
    expect = _expect(data.get("expect", {}), tools, sets) if with_expect else {}
    return CheckFile(path=path, tools=tools, sets=sets, tolerance=tolerance, expect=expect)


def _expect(data, tools: list[str], sets: dict) -> dict:
    data = _table(data, "[expect]")
    update = "run: webprune eval-cleaning --write-check FILE"
    _keys(data, tools, "[expect] (tools of [run])")
    out = {}
    for t in tools:
        if t not in data:
            raise ValueError(f'[expect."{t}"] is missing ({update})')
        per_set = _table(data[t], f'[expect."{t}"]')
        _keys(per_set, sets, f'[expect."{t}"] (sets of [run.sets])')
        out[t] = {}
        for s, spec in sets.items():
            where = f'[expect."{t}"] {s}'
            got = _table(per_set.get(s, {}), where)
            for m in got:
                if _metric(m, where) not in spec["metrics"]:
                    raise ValueError(f"{where}: {m} is not checked on {s} ([run.sets] {s} names "
                                     f"{', '.join(spec['metrics'])})")
            if missing := [m for m in spec["metrics"] if m not in got]:
                raise ValueError(f"{where}: no {', '.join(missing)} ({update})")
            out[t][s] = {m: _number(got[m], f"{where}.{m}") for m in spec["metrics"]}
    return out


def load(path: str | Path, with_expect: bool = True) -> CheckFile:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such check file") from None
    except IsADirectoryError:
        raise ValueError(f"{path} is a folder; give a check file such as configs/cleaning/check.toml") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not valid TOML ({str(exc).splitlines()[0]})") from None
    try:
        return parse(data, path, with_expect)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dump(check: CheckFile, summary: dict, versions: dict) -> str:
    """The file ``--write-check`` writes: [run] and [tolerance] as they were, [expect] from ``summary``."""
    name = display_name(check.path)
    command = f"webprune eval-cleaning --write-check {name}"
    lines = [HEADER.format(name=name, command=command, decimals=DECIMALS), f"command = {_str(command)}", "",
             "[run]", "tools = [", *(f"  {_str(t)}," for t in check.tools), "]", "",
             "[run.sets]  # first = N: the first N pages with gold text; per_type = N: the first N of each page type"]
    for s, spec in check.sets.items():
        pick = ", ".join(f"{k} = {spec[k]}" for k in ("first", "per_type") if k in spec)
        lines.append(f"{_key(s)} = {{ {pick}, metrics = [{', '.join(_str(m) for m in spec['metrics'])}] }}")
    lines += ["", "[tolerance]  # points (x100), per metric"]
    lines += [f"{m} = {tol!r}" for m, tol in check.tolerance.items()]
    lines += ["", "[versions]  # of the run that wrote [expect]"]
    lines += [f"{_key(k)} = {_str(str(v))}" for k, v in versions.items()]
    for t in check.tools:
        lines += ["", f"[expect.{_key(t)}]"]
        for s, spec in check.sets.items():
            cells = ", ".join(f"{m} = {summary[t][s][m]:.{DECIMALS}f}" for m in spec["metrics"])
            lines.append(f"{_key(s)} = {{ {cells} }}")
    return "\n".join(lines) + "\n"


def display_name(path: Path) -> str:
    """The file's name relative to the project when it lies inside it (as the committed file records it)."""
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def write(check: CheckFile, summary: dict, versions: dict) -> None:
    """Replace the check file (already read as one, so never someone else's file) in one rename."""
    tmp = check.path.with_name(f".{check.path.name}.{os.getpid()}.tmp")
    tmp.write_text(dump(check, summary, versions), encoding="utf-8")
    os.replace(tmp, check.path)
