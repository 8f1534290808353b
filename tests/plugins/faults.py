"""Test-only cleaners that misbehave on purpose: a page that kills its worker, a page that stalls, slow pages.

``abort``: a page holding ``WEBPRUNE-ABORT`` aborts the process, as a native crash in a parser
would (the stand-in for a real crashing page); one holding ``WEBPRUNE-PANIC`` raises what pyo3 raises for a
panic of a Rust library (``PanicException``, a ``BaseException``); one holding ``WEBPRUNE-STALL`` sleeps far past any
page timeout, one holding ``WEBPRUNE-LATE`` a little past a 1 s one (1.15 s). ``slow``: every page takes ``SLOW_S`` seconds, so a test can kill a worker mid-unit.
"""
import os
import time

from preprocess.config.registry import Cleaner, register
from preprocess.steps.base import Step

SLOW_S = float(os.environ.get("WEBPRUNE_TEST_SLOW_S", "0.05"))


class PanicException(BaseException):
    """pyo3's exception for a panic of Rust code (sentencex's on some inputs), as the pipeline meets it."""


class Abort(Step):
    name = "abort"

    def process(self, doc):
        text = doc.tree.body.text if doc.tree is not None and doc.tree.body is not None else ""
        if "WEBPRUNE-ABORT" in text:
            os.abort()
        if "WEBPRUNE-PANIC" in text:
            raise PanicException("byte index 2 is not a char boundary")
        if "WEBPRUNE-STALL" in text:
            time.sleep(3600)
        if "WEBPRUNE-LATE" in text:
            time.sleep(1.15)
        return doc


class Slow(Step):
    name = "slow"

    def process(self, doc):
        time.sleep(SLOW_S)
        return doc


register(Cleaner("abort", "tests.plugins.faults:Abort", "test only: aborts on a marked page", kitten=False))
register(Cleaner("slow", "tests.plugins.faults:Slow", "test only: slow pages", kitten=False))
