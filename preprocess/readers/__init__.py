"""Record readers: WARC/ARC archives (gzipped or not), tar files of pages, folders of pages.

Readers run where their unit runs and stream :class:`Document` records with raw
payloads. Every record they see ends in ``stats``: passed on as a Document, or
counted as ``skipped.<reason>`` / ``failed.<reason>`` with an example.

May import: core, config.
"""
from __future__ import annotations

import time
from typing import Iterator

from preprocess.core.document import Document
from preprocess.config.options import DEFAULT_MAX_BYTES
from preprocess.readers.archive import read_archive
from preprocess.readers.files import read_html_dir, read_tar
from preprocess.readers.sources import Source
from preprocess.core.stats import Stats


def unit_records(src: Source, stats: Stats, max_bytes: int = DEFAULT_MAX_BYTES,
                 renames: dict | None = None) -> Iterator[Document]:
    """The documents of ``src`` as a unit's chain starts with them: the reader's time counted as the ``read``
    stage."""
    docs = read_source(src, stats, max_bytes, renames=renames)
    while True:
        t0, c0 = time.perf_counter(), time.process_time()
        doc = next(docs, None)
        stats.add_time("read", time.perf_counter() - t0, time.process_time() - c0)
        if doc is None:
            return
        yield doc


def read_source(src: Source, stats: Stats, max_bytes: int = DEFAULT_MAX_BYTES, observe=None,
                renames: dict | None = None) -> Iterator[Document]:
    """The documents of ``src``; ``observe(**facts)``, if given, hears about every archive record; ``renames``:
    page ids another unit also has -> their new ids (tar and html pages, :mod:`preprocess.core.ids`)."""
    if src.kind == "warc":
        with src.open() as raw:
            yield from read_archive(raw, src.filename, src.uri, stats, max_bytes, observe, reopen=src.open)
    elif src.kind == "tar":
        yield from read_tar(src, stats, renames)
    else:
        yield from read_html_dir(src, stats, renames)
