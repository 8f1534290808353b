"""Checks of a fuzz run against its twin (:mod:`webprune.fuzz`): every record counted, none lost to a
neighbour, none written with a text that differs from the unbroken file's."""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path

from preprocess.folder.output import shard_name
from preprocess.readers.sources import Source
from webprune.fuzz import FuzzFile


def shard_docs(out: Path) -> dict[str, dict[str, str]]:
    """{shard stem (its name without index and suffix): {id and url: contents}} of a preprocess output."""
    docs: dict[str, dict[str, str]] = {}
    for shard in sorted((Path(out) / "collection").glob("*.jsonl*")):
        opener = gzip.open if shard.suffix == ".gz" else open
        stem = shard.name.split("-", 1)[1].split(".jsonl")[0]
        with opener(shard, "rt", encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                docs.setdefault(stem, {})[d["id"]] = d["contents"]
                if d.get("url"):
                    docs[stem][d["url"]] = d["contents"]
    return docs


def unit_records(out: Path) -> dict[str, int]:
    """{shard stem: records counted} from the unit entries."""
    got = {}
    for entry in sorted((Path(out) / "units").glob("*.json")):
        e = json.loads(entry.read_text())
        if e.get("shard"):
            got[e["shard"].split("-", 1)[1].split(".jsonl")[0]] = e["stats"]["counts"]["records"]
    return got


@dataclass
class Integrity:
    framing: str
    records_in: int = 0
    counted: int = 0
    expected: int = 0      # pristine and repairable records the twin wrote
    lost: list[str] = field(default_factory=list)
    altered: list[str] = field(default_factory=list)

    def row(self) -> dict:
        return {"framing": self.framing, "records_in": self.records_in, "counted": self.counted,
                "expected": self.expected, "lost": len(self.lost), "altered": len(self.altered),
                "examples": (self.lost + self.altered)[:3]}


def integrity(files: list[FuzzFile], run: Path, twin: Path) -> dict[str, Integrity]:
    """Per framing: records in and counted, expected records lost, records written with another text."""
    got, ref, counted = shard_docs(run), shard_docs(twin), unit_records(run)
    out: dict[str, Integrity] = {}
    for f in files:
        row = out.setdefault(f.framing, Integrity(f.framing))
        stem = shard_name(0, Source("warc", str(f.path)).name, False).split("-", 1)[1].removesuffix(".jsonl")
        written, reference = got.get(stem, {}), ref.get(stem, {})
        row.records_in += f.records + (1 if f.framing.startswith("arc") else 0)  # ARC's filedesc record
        row.counted += counted.get(stem, 0)
        for key in f.pristine + f.repairable:
            if key in reference:
                row.expected += 1
                if key not in written:
                    row.lost.append(key)
        # kept partial and counted as truncated; or bytes changed in place with no digest to tell
        cut = {k for k, m in f.mutated.items() if "file_cut" in m or "no_digest" in m}
        own = "http://fuzz" if f.key == "url" else "fuzz-"
        row.altered += [k for k, text in written.items() if k.startswith(own) and k not in cut
                        and reference.get(k) != text]
    return out
