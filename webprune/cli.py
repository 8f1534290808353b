"""The ``webprune`` command: one subcommand per stage, ``run`` for a whole experiment, ``example`` for a demo."""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from preprocess import options  # cheap: no Ray, no JVM

log = logging.getLogger("webprune")


def _cmd_preprocess(a) -> int:
    from preprocess.run import run_preprocess

    for flag, value in (("--page-timeout", a.page_timeout), ("--max-retries", a.max_retries),
                        ("--recycle-after", a.recycle_after)):
        if value < 0:
            raise ValueError(f"{flag} {value}: must be 0 or more")
    opts = options.from_args(a)
    run = options.from_args(a, options.RunOptions)
    if a.local:
        run = options.RunOptions(**(run.__dict__ | {"executor": "local"}))
    r = run_preprocess(a.inputs, a.output, opts, run, overwrite=a.overwrite, page_timeout=a.page_timeout,
                       max_retries=a.max_retries, max_calls=a.recycle_after)
    print(f"{r['records']} records: {r['written']} written, skipped {r['skipped'] or 0}, failed {r['failed'] or 0}; "
          f"{r['docs_per_s']} docs/s with {r['workers']} worker(s) -> {a.output}/collection (stats: {a.output}/stats.json)")
    if r["unaccounted"]:
        return 1
    if r["units"]["failed"]:
        print(f"{r['units']['failed']} input file(s) failed on every retry: see failed.* in {a.output}/stats.json",
              file=sys.stderr)
        return 1
    return 0


def _cmd_inspect(a) -> int:
    import json

    from preprocess.executor import Failure, make_executor
    from preprocess.inspect import inspect_unit, merge, table
    from preprocess.sources import discover
    from preprocess.units import Job, plan

    output_file(a.json, "--json")
    units = plan(discover(a.inputs), Job(options.CleanOptions(), ""))
    executor = make_executor("local" if a.local else "ray", a.workers, a.address)
    parts, failed = [], []
    try:
        for unit, part in executor.map(inspect_unit, units, shared=a.sample):
            (failed.append(unit.source.uri) if isinstance(part, Failure) else parts.append(part))
    finally:
        executor.close()
    counts = merge(parts)
    print(f"{len(units)} input file(s){f', first {a.sample} records of each' if a.sample else ''}"
          f"{f'; {len(failed)} could not be read: ' + ', '.join(failed) if failed else ''}\n")
    print(table(counts, a.top))
    if a.json:
        Path(a.json).write_text(json.dumps({"inputs": len(units), "sample": a.sample, "failed": failed,
                                            **{k: dict(v.most_common()) for k, v in counts.items()}}, indent=1) + "\n")
    return 0


def _cmd_lm_train(a) -> int:
    from preprocess.lm.train import train

    info = train(a.corpus, a.output, order=a.order, prune=a.prune, discount_fallback=a.discount_fallback,
                 memory=a.memory)
    print(f"{a.order}-gram model from {info['tokens']:,} tokens ({info['lines']:,} lines) in {info['seconds']} s: "
          f"{info['bytes'] / 1e6:.1f} MB -> {a.output}")
    return 0


def _cmd_lm_train_crawl(a) -> int:
    from preprocess.lm.crawl import train_crawl
    from preprocess.lm.labels import LabelOptions

    labels = LabelOptions(cleaner=a.cleaner, drop_hinted=a.drop_hinted, kitten=a.kitten,
                          max_link_density=a.max_link_density if a.max_link_density >= 0 else None,
                          min_repeat_pages=a.min_repeat_pages, min_word_count=a.min_word_count)
    from preprocess.lm.dedup import DedupOptions

    card = train_crawl(a.inputs, a.output, order=a.order, labels=labels, sample_docs=a.sample_docs or None,
                       workers=a.workers, address=a.address, executor="local" if a.local else "ray", memory=a.memory,
                       dedup=DedupOptions(mode=a.dedup), min_language_lines=a.min_language_lines)
    c, b, n = card["content"], card["boilerplate"], card["label_counts"]
    print(f"{a.order}-gram contrastive model from {card['sample']['documents']:,} pages "
          f"({card['duplicates']['duplicates']:,} duplicates left out) in {card['training']['wall_s']} s, "
          f"languages {', '.join(card['languages'])}: content {c['lines']:,} lines / {c['tokens']:,} tokens, "
          f"boilerplate {b['lines']:,} lines / {b['tokens']:,} tokens ({n.get('kept_but_repeated', 0):,} kept lines "
          f"repeated across a host's pages) -> {a.output}/")
    return 0


