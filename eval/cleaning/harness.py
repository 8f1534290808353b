"""The benchmark's worker side: clean pages with one tool in a spawn pool, time each call in CPU seconds.

Per tool, ONE pool of ``--jobs`` processes runs the tool over all pages of all
sets; the tool is imported and built once per process (webprune:
``Pipeline(options)``). Per page only the cleaning call is timed, in CPU time
(``time.process_time``), so other load on the machine does not skew docs/s. A
call that raises counts as an error, one that runs longer than ``timeout``
seconds (``signal.alarm``) as a timeout; both score as "".

Cleaners that compare the pages of a host (``sitediff``) get every page of a host
of a set in one call and learn their site references from those pages alone
(``preprocess.learning.engine.learn_in_process``), as a preprocess run learns them from
its crawl; the call's CPU time, learning included, is shared evenly by its pages.
Percentile pruning is calibrated once, as ``webprune preprocess`` does, on the first
``prune_sample_docs`` benchmark pages -- input pages only, never gold text.
"""
from __future__ import annotations

import dataclasses
import gzip
import multiprocessing as mp
import re
import signal
import sys
import time
import warnings
from pathlib import Path

from eval.cleaning.gold import page_url
from preprocess.config.options import CleanOptions
from preprocess.config.params import path_fields
from preprocess.config.registry import FILTERS, cleaner
from preprocess.config.spec import parse_spec

WP_PREFIX = "webprune/"
_WRAP_OPEN = re.compile(rb"\A\s*<text\b[^>]*>[ \t]*\r?\n?")
_WRAP_CLOSE = re.compile(rb"</text>\s*\Z")


def strip_wrapper(raw: bytes) -> bytes:
    """Remove CleanEval's ``<text id=...>`` ... ``</text>`` wrapper (no-op on other pages)."""
    m = _WRAP_OPEN.match(raw)
    if not m:
        return raw
    return _WRAP_CLOSE.sub(b"", raw[m.end():])



MODEL_KEYS = path_fields(CleanOptions)  # options whose path may name one model per set with {set}


def main_text(record: dict) -> str:
    """What is scored of a webprune record unless ``--with-title``: its text without the title line
    (``preprocess.core.document.record_text``). The gold texts leave the ``<title>`` out (WCXB keeps it as a field
    of its own) and the peers never print it."""
    from preprocess.core.document import record_text
    return record_text(record)


def tool_options(tool: str, settings: dict, set_name: str | None = None):
    """CleanOptions of a webprune tool id ``webprune/<spec>`` (``preprocess.config.spec``); ``settings`` (the CLI's
    --max-link-density, --prune-model, ...) fill what the spec leaves open. ``{set}`` in the model path
    names one model per set (a contrastive model trained on that set's own pages, a block model trained
    without it): ``set_name`` fills it -- a page's split (``GoldPage.split``: its set, or its WCXB fold)."""
    if set_name is not None:
        settings = settings | {k: settings[k].replace("{set}", set_name) for k in MODEL_KEYS
                               if "{set}" in (settings.get(k) or "")}
    return parse_spec(tool.removeprefix(WP_PREFIX).replace("{set}", set_name or "{set}"), settings)


def per_set(tool: str, settings: dict) -> bool:
    """Whether the tool loads one model per set (``{set}`` in its pruning or block model path)."""
    return is_webprune(tool) and ("{set}" in tool or any("{set}" in (settings.get(k) or "") for k in MODEL_KEYS))


def is_webprune(tool: str) -> bool:
    return tool.startswith(WP_PREFIX)


# --------------------------------------------------------------------------- worker side

class _Timeout(BaseException):
    """BaseException, so a tool's ``except Exception`` does not swallow it."""


_W: dict = {}


def _on_alarm(signum, frame):
    _W["timed_out"] = True
    signal.alarm(1)  # a bare ``except:`` inside a tool may swallow this: fire again until it escapes
    raise _Timeout



