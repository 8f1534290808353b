"""One webprune run per output folder: ``OUT/.webprune.lock`` names the run that holds it.

The lock file holds the holder's host, pid, start time, command and run id. A second
run on the same folder is refused with a line naming the holder. A lock whose holder
is gone is taken over with a warning -- but only when that is certain: same host,
and its pid no longer runs (or now runs another process, told by its start time in
``/proc``). A lock held on another host is never taken over; the message says how to
remove it by hand.

On a local disk the lock is created atomically and whole (written aside, then hard-linked
into place, which fails if it exists; ``O_EXCL`` where links are not supported), and a
take-over moves the stale file aside first, so two runs that both find it stale cannot
both win. On an
object store (``s3://``...) there is no atomic create: the lock is best effort (the
file is written, then read back to see that it is still ours).
"""
from __future__ import annotations

import datetime
import json
import logging
import os
import shlex
import socket
import sys
import time
import uuid
from pathlib import Path

import pyarrow.fs as pafs

log = logging.getLogger("webprune.preprocess")
LOCK = ".webprune.lock"


class OutputLocked(ValueError):
    """Another webprune run holds the output folder."""


def new_run_id() -> str:
    return f"{os.getpid():x}-{uuid.uuid4().hex[:12]}"


def command_line() -> str:
    argv = list(sys.argv) or ["python"]
    name = Path(argv[0]).name
    head = "webprune" if name in ("webprune", "cli.py", "__main__.py") else name
    return shlex.join([head, *argv[1:]])


def _proc_start(pid: int) -> int | None:
    """The start time of process ``pid`` (clock ticks after boot, Linux), to tell a reused pid apart."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return int(stat.rsplit(")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def _alive(holder: dict) -> bool:
    """False only when the holder is certainly gone: same host, and its pid is dead or another process."""
    if holder.get("host") != socket.gethostname():
        return True
    pid = holder.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    started = holder.get("proc_start")
    return not (started is not None and _proc_start(pid) not in (None, started))


def describe(holder: dict) -> str:
    return (f"pid {holder.get('pid')} on {holder.get('host')}, started {holder.get('started')}, "
            f"command: {holder.get('command')}")


class OutputLock:
    """``with OutputLock(fs, root, uri):`` holds the folder for this run; released on leaving, even on Ctrl-C."""

    def __init__(self, fs: pafs.FileSystem, root: str, uri: str, run_id: str | None = None):
        self.fs, self.uri = fs, uri
        self.path = root.rstrip("/") + "/" + LOCK
        self.local = isinstance(fs, pafs.LocalFileSystem)
        self.run_id = run_id or new_run_id()
        self.held = False

    def _info(self) -> dict:
        return {"webprune": "lock", "host": socket.gethostname(), "pid": os.getpid(),
                "proc_start": _proc_start(os.getpid()),
                "started": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
                "command": command_line(), "run": self.run_id}

    def _read(self) -> tuple[dict | None, bytes | None]:
        """(holder, raw bytes) of the lock file; (None, None) when there is none, (None, bytes) when unreadable."""
        try:
            with self.fs.open_input_stream(self.path) as fh:
                raw = fh.read()
        except (FileNotFoundError, OSError):
            return None, None
        try:
            holder = json.loads(raw)
            return (holder if isinstance(holder, dict) and holder.get("webprune") == "lock" else None), raw
        except ValueError:
            return None, raw

    def _refuse(self, holder: dict | None) -> OutputLocked:
        fix = f"if no webprune run uses it any more, remove {self.uri}/{LOCK} and run again"
        if holder is None:
            return OutputLocked(f"{self.uri}/{LOCK} is there but is not a webprune lock; {fix}")
        wait = "wait for it to end (or stop it)" if holder.get("host") == socket.gethostname() else \
            f"wait for it to end; {fix}"
        return OutputLocked(f"{self.uri} is in use by another webprune run ({describe(holder)}); {wait}")

    def check(self) -> None:
        """Refuse now, before any work, when a live run holds the folder (nothing is written)."""
        for _ in range(20):
            holder, raw = self._read()
            if raw is None or (holder is not None and not _alive(holder)):
                return
            if holder is not None:
                raise self._refuse(holder)
            time.sleep(0.1)  # a lock being written this instant
        raise self._refuse(None)

    def acquire(self) -> "OutputLock":
        data = json.dumps(self._info(), indent=1).encode()
        for _ in range(50):
            if self._create(data):
                self.held = True
                return self
            holder, raw = self._read()
            if raw is None:
                continue  # released meanwhile
            if holder is None:
                time.sleep(0.1)  # being written this instant, or not a lock: look again, then refuse
                holder, raw = self._read()
                if raw is not None and holder is None:
                    raise self._refuse(None)
                continue
            if _alive(holder):
                raise self._refuse(holder)
            log.warning("%s: taking over the lock of a webprune run that is no longer running (%s)", self.uri,
                        describe(holder))
            self._remove_stale(raw)
        raise self._refuse(self._read()[0])

    def _create(self, data: bytes) -> bool:
        if self.local:  # written aside, then linked into place: the lock appears whole, or not at all
            aside = f"{self.path}.{uuid.uuid4().hex[:8]}.new"
            Path(aside).write_bytes(data)
            try:
                os.link(aside, self.path)
                return True
            except FileExistsError:
                return False
            except OSError:  # a filesystem without hard links: O_EXCL
                try:
                    fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                except FileExistsError:
                    return False
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                return True
            finally:
                os.unlink(aside)
        if self.fs.get_file_info(self.path).type != pafs.FileType.NotFound:
            return False
        with self.fs.open_output_stream(self.path) as fh:  # best effort: no atomic create on object stores
            fh.write(data)
        time.sleep(0.2)
        holder, _ = self._read()
        return holder is not None and holder.get("run") == self.run_id

    def _remove_stale(self, raw: bytes) -> None:
        """Remove the stale lock whose bytes are ``raw`` -- not a live one another run put there meanwhile."""
        if not self.local:
            self.fs.delete_file(self.path)
            return
        aside = f"{self.path}.stale-{uuid.uuid4().hex[:8]}"
        try:
            os.rename(self.path, aside)
        except FileNotFoundError:
            return  # another run moved it first
        try:
            moved = Path(aside).read_bytes()
            if moved != raw:  # a live lock replaced the stale one before the move: put it back
                try:
                    os.link(aside, self.path)
                except OSError:
                    pass
        finally:
            os.unlink(aside)

    def release(self) -> None:
        if not self.held:
            return
        self.held = False
        holder, _ = self._read()
        if holder is not None and holder.get("run") == self.run_id:
            try:
                self.fs.delete_file(self.path)
            except OSError:
                pass

    def __enter__(self) -> "OutputLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
