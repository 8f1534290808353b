"""Stop signals: SIGTERM handled as Ctrl-C, so a stopped run ends cleanly (lock released, Ray shut down) and resumes.

:class:`SigtermInterrupts` raises :class:`Interrupted` (a ``KeyboardInterrupt``) in the main thread for SIGTERM
and SIGINT, and notes each signal: a failure seen after a stop signal was sent is the stop's doing (workers
killed by the same signal), never a crash (:func:`raise_if_stopping`). A stopped run exits 130 or 143, always.

Ray is kept out of the way of a stop: its start-up is never interrupted (a signal while ``ray.init`` runs is held
until Ray is up: a KeyboardInterrupt inside it crashed the driver, Ray's own SIGTERM handlers exit with status
1), and its local daemons run in their own process group (:func:`ray_daemons_apart`) -- a signal to the
command's process group killed the raylet, whose loss ends the driver at once with status 1.
"""
from __future__ import annotations

import signal
import sys
import threading
import time
from contextlib import contextmanager

STOPS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal; ``status`` is the shell's exit status for it (130 Ctrl-C, 143 SIGTERM)."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.status = 128 + signum


_received: list[int] = []  # the stop signals this process got (a handler's note), in order
_depth = [0]  # SigtermInterrupts entered and not left
_fired = [False]  # one of them raised Interrupted for SIGTERM: the next SIGTERM is ignored


def exit_status(exc: KeyboardInterrupt) -> int:
    return getattr(exc, "status", 128 + (_received[-1] if _received else signal.SIGINT))


def stop_signal() -> int | None:
    """The stop signal this process got inside :class:`SigtermInterrupts`, or was sent and has not handled yet
    (pending); None if none."""
    if _received and _depth[0]:
        return _received[-1]
    pending = [s for s in signal.sigpending() if s in STOPS] if hasattr(signal, "sigpending") else []
    return max(pending) if pending else None


def raise_if_stopping(wait_s: float = 1.0) -> None:
    """Called before a failure is counted: if a stop signal was sent, raise :class:`Interrupted` instead (the
    failure is a worker of this run killed by the same signal). A signal not handled yet is given ``wait_s``
    for its handler to raise."""
    signum = stop_signal()
    if signum is None:
        return
    deadline = time.monotonic() + wait_s
    while not (_received and _depth[0]) and time.monotonic() < deadline:
        time.sleep(0.01)  # the handler runs in this (main) thread and raises
    raise Interrupted(stop_signal() or signum)


class SigtermInterrupts:
    """While inside, SIGTERM and SIGINT raise :class:`Interrupted` in the main thread, noted in ``_received``.
    A second SIGTERM during the clean-up is ignored; a second Ctrl-C interrupts it, as Python's would."""

    def __init__(self):
        self.previous: dict = {}
        self.held: list[int] = []  # signals received while Ray starts (starting_ray)
        self.holding = False
        self.main = threading.current_thread() is threading.main_thread()

    def _handler(self, signum, frame):
        _received.append(signum)
        if self.holding and not self.held:
            self.held.append(signum)  # raised once Ray is up; a second one raises now
            return
        if signum == signal.SIGINT or not _fired[0]:
            _fired[0] = True
            raise Interrupted(signum)

    def rearm(self) -> None:
        if self.main:
            for signum in STOPS:
                signal.signal(signum, self._handler)

    @contextmanager
    def starting_ray(self):
        """Around ``ray.init``: a stop signal is held until Ray is up, then raised (Ray's SIGTERM handlers are not
        set meanwhile; should one be, its ``sys.exit(15)`` is an Interrupted too)."""
        self.holding = True
        try:
            with _ray_keeps_our_sigterm_handler():
                yield
        except SystemExit as exc:
            if exc.code != signal.SIGTERM:
                raise
            _received.append(signal.SIGTERM)
            self.held.append(signal.SIGTERM)
        finally:
            self.holding = False
            self.rearm()
            if self.held:
                _fired[0] = True
                raise Interrupted(self.held[0]) from None

    def __enter__(self) -> "SigtermInterrupts":
        if self.main:
            if not _depth[0]:  # the outermost one: an earlier command's signals say nothing about this one
                _received.clear()
                _fired[0] = False
            _depth[0] += 1
            self.previous = {signum: signal.signal(signum, self._handler) for signum in STOPS}
        return self

    def __exit__(self, *exc) -> None:
        if self.main:
            _depth[0] -= 1
        for signum, handler in self.previous.items():  # the handlers from before (Ray's, set meanwhile, dropped)
            if handler is not None:
                signal.signal(signum, handler)


