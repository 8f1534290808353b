"""The ``webprune`` command: one subcommand per stage, ``run`` for a whole experiment, ``example`` for a demo."""
from __future__ import annotations

import argparse
import logging
import sys
from typing import Callable

from preprocess.config import options
from preprocess.config import params  # cheap: no Ray, no JVM
from preprocess.train_crawl.options import CrawlOptions
from search.models import RetrievalModel
from webprune import commands
from webprune.cli_args import Parser, at_least, memory, path, seconds

log = logging.getLogger("webprune")


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="webprune", description=__doc__)
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv: per-record)")
    p.add_argument("--debug", action="store_true", help="show the traceback of an error")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)

    s = sub.add_parser("preprocess", help="clean WARC/ARC/tar/HTML inputs into JsonCollection shards")
    s.add_argument("inputs", nargs="+", type=path, help=".warc[.gz] / .arc[.gz] / .tar.gz of .html files, or folders "
                                                        "of them (paths, or URIs such as s3://bucket/crawl/)")
    s.add_argument("--output", "-o", required=True, type=path,
                   help="output folder or URI (collection/, stats.json, manifest.json)")
    options.add_arguments(s.add_argument_group("cleaning"))
    options.add_arguments(s.add_argument_group("execution"), options.RunOptions)
    s.add_argument("--local", action="store_true", help="the same as --executor local")
    s.add_argument("--overwrite", action="store_true",
                   help="replace an earlier run made with other settings in --output, or write into a folder that "
                        "holds other files; only webprune's own files are ever replaced or deleted")
    s.add_argument("--page-timeout", type=seconds, default=60.0,
                   help="seconds a batch, then a single page, may take before its worker is ended and the page "
                        "is failed alone (default: 60; 0: no limit)")
    s.add_argument("--max-retries", type=at_least(0), default=6,
                   help="times Ray redoes a unit whose worker died; two find a record that kills it (default: 6)")
    s.add_argument("--node-wait", type=seconds, default=300.0, metavar="S",
                   help="seconds a run waits when every Ray node with CPUs is gone before it stops with one line; "
                        "the same command resumes it (default: 300; 0: wait for ever)")
    s.add_argument("--recycle-after", type=at_least(0), default=0, metavar="UNITS",
                   help="replace a worker process after it has cleaned this many input files, returning any memory "
                        "a native library leaked (default: 0, never)")
    s.set_defaults(func=commands.cmd_preprocess)

    s = sub.add_parser("inspect", help="a quick look at a crawl: record types, HTTP status, MIME types, charsets, "
                                       "sizes, top hosts, id headers")
    s.add_argument("inputs", nargs="+", type=path, help="archives or folders (paths or URIs)")
    s.add_argument("--sample", type=at_least(1), default=None, metavar="N",
                   help="read only the first N records of each file (default: all)")
    s.add_argument("--top", type=at_least(1), default=10, help="hosts listed (default: 10)")
    s.add_argument("--json", default=None, type=path, help="also write the counts here")
    s.add_argument("--workers", type=at_least(1), default=None, help="Ray workers (default: all CPUs)")
    s.add_argument("--address", default=None, help="Ray cluster to attach to")
    s.add_argument("--local", action="store_true", help="read in this process, without Ray")
    s.set_defaults(func=commands.cmd_inspect)

    s = sub.add_parser("lm", help="train KenLM models and score sentences")
    lm = s.add_subparsers(dest="lm_command", required=True)
    t = lm.add_parser("train", help="train an n-gram model with lmplz and convert it with build_binary")
    t.add_argument("corpus", nargs="+", type=path, help="plain-text files, one sentence or line per line")
    t.add_argument("--order", type=int, default=2, choices=(2, 3, 4, 5, 6))
    t.add_argument("--output", "-o", required=True, type=path, help="model file (KenLM binary)")
    t.add_argument("--prune", type=at_least(0), nargs="+", default=None,
                   help="lmplz --prune counts per order, e.g. 0 1 drops singleton bigrams")
    t.add_argument("--discount-fallback", action="store_true", help="for small corpora (lmplz --discount_fallback)")
    t.add_argument("--memory", default="10%", type=memory, help="lmplz sort memory (-S), default 10%% of RAM")
    t.set_defaults(func=commands.cmd_lm_train)
    t = lm.add_parser("train-crawl", help="contrastive model (content vs boilerplate) learned from a crawl's own "
                                          "pages: DOM-cleaner and repetition pseudo-labels, no human label")
    t.add_argument("inputs", nargs="+", type=path, help="WARC/ARC/WET/tar/HTML inputs, as for preprocess")
    t.add_argument("--output", "-o", required=True, type=path,
                   help="model directory (content.bin, boilerplate.bin, card)")
    params.add_arguments(t, CrawlOptions)  # --order, --cleaner, --drop-hinted, ... as the pass declares them
    t.add_argument("--workers", type=at_least(1), default=None, help="Ray workers (default: all CPUs)")
    t.add_argument("--address", default=None, help="Ray cluster to attach to (OUTPUT must be on a shared disk)")
    t.add_argument("--local", action="store_true", help="in this process, without Ray")
    t.set_defaults(func=commands.cmd_lm_train_crawl)
    t = lm.add_parser("score", help="per-line SCORE<TAB>LINE, higher = more boilerplate-like: perplexity for a "
                                    "model file, H_content - H_boilerplate (bits/token) for a contrastive directory")
    t.add_argument("model", type=path)
    t.add_argument("text", nargs="*", help="sentences to score")
    t.add_argument("--file", "-f", default=None, type=path, help="score every line of this file (- for stdin)")
    t.set_defaults(func=commands.cmd_lm_score)

    s = sub.add_parser("index", help="build a Lucene index with Pyserini (JsonCollection)")
    s.add_argument("collection", type=path, help="preprocess output folder or folder of .jsonl shards")
    s.add_argument("--index", "-i", required=True, type=path)
    s.add_argument("--threads", type=int, default=2, help="Anserini's indexing threads (default: 2)")
    s.add_argument("--store-raw", action="store_true", help="also store the raw JSON (bigger index)")
    s.add_argument("--partial", action="store_true",
                   help="index a preprocess output that is unfinished or was altered since (refused without it); "
                        "the summary names every difference from what preprocess wrote")
    s.set_defaults(func=commands.cmd_index)

    s = sub.add_parser("search", help="QL-Dirichlet (or BM25, +RM3) run in TREC format")
    s.add_argument("--index", "-i", required=True, type=path)
    s.add_argument("--topics", "-t", required=True, type=path,
                   help="TREC/CACM topics, Web Track XML or Decision Track XML")
    s.add_argument("--output", "-o", required=True, type=path, help="run file")
    params.add_arguments(s, RetrievalModel)  # --model, --mu, --k1, --b, --rm3, --fb-terms, ... as declared
    s.add_argument("--k", type=int, default=1000, help="hits per topic")
    s.add_argument("--field", choices=("query", "description"), default="query")
    s.add_argument("--format", choices=("trec", "cacm", "webxml", "dtxml"), default=None, help="default: detected")
    s.add_argument("--threads", type=int, default=2)
    s.add_argument("--tag", default="webprune", help="run tag (last column)")
    s.set_defaults(func=commands.cmd_search)

    s = sub.add_parser("eval", help="P@5, P@10, MAP, nDCG@10 and Wilcoxon tests against a baseline")
    s.add_argument("--qrels", "-q", required=True, type=path)
    s.add_argument("runs", nargs="+", type=path)
    s.add_argument("--baseline", "-b", default=None, type=path, help="baseline run file")
    s.add_argument("--metrics", default="P@5,P@10,AP,nDCG@10", help="ir_measures names, comma-separated")
    s.add_argument("--alpha", type=float, default=0.05, help="significance level of the tests, in (0, 1)")
    s.add_argument("--json", default=None, type=path, help="also write the full result (per topic, p-values) here")
    s.set_defaults(func=commands.cmd_eval)

    sub.add_parser("eval-cleaning", add_help=False,
                   help="score cleaners against the human gold standards (CleanEval, Dragnet, L3S-GN1, ...), "
                        "side by side with peer extractors; `webprune eval-cleaning --help` for options")
    s = sub.add_parser("run", help="run a whole experiment from a TOML config (see configs/)")
    s.add_argument("config", type=path)
    s.add_argument("--output", "-o", default=None, type=path, help="results folder (default: runs/<name>)")
    s.add_argument("--fresh", action="store_true", help="redo every stage instead of reusing finished ones")
    s.add_argument("--check", action="store_true",
                   help="compare the measured metrics with the config's expected values; exit 1 on a FAIL")
    s.set_defaults(func=commands.cmd_run)

    s = sub.add_parser("example", help="pack the built-in example pages into a WARC and run the experiment on it")
    s.add_argument("--output", "-o", default="runs/example", type=path)
    s.add_argument("--workers", type=at_least(1), default=None, help="cleaner actors (default: the config's)")
    s.set_defaults(func=commands.cmd_example)
    return p


