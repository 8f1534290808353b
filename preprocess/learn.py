"""Passes that learn from the whole input before cleaning starts (the ``feeds`` cleaner's templates).

Percentile calibration of the pruner is the other such pass (``preprocess.calibrate``).
"""
from __future__ import annotations

import dataclasses
import logging
import time

from preprocess.pipeline import CleanOptions
from preprocess.readers import Source, read_source
from preprocess.stats import Stats

log = logging.getLogger("webprune.preprocess")


def learn_feed_templates(opts: CleanOptions, sources: list[Source]) -> tuple[CleanOptions, dict]:
    """Read the input twice (feeds, then the pages they link to) and put per-host templates in ``opts.extra``.

    The templates travel to every worker as JSON with the options; a page of a host without one is
    cleaned by ``density``.
    """
    if opts.cleaner != "feeds" or "feed_templates" in opts.extra:
        return opts, {}
    from preprocess.cleaners.feeds import learn_templates

    t0 = time.perf_counter()

    def records():
        for src in sources:
            for doc in read_source(src, Stats()):
                yield doc.url, doc.content_type, doc.raw

    templates, info = learn_templates(records)
    info["seconds"] = round(time.perf_counter() - t0, 3)
    log.info("feeds: %d feeds, %d items, %d linked pages matched; templates for %d hosts (%.1f s)",
             info["feeds"], info["feed_items"], info["pages_matched"], info["hosts_with_template"], info["seconds"])
    if not templates:
        log.warning("feeds: no post template learned (no RSS/Atom feed in the input, or no page it links to "
                    "matched); every page is cleaned by density")
    extra = dict(opts.extra, feed_templates={h: t.to_json() for h, t in sorted(templates.items())})
    return dataclasses.replace(opts, extra=extra), info