def _cmd_lm_score(a) -> int:
    from preprocess.lm.contrastive import open_model

    scorer = open_model(a.model)  # a directory with a card: contrastive; a file: plain KenLM perplexity
    fmt = "{:.3f}" if scorer.kind == "contrastive" else "{:.1f}"
    if a.file:
        lines = (sys.stdin if a.file == "-" else open(a.file, encoding="utf-8", errors="replace"))
    elif a.text:
        lines = a.text
    else:
        raise ValueError("give sentences to score, or --file F")
    for line in lines:
        line = line.rstrip("\n")
        score = scorer.score(line)  # higher = more boilerplate-like, for both kinds
        print(f"{fmt.format(score)}\t{line}" if score is not None else f"-\t{line}")
    return 0


def _cmd_index(a) -> int:
    from index.build import build_index

    s = build_index(a.collection, a.index, threads=a.threads, store_raw=a.store_raw)
    print(f"indexed {s['documents']} documents in {s['wall_s']:.1f} s; index {s['index_bytes'] / 1e6:.2f} MB -> {a.index}")
    return 0


def _cmd_search(a) -> int:
    from search.models import RetrievalModel
    from search.qld import run_search
    from search.topics import read_topics

    model = RetrievalModel(a.model, mu=a.mu, k1=a.k1, b=a.b, rm3=a.rm3, fb_terms=a.fb_terms, fb_docs=a.fb_docs,
                           original_query_weight=a.original_query_weight).check("options:", "--model")

    topics = read_topics(a.topics, a.field, a.format)
    output_file(a.output, "--output")
    s = run_search(a.index, topics, a.output, k=a.k, threads=a.threads, tag=a.tag, model=model)
    print(f"{s['topics']} topics, {model.label()}, k={a.k}: {s['wall_s']:.1f} s -> {a.output}")
    return 0


def _cmd_eval(a) -> int:
    from eval.metrics import parse_metrics
    from eval.report import evaluate, markdown_table, write_json

    output_file(a.json, "--json")
    parse_metrics(a.metrics.split(","))

    runs = {Path(r).name.removesuffix(".txt"): r for r in ([a.baseline] if a.baseline else []) + a.runs}
    result = evaluate(a.qrels, runs, baseline=Path(a.baseline).name.removesuffix(".txt") if a.baseline else None,
                      metrics=a.metrics.split(","), alpha=a.alpha)
    print(markdown_table(result))
    if a.json:
        write_json(result, a.json)
    return 0


def _cmd_run(a) -> int:
    from webprune.config import load_config
    from webprune.experiment import run_experiment

    summary = run_experiment(load_config(a.config), a.output, fresh=a.fresh)
    print(summary["table"])
    print(f"report: {summary['report']['html']} and report.md beside it", file=sys.stderr)
    if not a.check:
        return 0
    checks = summary["checks"]
    if not checks:
        print("\n--check: the config holds no expected values (expect = {...} in a [[variants]])")
        return 1
    print()
    for c in checks:
        got = "missing" if c["got"] is None else f"{c['got']:.4f}"
        print(f"{'OK  ' if c['ok'] else 'FAIL'} {c['variant']} {c['metric']}: {got} "
              f"(expected {c['expected']:.4f} ± {c['tolerance']:g})")
    return 0 if all(c["ok"] for c in checks) else 1


