"""The engine's spool: rows a learning pass emits in its map step, kept where the unit runs (:mod:`preprocess.core.passes`).

Each unit's rows of a round go to ``OUT/learned/<pass>/spool/<unit key>-<index>-r<round>-t<take>.jsonl.gz``
(one JSON list per line, gzip without time or name: the same bytes on a retry) and their ``meta`` beside them
(``.json``), both through the output layer (temporary name, then rename); the spool file is written before its
meta, so a meta that is there means both are. Only the names travel to the driver.
"""
from __future__ import annotations

import gzip
import json
from typing import Iterator

from preprocess.folder.output import OutputDir
from preprocess.core.passes import SpoolFiles


def spool_name(unit, rnd: int, take: int | None) -> str:
    return f"{unit.key}-{unit.index:05d}-r{rnd}-t{'all' if take is None else take}.jsonl.gz"


def write_spool(out: OutputDir, pass_name: str, name: str, rows: list, meta: dict) -> None:
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")
    out.write_bytes(gzip.compress(data, mtime=0), "learned", pass_name, "spool", name)
    out.write_json(meta, "learned", pass_name, "spool", name + ".json")


def saved_spool(out: OutputDir, pass_name: str, name: str) -> dict | None:
    """The meta of a spool an earlier attempt or run finished (None: none)."""
    meta = out.read_json("learned", pass_name, "spool", name + ".json")
    return meta if meta is not None and out.exists("learned", pass_name, "spool", name) else None


def read_spool(out: OutputDir, pass_name: str, name: str) -> list:
    with out.fs.open_input_stream(out.path("learned", pass_name, "spool", name), compression=None) as fh:
        # (split at "\n" only: str.splitlines also splits at U+2028, U+0085 ..., which a row's text may hold raw)
        return [json.loads(r) for r in gzip.decompress(fh.read()).decode("utf-8").split("\n") if r]


def delete_spools(out: OutputDir, pass_name: str, names) -> None:
    """The spool files (and metas) named, then the pass's folders if nothing else is left in them."""
    for name in names:
        out.delete("learned", pass_name, "spool", name)
        out.delete("learned", pass_name, "spool", name + ".json")
    for parts in (("learned", pass_name, "spool"), ("learned", pass_name), ("learned",)):
        if out.exists(*parts) and not out.listdir(*parts):
            out.fs.delete_dir(out.path(*parts))


class Spools(SpoolFiles):
    """The spools of a pass's run, as its ``finish`` gets them."""

    def __init__(self, out: OutputDir, pass_name: str, files: list[str], failed: list[str]):
        self.out, self.pass_name, self.files, self.failed = out, pass_name, files, failed
        self.root = out.path()

    def rows(self, name: str) -> Iterator[list]:
        yield from read_spool(self.out, self.pass_name, name)
