"""Failures of native libraries that Python does not raise as ``Exception``."""
from __future__ import annotations

import logging

log = logging.getLogger("webprune.preprocess")
_noted = False


def native_panic(exc: BaseException) -> bool:
    """A panic of a Rust library's code (sentencex's), raised into Python by pyo3 as ``PanicException``, which
    derives from ``BaseException``: the input's problem, not a stop of the run."""
    return type(exc).__name__ == "PanicException" and not isinstance(exc, Exception)


def note_panic(what: str, text: str, exc: BaseException) -> None:
    """Log what a panic cost: a warning the first time in a process, then at debug level."""
    global _noted
    level = logging.DEBUG if _noted else logging.WARNING
    _noted = True
    log.log(level, "%s panicked on %r (%s): %s", what, text[:80], str(exc)[:200],
            "the line is kept whole, as one sentence")
