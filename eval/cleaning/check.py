"""``webprune eval-cleaning --check FILE``: run the tools and pages a check file names (``configs/cleaning/check.toml``,
its format: :mod:`eval.cleaning.check_file`) and compare each set's figures with the file's expected values, as
``webprune run --check`` compares a config's ``expect`` values: an OK or FAIL line each, exit 1 on a FAIL.
``--write-check FILE`` runs the same and writes the figures into FILE as its expected values.
"""
from __future__ import annotations

import sys
from pathlib import Path

from eval.cleaning.check_file import DECIMALS, CheckFile, load, write
from eval.cleaning.gold import first_pages, gold_pages
from eval.cleaning.harness import scoring_settings


def pages_of(check: CheckFile, shared: Path) -> list:
    """The pages the file names, set by set, in [run.sets]'s order."""
    pages = []
    for s, spec in check.sets.items():
        mine = first_pages(gold_pages(shared, [s]), spec.get("first"), spec.get("per_type"))
        if not mine:
            raise ValueError(f"{check.path}: [run.sets] {s}: no pages with gold text under {shared}/cleaning/{s}")
        pages += mine
    return pages


def compare(check: CheckFile, summary: dict) -> list[dict]:
    """Each expected value against the run's (``summary``: tool -> set -> aggregate): tool, set, metric,
    expected, got, tolerance, ok."""
    return [{"tool": t, "set": s, "metric": m, "expected": want, "got": summary[t][s][m],
             "tolerance": check.tolerance[m], "ok": abs(summary[t][s][m] - want) <= check.tolerance[m]}
            for t, per_set in check.expect.items() for s, metrics in per_set.items() for m, want in metrics.items()]


def check_lines(checks: list[dict]) -> list[str]:
    """``OK   tool set metric: got (expected X ± tol)``, ``FAIL ...``: as ``webprune run --check`` prints them."""
    return [f"{'OK  ' if c['ok'] else 'FAIL'} {c['tool']} {c['set']} {c['metric']}: {c['got']:.{DECIMALS}f} "
            f"(expected {c['expected']:.{DECIMALS}f} ± {c['tolerance']:g})" for c in checks]


def run_check(args, ap, refused: list[str]) -> int:
    """``--check FILE`` / ``--write-check FILE`` of ``webprune eval-cleaning``'s parsed ``args``: run what the file
    says, then compare (0: all OK, 1: a FAIL) or write; a bad file or flag: ``ap.error`` (one line, exit 2)."""
    from eval.cleaning.runs import prepare, run_tools, tables, write_json
    from eval.report.cleaning_tables import _versions

    flag = "--check" if args.check else "--write-check"
    if refused:
        ap.error(f"{flag} runs what its file says: leave out {', '.join(refused)}")
    try:
        check = load(args.check or args.write_check, with_expect=bool(args.check))
        if not (args.shared / "cleaning").is_dir():
            raise ValueError(f"no cleaning data under {args.shared}")
        pages = pages_of(check, args.shared)
        sets = list(check.sets)
        settings = scoring_settings(sets=sets) | {"with_title": False}
        prepare(check.tools, pages, settings)
    except ValueError as exc:
        ap.error(str(exc).replace("\n", " "))
    result = run_tools(check.tools, pages, sets, settings, args.jobs, args.timeout, keep_wrapper=False)
    print(tables(result, sets, check.tools))
    if args.json:
        write_json(args.json, {"check": str(check.path), "sets": sets, "tools": check.tools, "jobs": args.jobs,
                               "timeout": args.timeout, "shared": str(args.shared), "settings": settings},
                   result, check.tools)
    if args.write_check:
        bad = sum(r["status"] != "ok" for r in result["pages"])
        if bad:
            print(f"\n--write-check: {bad} page(s) errored or timed out; {check.path} not written", file=sys.stderr)
            return 1
        write(check, result["summary"], _versions(check.tools))
        n = sum(len(spec["metrics"]) for spec in check.sets.values()) * len(check.tools)
        print(f"\nwrote {n} expected values to {check.path}", file=sys.stderr)
        return 0
    if bad := sum(r["status"] != "ok" for r in result["pages"]):
        print(f"\n{bad} page(s) errored or timed out (scored as empty text): see the lines per tool above",
              file=sys.stderr)
    checks = compare(check, result["summary"])
    print()
    for line in check_lines(checks):
        print(line)
    return 0 if all(c["ok"] for c in checks) else 1
