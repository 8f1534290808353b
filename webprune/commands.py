"""What each ``webprune`` subcommand does once its arguments are parsed (:mod:`webprune.cli`): one function a
subcommand, importing its stage lazily so that ``--help`` and argument errors stay fast."""
from __future__ import annotations

import sys
from pathlib import Path

from preprocess.config import options
from preprocess.config import params  # cheap: no Ray, no JVM
from preprocess.runtime.executor import check_address  # cheap: Ray is imported when an executor is made
from preprocess.folder.owned import check_outputs, claim_outputs, write_output
from webprune.cli_args import output_file


def cmd_preprocess(a) -> int:
    from preprocess.driver.preprocess import run_preprocess

    opts = options.from_args(a)
    run = options.from_args(a, options.RunOptions)
    if a.local:
        run = options.RunOptions(**(run.__dict__ | {"executor": "local"}))
    if run.executor == "ray":
        check_address(run.address)  # in seconds, before OUT is made
    r = run_preprocess(a.inputs, a.output, opts, run, overwrite=a.overwrite, page_timeout=a.page_timeout,
                       max_retries=a.max_retries, max_calls=a.recycle_after, node_wait=a.node_wait)
    print(f"{r['records']} records: {r['written']} written, skipped {_by_reason(r['skipped'])}, failed "
          f"{_by_reason(r['failed'])}; {_speed(r)} -> {a.output}/collection (stats: {a.output}/stats.json)")
    if r["unaccounted"]:
        return 1
    if r["units"]["failed"]:
        print(f"{r['units']['failed']} input file(s) failed on every retry: see failed.* in {a.output}/stats.json",
              file=sys.stderr)
        return 1
    return 0


def _by_reason(counts) -> str:
    """``{'non_response': 39, 'empty': 2}`` -> ``41 (non_response 39, empty 2)``; 0 when none."""
    if not counts:
        return "0"
    if not isinstance(counts, dict):
        return str(counts)
    parts = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return f"{sum(counts.values())} ({', '.join(f'{k} {v}' for k, v in parts)})"


def _speed(r: dict) -> str:
    """The cleaning speed, or that nothing was cleaned because every input file was reused (resume)."""
    u = r["units"]
    if r["docs_per_s"] is not None:
        reused = f", {u['reused']} of {u['total']} input file(s) reused" if u["reused"] else ""
        return f"{r['docs_per_s']} docs/s with {r['workers']} worker(s){reused}"
    if u["total"] and u["reused"] == u["total"]:
        return f"all {u['total']} input file(s) reused from an earlier run, nothing cleaned again"
    return "no document cleaned"


def cmd_inspect(a) -> int:
    import json

    from preprocess.driver.scaffold import driving
    from preprocess.runtime.executor import Failure
    from preprocess.readers.inspect import inspect_unit, merge, table
    from preprocess.readers.sources import discover
    from preprocess.run.units import Job, plan

    output_file(a.json, "--json")
    check_outputs([a.json] if a.json else [])
    units = plan(discover(a.inputs), Job(options.CleanOptions(), ""))
    if not a.local:
        check_address(a.address)
    parts, failed = [], []
    with driving("local" if a.local else "ray", a.workers, a.address) as executor:
        for unit, part in executor.map(inspect_unit, units, shared=a.sample):
            (failed.append(unit.source.uri) if isinstance(part, Failure) else parts.append(part))
    counts = merge(parts)
    print(f"{len(units)} input file(s){f', first {a.sample} records of each' if a.sample else ''}"
          f"{f'; {len(failed)} could not be read: ' + ', '.join(failed) if failed else ''}\n")
    print(table(counts, a.top))
    if a.json:
        claim_outputs([a.json])
        write_output(a.json, json.dumps({"inputs": len(units), "sample": a.sample, "failed": failed,
                                         **{k: dict(v.most_common()) for k, v in counts.items()}}, indent=1) + "\n")
    return 0


def cmd_lm_train(a) -> int:
    from preprocess.lm.train import train

    output_file(a.output, "--output")
    claim_outputs([a.output])
    info = train(a.corpus, a.output, order=a.order, prune=a.prune, discount_fallback=a.discount_fallback,
                 memory=a.memory)
    print(f"{a.order}-gram model from {info['tokens']:,} tokens ({info['lines']:,} lines) in {info['seconds']} s: "
          f"{info['bytes'] / 1e6:.1f} MB -> {a.output}")
    return 0