USER_ERRORS = (ValueError, OSError, RuntimeError, LookupError)  # bad arguments, files, configs, inputs


def main(argv: list[str] | None = None) -> int:
    from_console = argv is None  # the `webprune` command (tests call main(argv) and keep their Ray)
    argv = sys.argv[1:] if argv is None else argv
    from preprocess.config.registry import PLUGIN_ERRORS

    if PLUGIN_ERRORS:
        print(f"webprune: error: {PLUGIN_ERRORS[0]}", file=sys.stderr)
        return 2
    if argv[:1] == ["eval-cleaning"]:  # its own parser: eval/cleaning/cli.py
        from eval.cleaning.cli import main as eval_cleaning

        return eval_cleaning(argv[1:])
    try:
        a = build_parser().parse_args(argv)
    except SystemExit as exc:  # a usage error (2) or --help (0): the code, returned as every command's is
        return exc.code if isinstance(exc.code, int) else 2
    level = logging.WARNING if a.verbose == 0 else logging.INFO if a.verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", datefmt="%H:%M:%S")
    if a.verbose == 0:
        logging.getLogger("webprune").setLevel(logging.INFO)
    ended = []

    def end_ray() -> None:  # once: before an error's line, else as the command returns
        if from_console and not ended:  # the process exits next: Ray goes now, quicker than by its exit hook
            from preprocess.runtime.executor import shutdown_ray_at_exit

            ended.append(True)
            shutdown_ray_at_exit()
    try:
        return run_command(a, before_last_line=end_ray)
    finally:
        end_ray()