def _init_worker(tool: str, timeout: int, keep_wrapper: bool, settings: dict) -> None:
    warnings.filterwarnings("ignore")
    if tool.startswith(WP_PREFIX):
        from preprocess.core.document import Document
        from preprocess.core.artefacts import Learned
        from preprocess.learning.engine import learn_in_process
        from preprocess.run.pipeline import Pipeline

        many = per_set(tool, settings)
        with_title = settings.get("with_title", False)
        built: dict = {}

        def setup(set_name):
            key = set_name if many else None
            if key not in built:  # one pipeline (and model) per set when the model is per set
                opts = tool_options(tool, settings, key)
                thresholds = settings.get("thresholds", {})
                th = thresholds.get(f"{tool}@{key}", thresholds.get(tool))
                known = Learned({"prune_threshold": {"threshold": th}} if th is not None else {})
                grouped = cleaner(opts.cleaner).host_grouped
                built[key] = (opts, known, grouped, None if grouped else Pipeline(opts, known))
            return built[key]

        def call(pages: list[tuple[bytes, str]], set_name: str | None = None) -> tuple[list[str], str | None]:
            try:
                opts, known, grouped, pipe = setup(set_name)
                docs = [Document(id=str(i), url=url, content_type="text/html", raw=raw)
                        for i, (raw, url) in enumerate(pages)]
                # one call is one host of one set: its site references come from those pages alone
                run = Pipeline(opts, learn_in_process(opts, docs, known)) if grouped else pipe
                out, _stats = run.process(docs)
                by_id = {o["id"]: o["contents"] if with_title else main_text(o) for o in out}
                return [by_id.get(str(i), "") for i in range(len(pages))], None
            except Exception as exc:  # noqa: BLE001
                return [""] * len(pages), f"{type(exc).__name__}: {str(exc)[:200]}"
    else:
        from eval.cleaning import peers as cleaners

        cleaners.quiet()

        def call(pages: list[tuple[bytes, str]], set_name: str | None = None) -> tuple[list[str], str | None]:
            (raw, _url), = pages
            text, err = cleaners.run(tool, raw)
            return [text], err

    _W.update(call=call, timeout=timeout, keep_wrapper=keep_wrapper)
    signal.signal(signal.SIGALRM, _on_alarm)
    # warm-up outside the timed calls: lazy imports, stoplists, model loading (every set's model)
    for set_name in (settings.get("splits") or settings.get("sets") or [None]) if per_set(tool, settings) else [None]:
        try:
            call([(b"<html><head><title>t</title></head><body><p>warm up text for the cleaner.</p></body></html>",
                   "")], set_name)
        except Exception:  # noqa: BLE001
            pass


def _clean_group(task: tuple[list[int], list[tuple[str, str]], str]) -> list[tuple[int, str, float, str, str | None]]:
    """Pages cleaned in one call (one page, or a host's pages): (index, text, cpu seconds, status, error) each.
    A page is (path, url); url None: the page says it (CleanEval's wrapper, a canonical link)."""
    idxs, paths, set_name = task
    pages = []
    for path, url in paths:
        raw = Path(path).read_bytes()
        raw = gzip.decompress(raw) if path.endswith(".gz") else raw
        pages.append((raw if _W["keep_wrapper"] else strip_wrapper(raw), page_url(raw) if url is None else url))
    _W["timed_out"] = False
    texts, err = [""] * len(pages), None
    t0 = time.process_time()
    try:
        signal.alarm(_W["timeout"] * len(pages))
        try:
            texts, err = _W["call"](pages, set_name)
        finally:
            signal.alarm(0)
    except _Timeout:
        pass
    cpu = (time.process_time() - t0) / len(pages)
    signal.alarm(0)
    if _W["timed_out"]:
        return [(i, "", cpu, "timeout", f"> {_W['timeout']} s per page") for i in idxs]
    return [(i, t, cpu, ("error" if err else "ok"), err) for i, t in zip(idxs, texts)]



# --------------------------------------------------------------------------- parent side

def host_groups(pages: list) -> list[list[int]]:
    """Indexes of the pages grouped by (set, host); pages without a URL stand alone."""
    from preprocess.core.document import Document

    groups: dict = {}
    for i, p in enumerate(pages):
        host = Document(id="", url=p.url()).host
        groups.setdefault((p.set, host or f"#{i}"), []).append(i)
    return list(groups.values())



