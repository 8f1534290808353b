"""Crash and stall isolation inside a unit: one bad record fails alone, never its batch or its file.

Before each batch the worker writes an attempt marker (``OUT/work/<unit key>.json``)
naming the records in flight, and arms a watchdog. If the worker dies -- a native
crash in a parser, an out-of-memory kill, or the watchdog ending a page that runs
past ``page_timeout`` -- Ray retries the unit, and the retry reads the marker:

* the batch that was in flight is redone one record at a time, the marker naming
  each record before it runs;
* a record named by the marker of a dead attempt is the poison: it is counted as
  ``failed.native_crash`` (or ``failed.timeout`` when the watchdog ended it) and
  skipped; everything else is cleaned as usual.

An attempt stopped by a signal (SIGTERM, Ctrl-C: its run is being stopped, or the whole
service) is no crash: it takes its records in flight off the marker before it ends, so a
retry blames none of them and a unit entry never counts them as failed.

Only attempts of the same run count: a marker carries its run's id, and Ray's retries
run within one run. A marker left by another run -- one stopped by Ctrl-C, SIGTERM or
``kill -9``, whose workers were ended with it -- says nothing about its records: that
attempt was cancelled, not crashed, and the unit is simply done again from the start.

Two retries find a poison record (batch, then the record). The Python watchdog
writes its note and exits the process; a stall inside C code that holds the GIL is
ended by ``faulthandler``'s own thread a little later (counted as a crash).
"""
from __future__ import annotations

import faulthandler
import logging
import os
import sys
import threading
import time
from typing import Iterable, Iterator

from preprocess.core.document import Document
from preprocess.folder.output import OutputDir
from preprocess.core.stats import Stats

log = logging.getLogger("webprune.preprocess")
HARD_KILL_EXTRA_S = 15.0  # faulthandler's backstop after the Python watchdog's deadline


class _Watchdog:
    """One per process: ends it when the records in flight run past their deadline, noting it in the marker first."""

    _instance: "_Watchdog | None" = None

    def __init__(self):
        self.guard: AttemptGuard | None = None
        self.deadline: float | None = None
        self.lock = threading.Condition()  # the watch sleeps until the deadline, woken when it is set again
        threading.Thread(target=self._watch, name="webprune-watchdog", daemon=True).start()

    @classmethod
    def get(cls) -> "_Watchdog":
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def arm(self, guard: "AttemptGuard", seconds: float) -> None:
        with self.lock:
            self.guard, self.deadline = guard, time.monotonic() + seconds
            self.lock.notify()
        faulthandler.dump_traceback_later(seconds + HARD_KILL_EXTRA_S, exit=True, file=sys.__stderr__)

    def disarm(self) -> None:
        with self.lock:
            self.deadline = None
        faulthandler.cancel_dump_traceback_later()

    def _watch(self) -> None:
        """Sleep until the deadline of the records in flight (not a fixed tick: a page past it is always caught)."""
        with self.lock:
            while True:
                if self.deadline is None:
                    self.lock.wait()
                    continue
                left = self.deadline - time.monotonic()
                if left > 0:
                    self.lock.wait(left)
                    continue
                guard = self.guard
                break
        guard.note_timeout()
        log.error("a record of %s ran past --page-timeout; ending this worker so it is retried without it",
                  guard.source)
        os._exit(3)


class AttemptGuard:
    def __init__(self, out: OutputDir, unit_key: str, source: str, page_timeout: float, watchdog: bool = True,
                 run: str = ""):
        self.out, self.name, self.source, self.run = out, f"{unit_key}.json", source, run
        self.page_timeout = page_timeout
        self.state = out.read_json("work", self.name) or {}
        self.cancelled = bool(self.state) and self.state.get("run", "") != run
        if self.cancelled:  # another run's attempt, stopped with its run: no evidence against any record
            log.info("%s: an attempt of an earlier, stopped run is redone from the start", source)
            self.state = {}
        self.lost = int(self.state.get("attempt", 0))  # earlier attempts of this unit that died
        self.stops = int(self.state.get("stopped", 0))  # earlier attempts stopped by a signal (no evidence)
        self.poison = {int(k): v for k, v in self.state.get("poison", {}).items()}
        self._inflight: dict = {}
        self.finished = False
        last = self.state.get("inflight")
        if last:  # the attempt before this one died with these records in flight
            if last["first"] == last["last"]:
                self.poison[last["first"]] = "timeout" if last.get("timeout") else "native_crash"
            self.suspect = (last["first"], last["last"])
        else:
            self.suspect = tuple(self.state.get("suspect") or ()) or None
        self.dog = _Watchdog.get() if watchdog and page_timeout > 0 else None
        if self.poison or self.suspect:
            log.warning("%s: retrying after a worker died (suspect records %s, poison %s)", source,
                        self.suspect, sorted(self.poison))

    def _mark(self, first: int, last: int) -> None:
        self._inflight = {"first": first, "last": last, "pid": os.getpid()}
        self._write(self._inflight)

    def _write(self, inflight: dict) -> None:
        self.out.write_json({"run": self.run, "attempt": self.lost + 1, "stopped": self.stops, "poison": self.poison,
                             "suspect": self.suspect, "inflight": inflight}, "work", self.name)

    def note_timeout(self) -> None:
        if self._inflight:
            self._write(self._inflight | {"timeout": True})

    def batches(self, docs: Iterable[Document], size: int, stats: Stats) -> Iterator[list[Document]]:
        """Batches of ``docs``, numbered in reading order; poison records are counted and left out."""
        batch: list[tuple[int, Document]] = []
        for n, doc in enumerate(docs):
            if n in self.poison:
                reason = self.poison[n]
                stats.outcome("failed", reason, rid=doc.id, example=f"{doc.id} ({doc.source}): record {n} "
                              f"{'ran past --page-timeout' if reason == 'timeout' else 'killed its worker'}")
                log.error("%s: record %d (%s) %s; it is counted as failed.%s", doc.source, n, doc.id,
                          "ran past the page timeout" if reason == "timeout" else "crashed its worker", reason)
                continue
            batch.append((n, doc))
            if len(batch) >= size:
                yield from self._run(batch)
                batch = []
        if batch:
            yield from self._run(batch)
        if self.dog is not None:
            self.dog.disarm()

    def _run(self, batch: list[tuple[int, Document]]) -> Iterator[list[Document]]:
        first, last = batch[0][0], batch[-1][0]
        careful = self.suspect is not None and first <= self.suspect[1] and last >= self.suspect[0]
        groups = [[item] for item in batch] if careful else [batch]
        for group in groups:
            self._mark(group[0][0], group[-1][0])
            if self.dog is not None:
                self.dog.arm(self, self.page_timeout)
            yield [doc for _, doc in group]
            if self.dog is not None:
                self.dog.disarm()

    def stopped(self) -> None:
        """The attempt was stopped by a signal (SIGTERM, Ctrl-C), not crashed: its records in flight are no
        suspects; a retry keeps only what earlier deaths showed, and counts the stop."""
        if self.finished:
            return
        if self.dog is not None:
            self.dog.disarm()
        self._inflight = {}
        self.out.write_json({"run": self.run, "attempt": self.lost, "stopped": self.stops + 1, "poison": self.poison,
                             "suspect": self.suspect, "inflight": {}}, "work", self.name)

    def done(self) -> None:
        """The unit finished: its marker goes."""
        self.out.delete("work", self.name)
        self.finished = True
