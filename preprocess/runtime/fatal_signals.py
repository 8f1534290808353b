"""The JVM's handlers of the fatal signals, kept in a process that starts Ray after the JVM.

The JVM uses SIGSEGV (and SIGBUS, SIGFPE, SIGILL) itself: safepoint polls and implicit null checks fault
on purpose and its handlers turn them into ordinary events. Ray's core worker installs handlers of its own
for those signals at every ``ray.init``; in a process whose JVM is running (a search in this process, then
a preprocess run) they take the JVM's faults, and the process dies the next time a Java thread polls.
:func:`keep_jvm_handlers` notes the handlers right after the JVM starts (``index.java``), and
:func:`restore_jvm_handlers` puts them back after ``ray.init`` (``runtime.executor``): Ray then only loses its
crash log of that process. Linux (glibc's ``sigaction``); elsewhere both do nothing.
"""
from __future__ import annotations

import ctypes
import signal
import sys

FATAL = (signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL)
_SIGACTION_BYTES = 256  # more than glibc's struct sigaction (152 bytes on x86_64 and aarch64)
_kept: dict[int, bytes] = {}


def _sigaction():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).sigaction
    except (OSError, AttributeError):
        return None


def keep_jvm_handlers() -> None:
    """Note the fatal signals' handlers now (the JVM has just started in this process)."""
    sigaction = _sigaction()
    if sigaction is None or _kept:
        return
    for sig in FATAL:
        buf = ctypes.create_string_buffer(_SIGACTION_BYTES)
        if sigaction(int(sig), None, buf) == 0:
            _kept[int(sig)] = buf.raw


def restore_jvm_handlers() -> None:
    """Put back the handlers :func:`keep_jvm_handlers` noted (nothing when no JVM started in this process)."""
    sigaction = _sigaction()
    if sigaction is None:
        return
    for sig, raw in _kept.items():
        sigaction(sig, ctypes.create_string_buffer(raw, _SIGACTION_BYTES), None)
