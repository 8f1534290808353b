"""One progress display for a whole run: records over all units, rate and ETA.

On a terminal a tqdm bar measures input bytes (so the ETA is real before the
record count is known) and shows records and records/s beside it; without one
(logs, nohup, CI) a line is logged every 30 s. Records come from the workers
through the executor's counter (started when first asked, so the first reading
counts the finished units only); bytes from the sizes of the finished units plus
an estimate for the running ones.
"""
from __future__ import annotations

import logging
import sys
import time

log = logging.getLogger("webprune.preprocess")
LOG_EVERY_S = 30.0


class Progress:
    def __init__(self, units, finished, executor, enabled: bool | None = None):
        self.executor = executor
        self.total_bytes = sum(u.source.size for u in units) or 1
        self.units = len(units)
        self.done_units = 0
        self.done_bytes = 0
        self.base_records = 0
        for r in finished:  # reused from an earlier run
            self.done_units += 1
            self.base_records += r.stats.get("counts", {}).get("records", 0)
        reused = {r.index for r in finished}
        self.done_bytes = sum(u.source.size for u in units if u.index in reused)
        self.done_records_of_fresh = 0
        self.bytes_of_fresh = 0
        self.t0 = self.last_log = time.perf_counter()
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.bar = None
        if self.enabled:
            from tqdm import tqdm

            self.bar = tqdm(total=self.total_bytes, initial=self.done_bytes, unit="B", unit_scale=True,
                            desc="preprocess", dynamic_ncols=True, smoothing=0.05)

    def _records(self) -> int:
        """Records read so far; at least those of the finished units (the executor's counter may only be starting)."""
        try:
            return max(self.executor.records(), self.done_records_of_fresh)
        except Exception:  # noqa: BLE001 -- progress must never fail a run
            return self.done_records_of_fresh

    def tick(self) -> None:
        now = time.perf_counter()
        if self.bar is None and now - self.last_log < LOG_EVERY_S:
            return
        records = self._records()
        # bytes of the running units, estimated from their records at the finished units' bytes per record
        per_record = self.bytes_of_fresh / self.done_records_of_fresh if self.done_records_of_fresh else None
        running = (records - self.done_records_of_fresh) * per_record if per_record else 0
        done = min(self.done_bytes + running, self.total_bytes)
        rate = records / max(now - self.t0, 1e-9)
        if self.bar is not None:
            self.bar.n = int(done)
            self.bar.set_postfix_str(f"{self.base_records + records:,} rec, {rate:,.0f} rec/s, "
                                     f"units {self.done_units}/{self.units}", refresh=False)
            self.bar.refresh()
        else:
            self.last_log = now
            frac = done / self.total_bytes
            eta = (now - self.t0) * (1 - frac) / frac if frac > 0 else None
            log.info("preprocess: %s records (%.0f/s), %d/%d units, %.0f%% of the input%s",
                     f"{self.base_records + records:,}", rate, self.done_units, self.units, 100 * frac,
                     f", about {eta / 60:.0f} min left" if eta else "")

    def unit_done(self, unit, result) -> None:
        self.done_units += 1
        self.done_bytes += unit.source.size
        self.bytes_of_fresh += unit.source.size
        self.done_records_of_fresh += result.stats.get("counts", {}).get("records", 0)
        self.tick()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class UnitProgress:
    """A worker's reports to the driver's progress counter: the records read, at most twice a second; what a
    counter not there yet could not take is sent with the next report, tried again after ``RETRY_S`` (a counter
    the driver has not started yet costs a lookup each time) or at the unit's end."""

    EVERY_S, RETRY_S = 0.5, 5.0

    def __init__(self, progress):
        self.progress, self.sent, self.next = progress, 0, 0.0

    def __call__(self, stats, force: bool = False) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if force or now >= self.next:
            n = stats.counts["records"]
            if n > self.sent:
                if self.progress.add(n - self.sent):
                    self.sent, self.next = n, now + self.EVERY_S
                else:
                    self.next = now + self.RETRY_S
