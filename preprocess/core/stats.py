"""Counters and timers for a preprocessing run, and the accounting rule.

Every input record ends in exactly one outcome: ``written``, ``skipped.<reason>``
or ``failed.<reason>``; ``records`` counts them all, so
``records == written + sum(skipped.*) + sum(failed.*)`` must hold for a run.
"""
from __future__ import annotations

import resource
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path


class Stats:
    MAX_EXAMPLES = 5  # record ids kept per skip/fail reason, so a user can look at them
    MAX_SLOWEST = 10  # the slowest batches (pages, with --batch-size 1), kept over the whole run

    def __init__(self, counts: dict | None = None, times: dict | None = None, examples: dict | None = None,
                 slowest: list | None = None):
        self.counts: Counter = Counter(counts or {})
        self.times: dict[str, dict[str, float]] = {k: dict(v) for k, v in (times or {}).items()}
        self.examples: dict[str, list[str]] = {k: list(v) for k, v in (examples or {}).items()}
        self.slowest: list[list] = [list(x) for x in (slowest or [])]  # [seconds, "id (source)"]
        self.ledger: list[tuple[str, str]] | None = None  # (record id, outcome) of each record, when asked for

    def slow(self, seconds: float, what: str) -> None:
        """Keep ``what`` if it is among the ``MAX_SLOWEST`` slowest."""
        if len(self.slowest) < self.MAX_SLOWEST or seconds > self.slowest[-1][0]:
            self.slowest.append([round(seconds, 3), what])
            self.slowest.sort(key=lambda x: -x[0])
            del self.slowest[self.MAX_SLOWEST:]

    # -- counting ---------------------------------------------------------
    def update(self, key: str, value: int | float = 1) -> None:
        self.counts[key] += value

    def outcome(self, kind: str, reason: str | None = None, example: str | None = None, rid: str = "") -> None:
        """Record the final outcome of one record: kind is written/skipped/failed; ``rid`` names the record
        (its id, or ``@offset`` when it has none) in the per-record ledger, if one is kept."""
        key = "written" if kind == "written" else f"{kind}.{reason}"
        self.counts[key] += 1
        if example is not None:
            self.note(key, example)
        if self.ledger is not None:
            self.ledger.append((rid, key))

    def note(self, key: str, example: str) -> None:
        kept = self.examples.setdefault(key, [])
        if len(kept) < self.MAX_EXAMPLES:
            kept.append(example)

    @contextmanager
    def timer(self, stage: str):
        w, c = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.add_time(stage, time.perf_counter() - w, time.process_time() - c)

    def add_time(self, stage: str, wall: float, cpu: float) -> None:
        t = self.times.setdefault(stage, {"wall_s": 0.0, "cpu_s": 0.0})
        t["wall_s"] += wall
        t["cpu_s"] += cpu

    def merge(self, other: "Stats") -> "Stats":
        self.counts.update(other.counts)
        for key, exs in other.examples.items():
            for ex in exs:
                self.note(key, ex)
        for stage, t in other.times.items():
            self.add_time(stage, t["wall_s"], t["cpu_s"])
        for seconds, what in other.slowest:
            self.slow(seconds, what)
        return self

    # -- accounting -------------------------------------------------------
    def group(self, prefix: str) -> dict[str, int]:
        p = prefix + "."
        return {k[len(p):]: v for k, v in sorted(self.counts.items()) if k.startswith(p)}

    def unaccounted(self) -> int:
        """Records neither written, skipped nor failed (0 for a correct run)."""
        done = self.counts["written"] + sum(self.group("skipped").values()) + sum(self.group("failed").values())
        return self.counts["records"] - done

    def to_dict(self) -> dict:
        return {
            "records": self.counts["records"],
            "written": self.counts["written"],
            "skipped": self.group("skipped"),
            "failed": self.group("failed"),
            "unaccounted": self.unaccounted(),
            "counters": {k: v for k, v in sorted(self.counts.items())
                         if not k.startswith(("skipped.", "failed.")) and k not in ("records", "written")},
            "times": {k: {kk: round(vv, 4) for kk, vv in v.items()} for k, v in sorted(self.times.items())},
            "examples": dict(sorted(self.examples.items())),
            "slowest": self.slowest,
        }

    def to_state(self) -> dict:
        """Everything, for sending between processes and merging (``from_state``)."""
        return {"counts": dict(self.counts), "times": self.times, "examples": self.examples, "slowest": self.slowest}

    @classmethod
    def from_state(cls, state: dict) -> "Stats":
        return cls(state.get("counts"), state.get("times"), state.get("examples"), state.get("slowest"))

    def write(self, path: Path, extra: dict | None = None) -> None:
        data = self.to_dict() | (extra or {})
        tmp = Path(str(path) + ".tmp")
        from preprocess.core.ids import json_text

        tmp.write_text(json_text(data, indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB. Linux's VmHWM first: ``ru_maxrss`` also keeps the memory
    of the process that forked this one before it exec'ed (a driver started from a big benchmark process)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
