"""``webprune eval-cleaning``: webprune's cleaners and peer extractors against human gold text, side by side.

    webprune eval-cleaning [--sets cleaneval-final,dragnet] [--limit 50] [--jobs 1|2] [--json OUT]
        [--tools tags,webprune/density+hints+links(0.5)+prune(adjusted,p=25),readability,peers,...]
    webprune eval-cleaning --check FILE | --write-check FILE [--jobs 2]

Tools: ``webprune/<spec>`` for any cleaning spec (``preprocess.config.spec``: a cleaner,
then ``+hints``, ``+links(X)``, ``+kitten``/``+nokitten``, ``+prune(...)``), a bare
cleaner name, a peer of ``eval/cleaning/peers.py`` (install them with
``pip install -e '.[bench]'``), ``webprune`` (every cleaner) or ``peers``.
``--max-link-density``, ``--prune-model``, ``--prune-percentile`` ... fill what a spec
leaves open (bare ``+links``, bare ``+prune``).

Pages: the first ``--limit`` pages of each of ``--sets`` that have gold text; the
CleanEval ``<text id=...>`` wrapper line is removed before any tool sees a page
(``--keep-wrapper`` keeps it). How pages are cleaned and timed:
``eval/cleaning/harness.py``. What is scored: each tool's main text -- for webprune
the record's ``contents`` without the ``<title>`` line put before it for indexing
(``--with-title`` scores ``contents`` as indexed); word precision / recall / F1 on an
exact word LCS, the CleanEval score and WCXB's bag-of-words P/R/F1
(``eval/cleaning/score.py``), macro mean per set, x100. Prints one table per set, a
summary (cell = "F1 (docs/s/core)", best per set in bold, last row the best peer)
and, for ``wcxb-dev``, tables per page type; ``--json`` adds per-page scores.

``--check FILE`` runs the tools and pages a check file names (``configs/cleaning/check.toml``) and compares
each set's figures with its expected values, an OK or FAIL line each (exit 1 on a FAIL); ``--write-check FILE``
writes a run's figures into it (``eval/cleaning/check.py``).
"""
from __future__ import annotations

import dataclasses
import importlib.util
import re
import sys
from pathlib import Path

from eval.cleaning.gold import SETS, gold_pages, shared_root
from eval.cleaning.harness import WP_PREFIX, scoring_params, scoring_settings
from eval.cleaning.runs import prepare, run_tools, tables, write_json
from preprocess.folder.owned import check_outputs

PEER_MODULES = {"trafilatura": "trafilatura", "resiliparse": "resiliparse", "justext": "justext",
                "boilerpy3": "boilerpy3", "readability": "readability"}


def resolve_tools(tools_arg: str | None, cleaners: list[str], peers: list[str]) -> list[str]:
    every = [WP_PREFIX + c for c in cleaners] + peers
    if not tools_arg:
        return every
    chosen = []
    for name in (t.strip() for t in re.split(r",(?![^()]*\))", tools_arg)):  # not a comma inside prune(...)
        if not name:
            continue
        if name == "webprune":
            picks = [WP_PREFIX + c for c in cleaners]
        elif name == "peers":
            picks = list(peers)
        elif name in every:
            picks = [name]
        elif name in peers:
            picks = [name]
        elif WP_PREFIX + name in every:
            picks = [WP_PREFIX + name]
        elif "+" in name and name.removeprefix(WP_PREFIX).split("+")[0] in cleaners:
            picks = [WP_PREFIX + name.removeprefix(WP_PREFIX)]
        else:
            raise ValueError(f"unknown tool {name!r}; choose from {', '.join(every)} (or webprune, peers)")
        chosen += [p for p in picks if p not in chosen]
    return chosen


