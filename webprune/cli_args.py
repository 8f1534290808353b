"""Argument types and checks of the ``webprune`` command: a bad value is refused in one line before anything
runs or is written (argparse turns an ``ArgumentTypeError`` into ``webprune X: error: argument --flag: ...``)."""
from __future__ import annotations

import argparse
import math
from pathlib import Path

from preprocess.train_crawl.options import MEMORY  # lmplz -S: a share of RAM or a size

class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line that says where to look, not the whole usage."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")




def path(text: str) -> str:
    """A file or folder name: refused when empty (``-o ""`` would be the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path: give a file or folder name")
    return text


def at_least(low: int):
    """A whole number >= ``low``."""
    def whole(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < low:
            raise argparse.ArgumentTypeError(f"{n}: give a whole number >= {low}")
        return n
    return whole


def seconds(text: str) -> float:
    """A finite number of seconds >= 0 (nan and inf refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text}: give a finite number of seconds >= 0 (0: no limit)")
    return value


def memory(text: str) -> str:
    """lmplz's sort memory: ``10%`` of RAM or a size such as ``2G``."""
    if not MEMORY.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r}: give a share of RAM such as 10% or a size such as 2G")
    return text


def output_file(path: str | None, flag: str) -> str | None:
    """Check an output file path before any work is done, creating nothing: not a folder, and no file where its
    folder should be (the folder itself is made when the file is written)."""
    if path is None:
        return None
    p = Path(path)
    if not str(path).strip():
        raise ValueError(f"{flag} is empty: give a file name")
    if p.is_dir():
        raise ValueError(f"{flag} {path} is a folder; give a file name, e.g. {p / 'result.json'}")
    parent = next((a for a in p.absolute().parents if a.exists()), None)
    if parent is not None and not parent.is_dir():
        raise ValueError(f"{flag} {path}: {parent} is a file, not a folder; give another path")
    return path