def run_command(a, before_last_line: Callable[[], None] | None = None) -> int:
    """The parsed command run; its exit status (an error: one line on stderr, never a traceback).
    ``before_last_line`` runs before an error's line is printed (the console command ends Ray there, so that
    nothing of Ray's shutdown follows the line)."""
    from preprocess.runtime.interrupt import SigtermInterrupts, exit_status

    def last_line(text: str) -> None:
        if before_last_line:
            before_last_line()
        print(text, file=sys.stderr)

    try:
        with SigtermInterrupts():  # SIGTERM stops a command as Ctrl-C does
            return a.func(a)
    except KeyboardInterrupt as exc:
        resumable = a.command in ("preprocess", "run", "lm", "example")
        last_line(f"webprune {a.command}: interrupted" + ("; run the same command again to resume" if resumable else ""))
        return exit_status(exc)
    except USER_ERRORS as exc:
        if a.debug:
            raise
        last_line(f"webprune {a.command}: error: {exc}")
        return 2
    except Exception as exc:  # noqa: BLE001 -- a bug: one line, the traceback with --debug
        if a.debug:
            raise
        last_line(f"webprune {a.command}: internal error: {type(exc).__name__}: {exc} (run again with --debug for "
                  "the traceback, and please report it)")
        return 1


if __name__ == "__main__":
    sys.exit(main())
