"""The built-in example: 12 hand-written pages (webprune/example/) packed into a WARC, 6 topics, qrels."""
from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

from webprune.experiment import run_experiment
from webprune.warcpack import pack_pages

HOST = "http://tinkerer.example/"


def example_dir() -> Path:
    return Path(str(resources.files("webprune") / "example"))


def example_config(output: Path, workers: int = 2) -> dict:
    src = example_dir()
    warc = output / "input" / "example.warc.gz"
    pages = sorted((src / "pages").glob("*.html"))
    pack_pages(((p.stem, HOST + p.name, p.read_bytes()) for p in pages), warc)
    return {
        "name": "example", "_base": str(src),
        "collection": {"inputs": [str(warc.resolve())]},
        "topics": {"path": "topics.txt", "field": "query"},
        "qrels": {"path": "qrels.txt"},
        "preprocess": {"workers": workers, "compress": True},
        "index": {"threads": 1},
        "search": {"mu": 2000, "k": 1000, "threads": 1},
        "eval": {"baseline": "tags"},
        "variants": [{"name": "tags", "cleaner": "tags"}],
    }


def run_example(output: str | Path = "runs/example", workers: int = 2, fresh: bool = True) -> dict:
    output = Path(output)
    if fresh and output.exists():
        shutil.rmtree(output)
    return run_experiment(example_config(output, workers), output)