def _cmd_example(a) -> int:
    from webprune.example import run_example

    summary = run_example(a.output, workers=a.workers)
    print(summary["table"])
    return 0


class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line that says where to look, not the whole usage."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="webprune", description=__doc__)
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv: per-record)")
    p.add_argument("--debug", action="store_true", help="show the traceback of an error")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)

    s = sub.add_parser("preprocess", help="clean WARC/ARC/tar/HTML inputs into JsonCollection shards")
    s.add_argument("inputs", nargs="+", help=".warc[.gz] / .arc[.gz] / .tar.gz of .html files, or folders of them "
                                             "(paths, or URIs such as s3://bucket/crawl/)")
    s.add_argument("--output", "-o", required=True, help="output folder or URI (collection/, stats.json, manifest.json)")
    options.add_arguments(s.add_argument_group("cleaning"))
    options.add_arguments(s.add_argument_group("execution"), options.RunOptions)
    s.add_argument("--local", action="store_true", help="the same as --executor local")
    s.add_argument("--overwrite", action="store_true",
                   help="replace an earlier run made with other settings in --output, or write into a folder that "
                        "holds other files; only webprune's own files are ever replaced or deleted")
    s.add_argument("--page-timeout", type=float, default=60.0,
                   help="seconds a batch, then a single page, may take before its worker is ended and the page "
                        "is failed alone (default: 60)")
    s.add_argument("--max-retries", type=int, default=6,
                   help="times Ray redoes a unit whose worker died; two find a record that kills it (default: 6)")
    s.add_argument("--recycle-after", type=int, default=0, metavar="UNITS",
                   help="replace a worker process after it has cleaned this many input files, returning any memory "
                        "a native library leaked (default: 0, never)")
    s.set_defaults(func=_cmd_preprocess)

    s = sub.add_parser("inspect", help="a quick look at a crawl: record types, HTTP status, MIME types, charsets, "
                                       "sizes, top hosts, id headers")
    s.add_argument("inputs", nargs="+", help="archives or folders (paths or URIs)")
    s.add_argument("--sample", type=int, default=None, help="read only the first N records of each file")
    s.add_argument("--top", type=int, default=10, help="hosts listed (default: 10)")
    s.add_argument("--json", default=None, help="also write the counts here")
    s.add_argument("--workers", type=int, default=None, help="Ray workers (default: all CPUs)")
    s.add_argument("--address", default=None, help="Ray cluster to attach to")
    s.add_argument("--local", action="store_true", help="read in this process, without Ray")
    s.set_defaults(func=_cmd_inspect)

    s = sub.add_parser("lm", help="train KenLM models and score sentences")
    lm = s.add_subparsers(dest="lm_command", required=True)
    t = lm.add_parser("train", help="train an n-gram model with lmplz and convert it with build_binary")
    t.add_argument("corpus", nargs="+", help="plain-text files, one sentence or line per line")
    t.add_argument("--order", type=int, default=2, choices=(2, 3, 4, 5, 6))
    t.add_argument("--output", "-o", required=True, help="model file (KenLM binary)")
    t.add_argument("--prune", type=int, nargs="+", default=None,
                   help="lmplz --prune counts per order, e.g. 0 1 drops singleton bigrams")
    t.add_argument("--discount-fallback", action="store_true", help="for small corpora (lmplz --discount_fallback)")
    t.add_argument("--memory", default="10%", help="lmplz sort memory (-S), default 10%% of RAM")
    t.set_defaults(func=_cmd_lm_train)
    t = lm.add_parser("train-crawl", help="contrastive model (content vs boilerplate) learned from a crawl's own "
                                          "pages: DOM-cleaner and repetition pseudo-labels, no human label")
    t.add_argument("inputs", nargs="+", help="WARC/ARC/WET/tar/HTML inputs, as for preprocess")
    t.add_argument("--output", "-o", required=True, help="model directory (content.bin, boilerplate.bin, card)")
    t.add_argument("--order", type=int, default=3, choices=(2, 3, 4, 5, 6))
    t.add_argument("--cleaner", default="tags", choices=options._cleaner_names(),
                   help="DOM cleaner whose kept/removed lines label the crawl (default: tags)")
    t.add_argument("--drop-hinted", action=argparse.BooleanOptionalAction, default=True,
                   help="labelling cleaner drops class/id-hinted elements (default: on)")
    t.add_argument("--max-link-density", type=float, default=0.5,
                   help="labelling cleaner's link-density filter (default 0.5; negative: off)")
    t.add_argument("--kitten", action=argparse.BooleanOptionalAction, default=None)
    t.add_argument("--min-repeat-pages", type=int, default=3,
                   help="a line on this many pages of a host is template text, even if the cleaner kept it "
                        "(default 3; 0: off)")
    t.add_argument("--min-word-count", type=int, default=2, help="shared vocabulary: words seen this often (default 2)")
    t.add_argument("--dedup", default="near", choices=("near", "exact", "off"),
                   help="duplicate pages left out before the repetition rule and training (default near: "
                        "exact copies and SimHash near-duplicates)")
    t.add_argument("--min-language-lines", type=int, default=1000,
                   help="kept and removed lines a language other than the main one needs for its own model pair "
                        "(default 1000); pages of a language without one are left unpruned")
    t.add_argument("--sample-docs", type=int, default=10_000,
                   help="learn from about N records, spread over the input files (default 10000; 0: all)")
    t.add_argument("--workers", type=int, default=None, help="Ray workers (default: all CPUs)")
    t.add_argument("--address", default=None, help="Ray cluster to attach to (OUTPUT must be on a shared disk)")
    t.add_argument("--local", action="store_true", help="in this process, without Ray")
    t.add_argument("--memory", default="10%", help="lmplz sort memory (-S), default 10%% of RAM")
    t.set_defaults(func=_cmd_lm_train_crawl)
    t = lm.add_parser("score", help="per-line SCORE<TAB>LINE, higher = more boilerplate-like: perplexity for a "
                                    "model file, H_content - H_boilerplate (bits/token) for a contrastive directory")
    t.add_argument("model")
    t.add_argument("text", nargs="*", help="sentences to score")
    t.add_argument("--file", "-f", default=None, help="score every line of this file (- for stdin)")
    t.set_defaults(func=_cmd_lm_score)

    s = sub.add_parser("index", help="build a Lucene index with Pyserini (JsonCollection)")
    s.add_argument("collection", help="preprocess output folder or folder of .jsonl shards")
    s.add_argument("--index", "-i", required=True)
    s.add_argument("--threads", type=int, default=2)
    s.add_argument("--store-raw", action="store_true", help="also store the raw JSON (bigger index)")
    s.set_defaults(func=_cmd_index)

    s = sub.add_parser("search", help="QL-Dirichlet (or BM25, +RM3) run in TREC format")
    s.add_argument("--index", "-i", required=True)
    s.add_argument("--topics", "-t", required=True, help="TREC/CACM topics, Web Track XML or Decision Track XML")
    s.add_argument("--output", "-o", required=True, help="run file")
    s.add_argument("--model", choices=("qld", "bm25"), default="qld", help="retrieval model (default: qld)")
    s.add_argument("--mu", type=float, default=2000.0, help="QLD's Dirichlet prior")
    s.add_argument("--k1", type=float, default=0.9, help="BM25 k1")
    s.add_argument("--b", type=float, default=0.4, help="BM25 b")
    s.add_argument("--rm3", action="store_true", help="RM3 query expansion on top of the model")
    s.add_argument("--fb-terms", type=int, default=10, help="RM3 expansion terms")
    s.add_argument("--fb-docs", type=int, default=10, help="RM3 feedback documents")
    s.add_argument("--original-query-weight", type=float, default=0.5, help="RM3 weight of the original query")
    s.add_argument("--k", type=int, default=1000, help="hits per topic")
    s.add_argument("--field", choices=("query", "description"), default="query")
    s.add_argument("--format", choices=("trec", "cacm", "webxml", "dtxml"), default=None, help="default: detected")
    s.add_argument("--threads", type=int, default=2)
    s.add_argument("--tag", default="webprune", help="run tag (last column)")
    s.set_defaults(func=_cmd_search)

    s = sub.add_parser("eval", help="P@5, P@10, MAP, nDCG@10 and Wilcoxon tests against a baseline")
    s.add_argument("--qrels", "-q", required=True)
    s.add_argument("runs", nargs="+")
    s.add_argument("--baseline", "-b", default=None, help="baseline run file")
    s.add_argument("--metrics", default="P@5,P@10,AP,nDCG@10", help="ir_measures names, comma-separated")
    s.add_argument("--alpha", type=float, default=0.05)
    s.add_argument("--json", default=None, help="also write the full result (per topic, p-values) here")
    s.set_defaults(func=_cmd_eval)

    sub.add_parser("eval-cleaning", add_help=False,
                   help="score cleaners against the human gold standards (CleanEval, Dragnet, L3S-GN1, ...), "
                        "side by side with peer extractors; `webprune eval-cleaning --help` for options")
    s = sub.add_parser("run", help="run a whole experiment from a TOML config (see configs/)")
    s.add_argument("config")
    s.add_argument("--output", "-o", default=None, help="results folder (default: runs/<name>)")
    s.add_argument("--fresh", action="store_true", help="redo every stage instead of reusing finished ones")
    s.add_argument("--check", action="store_true",
                   help="compare the measured metrics with the config's expected values; exit 1 on a FAIL")
    s.set_defaults(func=_cmd_run)

    s = sub.add_parser("example", help="pack the built-in example pages into a WARC and run the experiment on it")
    s.add_argument("--output", "-o", default="runs/example")
    s.add_argument("--workers", type=int, default=None, help="cleaner actors (default: the config's)")
    s.set_defaults(func=_cmd_example)
    return p


