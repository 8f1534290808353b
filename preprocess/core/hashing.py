"""The 8-byte text hash the passes ship instead of text (sitediff's lines, feeds' page keys, train-crawl's
repeated lines and duplicate pages): BLAKE2b, little-endian, lone surrogates kept."""
from __future__ import annotations

import hashlib


def hash64(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")