def main(argv: list[str] | None = None) -> int:
    from eval.cleaning.peers import PEERS
    from preprocess.config import options
    from preprocess.config.options import CleanOptions
    from preprocess.config.params import check_values, flag, given
    from preprocess.config.registry import CLEANERS
    from webprune.cli_args import Parser, at_least, path

    ap = Parser(prog="webprune eval-cleaning", description=__doc__.split("\n\n")[0],
                                 epilog="Tool ids, the +steps and what is scored: see eval/cleaning_bench.py.")
    ap.add_argument("--sets", default=None, help=f"comma list (default: {','.join(SETS)})")
    ap.add_argument("--limit", type=at_least(1), default=None, help="first N pages per set (quick runs)")
    ap.add_argument("--cleaners", "--cleaner", default=None,
                    help=f"webprune cleaners, comma list (default: all of CLEANERS = {','.join(CLEANERS)})")
    ap.add_argument("--tools", default=None,
                    help="comma list of tools, e.g. density,webprune/density+links,readability "
                         "(default: all cleaners and the installed peers)")
    # what a bare +links / +prune leaves open: the filters' own declared flags ({set} in a model path: per set)
    options.add_arguments(ap.add_argument_group("filters of the webprune tools (bare +links, +prune; {set} in a "
                                                "model path is replaced by each set's name)"), CleanOptions,
                          only=list(scoring_params()))
    ap.add_argument("--jobs", type=at_least(1), default=1, help="worker processes per tool (default 1; 2 on this machine max)")
    ap.add_argument("--timeout", type=at_least(1), default=20, help="per-page timeout in seconds (default 20)")
    ap.add_argument("--keep-wrapper", action="store_true", help="keep CleanEval's <text ...> wrapper line")
    ap.add_argument("--with-title", action="store_true",
                    help="score webprune's contents as indexed, the <title> line first (default: the main text, "
                         "as the peers print it and the gold holds it)")
    ap.add_argument("--shared", type=lambda t: Path(path(t)), default=shared_root(),
                    help="shared data folder (default: $WEBPRUNE_SHARED, else ../shared/data)")
    ap.add_argument("--json", type=lambda t: Path(path(t)), default=None, help="write aggregates and per-page scores here")
    checking = ap.add_mutually_exclusive_group()
    checking.add_argument("--check", metavar="FILE", type=lambda t: Path(path(t)), default=None,
                          help="run the tools and pages FILE names (configs/cleaning/check.toml) and compare with its "
                               "expected values: an OK or FAIL line each, exit 1 on a FAIL (eval/cleaning/check.py)")
    checking.add_argument("--write-check", metavar="FILE", type=lambda t: Path(path(t)), default=None,
                          help="run what FILE names and write the figures into it as its expected values")
    args = ap.parse_args(argv)
    try:  # the filters' flags, checked as the declarations say (finite numbers, choices) before any page
        check_values(dataclasses.replace(CleanOptions(), **given(args, CleanOptions)))
    except ValueError as exc:
        ap.error(str(exc))
    if args.json is not None and args.json.is_dir():
        ap.error(f"--json {args.json} is a folder; give a file name")
    try:
        check_outputs([args.json] if args.json else [])
    except ValueError as exc:
        ap.error(str(exc))
    if args.check or args.write_check:
        from eval.cleaning.check import run_check

        refused = [f for f, on in (("--sets", args.sets), ("--limit", args.limit), ("--tools", args.tools),
                                   ("--cleaners", args.cleaners), ("--keep-wrapper", args.keep_wrapper),
                                   ("--with-title", args.with_title)) if on]
        return run_check(args, ap, refused + [flag(f) for f in dataclasses.fields(CleanOptions)
                                                   if f.name in given(args, CleanOptions)])

    sets = [s.strip() for s in (args.sets or ",".join(SETS)).split(",") if s.strip()]
    if bad := [s for s in sets if s not in SETS]:
        ap.error(f"unknown set(s) {bad}; choose from {', '.join(SETS)}")
    cleaners = [c.strip() for c in (args.cleaners or ",".join(CLEANERS)).split(",") if c.strip()]
    if bad := [c for c in cleaners if c not in CLEANERS]:
        ap.error(f"unknown cleaner(s) {bad}; choose from {', '.join(CLEANERS)}")
    if args.jobs < 1 or args.timeout < 1:
        ap.error("--jobs and --timeout must be >= 1")
    installed = [t for t in PEERS if importlib.util.find_spec(PEER_MODULES[t]) is not None]
    try:
        tools = resolve_tools(args.tools, cleaners, list(PEERS) if args.tools else installed)
    except ValueError as exc:
        ap.error(str(exc))
    if not tools:
        ap.error("no tools selected")
    missing = [t for t in tools if t in PEER_MODULES and t not in installed]
    if missing:
        ap.error(f"peer(s) not installed: {', '.join(missing)}; run: .venv/bin/pip install -e '.[bench]'")
    if not args.tools and len(installed) < len(PEERS):
        print(f"peers not installed, left out: {', '.join(sorted(set(PEERS) - set(installed)))} "
              "(.venv/bin/pip install -e '.[bench]')", file=sys.stderr)
    settings = scoring_settings(**given(args, CleanOptions), sets=sets) | {"with_title": args.with_title}
    if not (args.shared / "cleaning").is_dir():
        ap.error(f"no cleaning data under {args.shared}")

    pages = []
    for s in sets:
        ps = gold_pages(args.shared, [s])
        pages += ps[: args.limit] if args.limit else ps
    try:
        prepare(tools, pages, settings)
    except ValueError as exc:
        ap.error(str(exc))
    result = run_tools(tools, pages, sets, settings, args.jobs, args.timeout, args.keep_wrapper)
    print(tables(result, sets, tools))
    if args.json:
        write_json(args.json, {"sets": sets, "limit": args.limit, "tools": tools, "jobs": args.jobs,
                               "timeout": args.timeout, "keep_wrapper": args.keep_wrapper, "shared": str(args.shared),
                               "settings": settings}, result, tools)
    return 0


if __name__ == "__main__":
    sys.exit(main())