USER_ERRORS = (ValueError, OSError, RuntimeError, LookupError)  # bad arguments, files, configs, inputs


def output_file(path: str | None, flag: str) -> str | None:
    """Check an output file path before any work is done: not a folder, its folder exists (or is made)."""
    if path is None:
        return None
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{flag} {path} is a folder; give a file name, e.g. {Path(path) / 'result.json'}")
    p.parent.mkdir(parents=True, exist_ok=True)
    return path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["eval-cleaning"]:  # its own parser: eval/cleaning/cli.py
        from eval.cleaning.cli import main as eval_cleaning

        return eval_cleaning(argv[1:])
    a = build_parser().parse_args(argv)
    level = logging.WARNING if a.verbose == 0 else logging.INFO if a.verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", datefmt="%H:%M:%S")
    if a.verbose == 0:
        logging.getLogger("webprune").setLevel(logging.INFO)
    from preprocess.interrupt import SigtermInterrupts, exit_status

    try:
        with SigtermInterrupts():  # SIGTERM stops a command as Ctrl-C does
            return a.func(a)
    except KeyboardInterrupt as exc:
        resumable = a.command in ("preprocess", "run", "lm", "example")
        print(f"webprune {a.command}: interrupted" + ("; run the same command again to resume" if resumable else ""),
              file=sys.stderr)
        return exit_status(exc)
    except USER_ERRORS as exc:
        if a.debug:
            raise
        print(f"webprune {a.command}: error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 -- a bug: one line, the traceback with --debug
        if a.debug:
            raise
        print(f"webprune {a.command}: internal error: {type(exc).__name__}: {exc} (run again with --debug for "
              "the traceback, and please report it)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
