"""Benchmark and test inputs built from the shared real data (../shared/data), never copied into the repo.

``shared_data()`` is the one place that finds that folder ($WEBPRUNE_SHARED, else
``../shared/data`` beside the project). ``pack_cleaning_pages`` packs the ~2,900
real pages of its cleaning sets into WARC files, repeated with new ids where a
benchmark needs more records than there are pages.
"""
from __future__ import annotations

import re
from pathlib import Path

from eval.cleaning.gold import shared_root
from webprune.warcpack import pack_pages

ROOT = Path(__file__).resolve().parent.parent
_URL = re.compile(rb'^<text id="([^"]+)"')


def shared_data(*parts: str) -> Path:
    """A path under the shared data folder; FileNotFoundError saying where it was looked for."""
    base = shared_root()
    path = base.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"{path}: shared data not found; put it at {ROOT.parent / 'shared' / 'data'} "
                                "or set WEBPRUNE_SHARED")
    return path


def cleaning_pages(sets: list[str] | None = None) -> list[Path]:
    """The input pages of the cleaning sets (all five by default), in a stable order."""
    root = shared_data("cleaning")
    pages = sorted(p for s in (sets or sorted(d.name for d in root.iterdir())) for p in (root / s).glob("input/*.html"))
    if not pages:
        raise FileNotFoundError(f"no pages under {root}/*/input")
    return pages


def page_record(page: Path, copy: int = 0) -> tuple[str, str, bytes]:
    """(id, url, bytes) of a page: id ``<set>/<stem>`` (``#<copy>`` for repeats), CleanEval's URL where it has one."""
    data = page.read_bytes()
    m = _URL.match(data)
    set_name = page.parent.parent.name
    url = m.group(1).decode("utf-8", "replace") if m else f"http://{set_name}.invalid/{page.stem}"
    return f"{set_name}/{page.stem}" + (f"#{copy}" if copy else ""), url, data


def pack_cleaning_pages(out_dir: str | Path, files: int = 1, copies: int = 1, limit: int | None = None,
                        prefix: str = "cleaning") -> list[Path]:
    """The cleaning pages x ``copies`` (new ids) spread round-robin over ``files`` WARCs; existing files are kept."""
    out_dir = Path(out_dir)
    paths = [out_dir / f"{prefix}-{i:03d}.warc.gz" if files > 1 else out_dir / f"{prefix}.warc.gz"
             for i in range(files)]
    if all(p.exists() for p in paths):  # the pages are read only to write a missing file
        return paths
    pages = cleaning_pages()[:limit]
    records = [page_record(p, c) for c in range(copies) for p in pages]
    for i, path in enumerate(paths):
        if not path.exists():
            pack_pages(records[i::files], path)
    return paths
