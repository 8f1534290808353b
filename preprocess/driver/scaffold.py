"""The frame every driver runs in: the output folder's lock, stop signals, the executor, and what an interrupt
stops.

:func:`driving` holds the lock (at once when the folder exists; else once the executor has started and
``make_folder`` made it, so a bad ``--address`` leaves nothing behind), handles SIGTERM as Ctrl-C (a signal while
Ray starts is acted on once it is up), starts the executor and closes it at the end, and stops Ray when the run
is interrupted, so no task of the run goes on writing.
"""
from __future__ import annotations

from contextlib import ExitStack, contextmanager

from preprocess.runtime.executor import make_executor
from preprocess.runtime.interrupt import SigtermInterrupts, stop_ray


@contextmanager
def driving(executor: str, workers: int | None = None, address: str | None = None, lock=None,
            make_folder=None, **executor_options):
    """``with driving(...) as ex:``: ``lock`` (an OutputLock, or None) held; ``make_folder`` (or None: the folder
    exists) makes the folder once the executor is up, before the lock is taken."""
    with SigtermInterrupts() as sigterm, ExitStack() as held:
        if lock is not None and make_folder is None:
            held.enter_context(lock)
        try:
            with sigterm.starting_ray():
                ex = make_executor(executor, workers, address, **executor_options)
        except KeyboardInterrupt:
            stop_ray()
            raise
        stopped = False
        try:
            if lock is not None and make_folder is not None:
                make_folder()
                held.enter_context(lock)
            yield ex
        except KeyboardInterrupt:
            stopped = True
            raise
        finally:
            ex.close()
            if stopped:
                stop_ray()