def cmd_lm_train_crawl(a) -> int:
    from preprocess.driver.train_crawl import train_crawl
    from preprocess.train_crawl.options import CrawlOptions

    crawl = params.from_args(a, CrawlOptions)  # the pass's declared parameters, checked
    if not a.local:
        check_address(a.address)  # in seconds, before OUTPUT is made
    card = train_crawl(a.inputs, a.output, crawl, workers=a.workers, address=a.address,
                       executor="local" if a.local else "ray")
    c, b, n = card["content"], card["boilerplate"], card["label_counts"]
    print(f"{crawl.order}-gram contrastive model from {card['sample']['documents']:,} pages "
          f"({card['duplicates']['duplicates']:,} duplicates left out) in {card['training']['wall_s']} s, "
          f"languages {', '.join(card['languages'])}: content {c['lines']:,} lines / {c['tokens']:,} tokens, "
          f"boilerplate {b['lines']:,} lines / {b['tokens']:,} tokens ({n.get('kept_but_repeated', 0):,} kept lines "
          f"repeated across a host's pages) -> {a.output}/")
    return 0


def cmd_lm_score(a) -> int:
    from preprocess.lm.contrastive import check_model, open_model
    from preprocess.lm.score import check_kenlm

    if check_model(a.model) == "perplexity":
        check_kenlm(a.model)  # a text file says so in one line, not in KenLM's words
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


def cmd_index(a) -> int:
    from index.build import build_index

    s = build_index(a.collection, a.index, threads=a.threads, store_raw=a.store_raw, partial=a.partial)
    note = f" ({s['problems']}; see {a.index}/webprune-index.json)" if s["problems"] else ""
    pre = s["preprocess"]
    if pre is None:
        said = ""
    elif pre["complete"]:
        said = f" = the {pre['written']} preprocess wrote"
    else:
        said = (f", preprocess wrote {pre['written'] if pre['written'] is not None else 'an unknown number (unfinished)'}"
                f": {'; '.join(pre['differences'][:3]) or 'the counts differ'}")
    print(f"indexed {s['documents']} documents{said}{note} in {s['wall_s']:.1f} s; index "
          f"{s['index_bytes'] / 1e6:.2f} MB -> {a.index}")
    return 0


def cmd_search(a) -> int:
    from search.models import RetrievalModel
    from search.qld import check_run_args, run_search
    from search.topics import read_topics

    from preprocess.config.params import given

    model = RetrievalModel(**given(a, RetrievalModel)).check("options:", "--model")
    check_run_args(a.k, a.threads, a.tag)

    topics = read_topics(a.topics, a.field, a.format)
    output_file(a.output, "--output")
    check_outputs([a.output, a.output + ".stats.json"])
    s = run_search(a.index, topics, a.output, k=a.k, threads=a.threads, tag=a.tag, model=model, claim=True)
    print(f"{s['topics']} topics, {model.label()}, k={a.k}: {s['wall_s']:.1f} s -> {a.output}")
    return 0


def cmd_eval(a) -> int:
    from eval.metrics import parse_metrics
    from eval.evaluate import check_alpha, evaluate, write_json
    from eval.report.tables import markdown_table

    output_file(a.json, "--json")
    check_outputs([a.json] if a.json else [])
    parse_metrics(a.metrics.split(","))
    check_alpha(a.alpha)

    runs = {Path(r).name.removesuffix(".txt"): r for r in ([a.baseline] if a.baseline else []) + a.runs}
    result = evaluate(a.qrels, runs, baseline=Path(a.baseline).name.removesuffix(".txt") if a.baseline else None,
                      metrics=a.metrics.split(","), alpha=a.alpha)
    print(markdown_table(result))
    if a.json:
        claim_outputs([a.json])
        write_json(result, a.json)
    return 0


def _report_paths(summary: dict) -> str:
    rep = summary["report"]
    return f"report: {Path(rep['html']).resolve()}\n        {Path(rep['markdown']).resolve()}"


def cmd_run(a) -> int:
    from webprune.config import load_config
    from webprune.experiment import run_experiment

    summary = run_experiment(load_config(a.config), a.output, fresh=a.fresh)
    print(summary["table"])
    print(_report_paths(summary), file=sys.stderr)
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


def cmd_example(a) -> int:
    from webprune.example import run_example

    summary = run_example(a.output, workers=a.workers)
    print(summary["table"])
    print("\n" + _report_paths(summary))
    return 0
