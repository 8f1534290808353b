"""Writes Pyserini JsonCollection shards: one shard per input source, written atomically.

Layout: ``OUTPUT/collection/NNNNN-<source>.jsonl[.gz]`` (what ``webprune index``
and Anserini's JsonCollection read), ``OUTPUT/manifest.json`` and ``OUTPUT/stats.json``.

A shard is written to ``NAME.tmp`` and renamed when its source is complete, and
``manifest.json`` lists the finished ones, so a reader never sees half a shard
and an interrupted run leaves only whole shards behind.
"""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from preprocess.stats import Stats

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class ShardWriter:
    def __init__(self, output: Path, compress: bool = False):
        self.output = Path(output)
        self.shards = self.output / "collection"
        self.shards.mkdir(parents=True, exist_ok=True)
        self.compress = compress
        self.manifest: list[dict] = []
        self._fh = None
        self._tmp: Path | None = None
        self._final: Path | None = None
        self._count = 0

    def shard_name(self, index: int, source_name: str) -> str:
        return f"{index:05d}-{_UNSAFE.sub('_', source_name)[:80]}.jsonl" + (".gz" if self.compress else "")

    def open(self, index: int, source: str, source_name: str) -> None:
        self._final = self.shards / self.shard_name(index, source_name)
        self._tmp = self._final.with_name(self._final.name + ".tmp")
        self._fh = gzip.open(self._tmp, "wt", encoding="utf-8") if self.compress else open(self._tmp, "w", encoding="utf-8")
        self._source, self._count = source, 0

    def write(self, docs: list[dict], stats: Stats) -> None:
        for d in docs:
            self._fh.write(json.dumps(d, ensure_ascii=False) + "\n")
            stats.outcome("written")
        self._count += len(docs)

    def close(self) -> None:
        self._fh.close()
        self._tmp.replace(self._final)
        self.manifest.append({"source": self._source, "shard": self._final.name, "documents": self._count})
        tmp = self.output / "manifest.json.tmp"
        tmp.write_text(json.dumps({"shards": self.manifest}, indent=1) + "\n")
        tmp.replace(self.output / "manifest.json")
        self._fh = None
