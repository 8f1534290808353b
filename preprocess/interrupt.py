"""SIGTERM handled as Ctrl-C: the run stops cleanly (lock released, Ray shut down) and can be resumed.

Without this, SIGTERM ends the driver through Ray's own handler, which prints a
native stack dump. :class:`SigtermInterrupts` raises :class:`Interrupted` (a
``KeyboardInterrupt``) in the main thread instead; ``ray.init`` installs its handler
again, so a run starts Ray inside :meth:`SigtermInterrupts.starting_ray`.
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal; ``status`` is the shell's exit status for it (130 Ctrl-C, 143 SIGTERM)."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.status = 128 + signum


_received: list[int] = []  # the signals SigtermInterrupts turned into Interrupted (Ray re-raises a plain one)


def exit_status(exc: KeyboardInterrupt) -> int:
    return getattr(exc, "status", 128 + (_received[-1] if _received else signal.SIGINT))


class SigtermInterrupts:
    """While inside, SIGTERM raises :class:`Interrupted` (once: a second SIGTERM during the clean-up is ignored)."""

    def __init__(self):
        self.previous = None
        self.fired = False
        self.main = threading.current_thread() is threading.main_thread()

    def _handler(self, signum, frame):
        if not self.fired:
            self.fired = True
            _received.append(signum)
            raise Interrupted(signum)

    def rearm(self) -> None:
        if self.main:
            signal.signal(signal.SIGTERM, self._handler)

    @contextmanager
    def starting_ray(self):
        """Around ``ray.init``: its SIGTERM handler (``sys.exit(15)``) is set while Ray starts; a SIGTERM then
        ends as an Interrupted too, and ours is set again once Ray is up."""
        try:
            yield
        except SystemExit as exc:
            if exc.code == signal.SIGTERM:
                _received.append(signal.SIGTERM)
                raise Interrupted(signal.SIGTERM) from None
            raise
        self.rearm()

    def __enter__(self) -> "SigtermInterrupts":
        if self.main:
            self.previous = signal.signal(signal.SIGTERM, self._handler)
        return self

    def __exit__(self, *exc) -> None:
        if self.main and self.previous is not None:  # the handler from before (Ray's, set meanwhile, is dropped)
            signal.signal(signal.SIGTERM, self.previous)


def stop_ray() -> None:
    """After an interrupt: shut Ray down, so no task of the stopped run keeps writing. Ray's native threads log
    the tasks it ends ("Failed to push error to driver"): their stderr is muted meanwhile."""
    import os
    import sys

    ray = sys.modules.get("ray")
    if ray is None or not ray.is_initialized():
        return
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        ray.shutdown()
    except Exception:  # noqa: BLE001 -- already stopping
        pass
    finally:
        os.dup2(saved, 2)
        os.close(saved)
