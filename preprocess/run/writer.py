"""The end of a unit's chain: its documents written to its shard, one id once (:mod:`preprocess.run.duplicates`),
each counted ``written`` (or ``skipped.duplicate_id``) with the bytes of text it adds; on commit the shard, the
digests of its ids and, with ``--outcomes``, every record's outcome."""
from __future__ import annotations

import gzip

from preprocess.core.document import Document
from preprocess.core.stats import Stats
from preprocess.folder.output import OutputDir
from preprocess.folder.shard import json_line
from preprocess.run.duplicates import UnitIds, skip_copy, table_name


class UnitWriter:
    def __init__(self, out: OutputDir, unit, shard, stats: Stats):
        self.out, self.unit, self.shard, self.stats = out, unit, shard, stats
        self.ids = UnitIds()

    def write(self, docs: list[Document]) -> None:
        where = self.unit.source.uri
        with self.stats.timer("write"):
            firsts = [self.ids.add(d.id) for d in docs]
            lines = [json_line(d) for d, first in zip(docs, firsts) if first is None]
            self.shard.write([line for line, _ in lines])
        self.stats.update("bytes_out", sum(n for _, n in lines))
        for d, first in zip(docs, firsts):
            if first is None:
                self.stats.outcome("written", rid=d.id)
            else:
                skip_copy(self.stats, d.id, f"{where}, document {first}", where)

    def commit(self) -> tuple[int, list[int]]:
        """The shard's size and the part offsets of its ids' table (both written now), and the outcomes."""
        with self.stats.timer("write"):
            size = self.shard.commit()
            table, parts = self.ids.table()
            self.out.write_bytes(table, "ids", table_name(self.unit.index))
        if self.stats.ledger is not None:
            write_ledger(self.out, self.unit.index, self.stats.ledger)
        return size, parts


def write_ledger(out: OutputDir, index: int, ledger: list[tuple[str, str]]) -> None:
    text = "".join(f"{rid}\t{outcome}\n" for rid, outcome in ledger)  # ids hold no tab or newline (ids.safe_id)
    out.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0), "outcomes", f"{index:05d}.tsv.gz")
