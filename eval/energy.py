"""Measure a stage: wall seconds, CPU seconds (this process and the children it waited for), and
codecarbon's figure.

codecarbon runs as an ``OfflineEmissionsTracker`` (no network) in ``process`` mode, which follows
this process and its children (the JVM of an index build, Ray's workers). Where the machine has
no RAPL counters codecarbon estimates CPU power from the CPU load and a per-model TDP table (or
4 W per thread for a CPU it does not know); the method it used is recorded with the figure.
"""
from __future__ import annotations

import logging
import platform
import resource
import time
import warnings


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _tracker(country: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from codecarbon import OfflineEmissionsTracker

        logging.getLogger("codecarbon").setLevel(logging.ERROR)  # after the import, which sets its own level
        return OfflineEmissionsTracker(country_iso_code=country, save_to_file=False, log_level="error",
                                       tracking_mode="process", measure_power_secs=5)


def _codecarbon_figure(tracker) -> dict:
    d = tracker.final_emissions_data
    import codecarbon

    methods = {}
    for h in getattr(tracker, "_hardware", []):  # which estimate codecarbon used on this machine
        mode = getattr(h, "_mode", None) or getattr(h, "_tracking_method", None)
        if mode is not None:
            methods[type(h).__name__] = str(mode)
    return {"kg": float(d.emissions), "kwh": float(d.energy_consumed), "cpu_power_w": float(d.cpu_power),
            "ram_power_w": float(d.ram_power), "duration_s": float(d.duration), "cpu_model": d.cpu_model,
            "country": d.country_name, "methods": methods, "version": codecarbon.__version__}


class Meter:
    """``with Meter(codecarbon=True) as m: ...``; then ``m.result`` = {"wall_s", "cpu_s", "codecarbon"}."""

    def __init__(self, codecarbon: bool = False, country: str = "ESP"):
        self.codecarbon, self.country, self.result = codecarbon, country, {}
        self._tracker = None

    def __enter__(self):
        if self.codecarbon:
            self._tracker = _tracker(self.country)
            self._tracker.start()
        self._t0, self._c0, self._k0 = time.perf_counter(), time.process_time(), _children_cpu()
        return self

    def __exit__(self, *exc):
        wall = time.perf_counter() - self._t0
        self.result = {"wall_s": round(wall, 4), "cpu_s": round(time.process_time() - self._c0, 4),
                       "cpu_s_children": round(_children_cpu() - self._k0, 4)}
        if self._tracker is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self._tracker.stop()
            self.result["codecarbon"] = _codecarbon_figure(self._tracker)
        return False


class Tasks:
    """Many short measurements on one codecarbon tracker (its ``start_task``/``stop_task``): a tracker
    takes about 2 s to start, a task nothing. ``measure(fn)`` -> {"wall_s", "cpu_s", "codecarbon"}."""

    def __init__(self, codecarbon: bool = False, country: str = "ESP"):
        self.tracker = _tracker(country) if codecarbon else None

    def measure(self, fn) -> dict:
        if self.tracker is not None:
            self.tracker.start_task()
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        out = {"wall_s": round(time.perf_counter() - t0, 4), "cpu_s": round(time.process_time() - c0, 4)}
        if self.tracker is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                d = self.tracker.stop_task()
            out["codecarbon"] = {"kg": float(d.emissions), "kwh": float(d.energy_consumed)}
        return out

    def describe(self) -> dict | None:
        """The method codecarbon used, as :class:`Meter` records it (without a stage's figures)."""
        if self.tracker is None:
            return None
        import codecarbon

        methods = {type(h).__name__: str(getattr(h, "_mode", None) or getattr(h, "_tracking_method", None))
                   for h in getattr(self.tracker, "_hardware", [])
                   if getattr(h, "_mode", None) or getattr(h, "_tracking_method", None)}
        return {"methods": methods, "version": codecarbon.__version__, "cpu_model": cpu_model(),
                "country": getattr(self.tracker, "_country_name", None) or "?"}


def warm_worker(shared, item, progress=None) -> int:
    """A no-op unit for an executor's ``map``: the worker imports the cleaning code (every registered
    step) before any stage is measured, so the first variant does not pay for it."""
    import os

    import preprocess.run.worker  # noqa: F401
    from preprocess.config.registry import CLEANERS, FILTERS, step_class

    for ref in [c.step for c in CLEANERS.values() if c.step] + [f.step for f in FILTERS]:
        try:
            step_class(ref)
        except Exception:  # noqa: BLE001 -- a warm-up only
            pass
    return os.getpid()