def run_tool(tool: str, pages: list, jobs: int, timeout: int, keep_wrapper: bool, settings: dict):
    first_set = pages[0].split if pages else None
    grouped = is_webprune(tool) and cleaner(tool_options(tool, settings, first_set).cleaner).host_grouped
    groups = host_groups(pages) if grouped else [[i] for i in range(len(pages))]
    tasks = [(g, [(str(pages[i].input), pages[i].url() if pages[i].format == "wcxb" else None) for i in g],
              pages[g[0]].split) for g in groups]  # a group is one host of one set, so in one split
    ctx = mp.get_context("spawn")
    results = [None] * len(pages)
    with ctx.Pool(jobs, initializer=_init_worker, initargs=(tool, timeout, keep_wrapper, settings)) as pool:
        for done in pool.imap_unordered(_clean_group, tasks, chunksize=1 if grouped else 4):
            for idx, text, cpu, status, err in done:
                results[idx] = (text, cpu, status, err)
    return results


def calibrate_prune(tools: list[str], pages: list, settings: dict) -> dict:
    """Thresholds of percentile-pruning tools, calibrated on input pages as preprocess does."""
    from preprocess.core.document import Document
    from preprocess.learning.engine import learn_in_process

    out = {}
    for tool in tools:
        if not is_webprune(tool):
            continue
        many = per_set(tool, settings)
        for set_name in sorted({p.set for p in pages}) if many else [None]:
            opts = tool_options(tool, settings, set_name)
            if not opts.prune_model or opts.prune_percentile is None:
                break
            mine = [p for p in pages if set_name is None or p.set == set_name]
            sample = [Document(id=str(i), url=p.url(raw), content_type="text/html", raw=strip_wrapper(raw))
                      for i, (p, raw) in enumerate((p, p.raw()) for p in mine[: opts.prune_sample_docs])]
            info = learn_in_process(opts, sample).get("prune_threshold")
            out[f"{tool}@{set_name}" if many else tool] = info["threshold"]
            print(f"{tool} ({set_name or 'all sets'}): prune threshold {info['threshold']:.4g} ({info['info']})",
                  file=sys.stderr)
    return out


SCORING_FILTERS = ("links", "prune")  # the filters whose parameters a run's tools share (bare +links, +prune)


def scoring_params() -> dict:
    """The shared parameters as the filters declare them: name -> the value a bare ``+links``/``+prune`` takes
    (the declaration's ``bare``, else its default)."""
    fields = {f.name: f for f in dataclasses.fields(CleanOptions)}
    return {n: (fields[n].metadata.get("bare") if fields[n].metadata.get("bare") is not None else fields[n].default)
            for f in FILTERS if f.name in SCORING_FILTERS for n in f.params}


def scoring_settings(sets: list[str] | None = None, **given) -> dict:
    """The settings every tool of a run shares: ``webprune eval-cleaning``'s filter options (``given``), the
    others as declared (:func:`scoring_params`), and the sets."""
    unknown = set(given) - set(scoring_params())
    if unknown:
        raise ValueError(f"not a parameter of the {'/'.join(SCORING_FILTERS)} filters: {', '.join(sorted(unknown))}")
    return scoring_params() | given | {"sets": sets}


def score_tool(tool: str, pages: list, golds: list[str], jobs: int, timeout: int, keep_wrapper: bool,
               settings: dict) -> list[dict]:
    """One row per page: the tool's text scored against the gold text (word P/R/F1 on the LCS, CleanEval,
    WCXB's bag-of-words P/R/F1), the page type (WCXB), CPU, status."""
    from eval.cleaning.score import bow_prf, cleaneval, word_prf

    rows = []
    for page, gold, (text, cpu, status, err) in zip(pages, golds, run_tool(tool, pages, jobs, timeout, keep_wrapper,
                                                                            settings)):
        prf, bow = word_prf(text, gold), bow_prf(text, gold)
        row = {"tool": tool, "set": page.set, "name": page.name, "precision": prf["precision"],
               "recall": prf["recall"], "f1": prf["f1"], "cleaneval": cleaneval(text, gold),
               "bow_precision": bow["precision"], "bow_recall": bow["recall"], "bow_f1": bow["f1"], "cpu": cpu,
               "status": status, "out_words": len(text.split())}
        if page.format == "wcxb":
            row["page_type"] = page.page_type
        if err:
            row["error"] = err
        rows.append(row)
    return rows