@contextmanager
def _ray_keeps_our_sigterm_handler():
    """While ``ray.init`` runs, its calls to set a SIGTERM handler (``sys.exit`` on SIGTERM, and the head node's
    "kill every process, exit 1") do nothing: a stopped run is shut down by :func:`stop_ray`. The driver's core
    worker installs no C++ failure-signal handler either: a stop signal between its start and the end of
    ``ray.init`` printed a crash dump ("*** SIGTERM received", a stack) before our handler saw it. Ray's workers
    keep theirs (their own processes)."""
    try:
        import ray._private.ray_constants as constants
        import ray._private.utils as utils
    except ImportError:  # Ray's private helper moved: its handlers are set, and starting_ray copes with sys.exit(15)
        yield
        return
    saved_setter = utils.set_sigterm_handler
    saved_flag = getattr(constants, "RAY_DISABLE_FAILURE_SIGNAL_HANDLER", None)  # None: this Ray has none
    utils.set_sigterm_handler = lambda handler: None
    constants.RAY_DISABLE_FAILURE_SIGNAL_HANDLER = True
    try:
        yield
    finally:
        utils.set_sigterm_handler = saved_setter
        if saved_flag is None:
            del constants.RAY_DISABLE_FAILURE_SIGNAL_HANDLER
        else:
            constants.RAY_DISABLE_FAILURE_SIGNAL_HANDLER = saved_flag


@contextmanager
def ray_daemons_apart():
    """Around ``ray.init``: the local Ray daemons it starts (GCS, raylet, and through it the agents) get their own
    process group, as Ray's workers have, so a signal to the command's process group (a shell's job control,
    ``kill -- -PGID``) reaches the driver alone, which then shuts them down. Only where the kernel ends them with
    the driver (Linux), as Ray itself does on Windows; elsewhere, or if Ray's private launcher moved, no change."""
    try:
        import ray._private.services as services
        from ray._private.utils import detect_fate_sharing_support
    except ImportError:
        yield
        return
    saved = getattr(services, "ConsolePopen", None)
    if saved is None or not sys.platform.startswith("linux") or not detect_fate_sharing_support():
        yield
        return

    class OwnGroupPopen(saved):
        def __init__(self, *args, **kwargs):
            kwargs.setdefault("process_group", 0)
            super().__init__(*args, **kwargs)

    services.ConsolePopen = OwnGroupPopen
    try:
        yield
    finally:
        services.ConsolePopen = saved


@contextmanager
def noting_stops():
    """In a worker, around one unit: the stop signals that reach it are noted in the list yielded, then handled
    as before (Ray's SIGTERM handler ends the worker with SystemExit, a driver's raises Interrupted)."""
    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return
    previous = {signum: signal.getsignal(signum) for signum in STOPS}
    previous = {signum: before for signum, before in previous.items() if before is not None}  # None: not Python's

    def note(signum, frame):
        noted.append(signum)
        before = previous[signum]
        if callable(before):
            return before(signum, frame)
        if before == signal.SIG_DFL:  # end the process as the signal would have
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)
        return None

    for signum in previous:
        signal.signal(signum, note)
    try:
        yield noted
    finally:
        for signum, before in previous.items():
            signal.signal(signum, before)


def stop_ray() -> None:
    """After an interrupt: shut Ray down, so no task of the stopped run keeps writing. Ray's native threads log
    the tasks it ends ("Failed to push error to driver"): their stderr is muted meanwhile."""
    import os

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
