"""A Ray cluster of separate hosts on one machine: Linux network namespaces joined by a switch, for tests.

Each host is a network namespace with its own address on a private /24 and ``lo`` up, joined by a veth pair to
a bridge in a namespace of its own (the switch), so nothing touches the machine's own network: a Ray head,
worker nodes, and a moto S3 server each on a host of their own. The driver runs on the head's host. The hosts
have no route out: their traffic reaches only each other. A node is cut off by setting its port on the switch
down (its cable pulled: its end of the link loses its carrier, no connection is reset), and comes back when the
port is set up again.

Network namespaces separate the network, not the file system: every process still sees the same disk. Each
node gets its own ``--temp-dir`` and ``TMPDIR``, and runs take inputs and output as ``s3://`` URIs only, so no
node reads another's local files because none is told a local path.

Names carry a short random run id (``wpmh<id>-head`` ...), so parallel runs never collide; everything a run
made is removed when it ends (``Cluster.close``, also on failure), and a run first removes what a killed run
left (namespaces whose owner process is gone). Every wait is bounded in count and time. Processes are ended by
network namespace (``ip netns pids``), never by name: ``ray stop`` would stop every Ray of the machine.

``python -m tests.multihost`` holds the few commands run inside a namespace (the harness's own process stays
in the machine's namespace, which has no route to the hosts): node counts from Ray's GCS, S3 up- and downloads.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
RAY = str(Path(sys.executable).with_name("ray"))
PREFIX = "wpmh"
SUBNET = "10.213.49"          # private, and only inside this run's namespaces: parallel runs cannot clash
ADDRESSES = {"head": 10, "s3": 20}  # workers: w1 = .11, w2 = .12 ...
RAY_PORT, S3_PORT = 6379, 5000
BUCKET = "crawl"
OBJECT_STORE_BYTES = 100 * 1024 * 1024  # Ray's smallest is 75 MB; the default (30% of RAM) per node is too much here
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}
# Ray on every node and the driver (cluster-wide, as a real cluster would set them; docs/cluster.md):
# - the GCS declares a node dead after `failure_threshold` health checks missed, one every `period` (each waits
#   `timeout`): ~5 s here, against Ray's 5 x 3 s (10 s timeout);
# - a call to a cut-off node (no TCP reset) fails once gRPC's keepalive gives up: a ping after 2 s of silence, 2 s
#   for its answer, here; Ray's client default is 300 + 120 s (webprune's driver alone: 70 + 20 s). A server takes
#   pings no more often than its own client setting allows (60 s at most), hence on every node.
RAY_SETTINGS = {"RAY_health_check_initial_delay_ms": "1000", "RAY_health_check_period_ms": "1000",
                "RAY_health_check_timeout_ms": "1000", "RAY_health_check_failure_threshold": "3",
                "RAY_grpc_client_keepalive_time_ms": "2000", "RAY_grpc_client_keepalive_timeout_ms": "2000"}
STEP_S = 0.2


def run_ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20, check=check)


def unavailable() -> str | None:
    """Why namespaces cannot be made here (None when they can): not root, no ``ip``, or ``ip netns add`` refused."""
    if os.geteuid() != 0:
        return "network namespaces need root (ip netns add)"
    if shutil.which("ip") is None:
        return "no `ip` command (Debian: apt-get install iproute2)"
    name = f"{PREFIX}probe{secrets.token_hex(3)}"
    try:
        made = run_ip("netns", "add", name, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"`ip netns add` failed: {exc}"
    if made.returncode:
        return f"`ip netns add` failed: {made.stderr.strip()}"
    run_ip("netns", "del", name, check=False)
    return None


def _proc_start(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _namespaces() -> list[str]:
    out = run_ip("netns", "list", check=False).stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith(PREFIX)]


def _kill_namespace_processes(ns: str, timeout: float = 10.0) -> None:
    """SIGKILL every process in network namespace ``ns`` until none is left (bounded)."""
    deadline = time.monotonic() + timeout
    for _ in range(int(timeout / STEP_S) + 1):
        pids = [int(p) for p in run_ip("netns", "pids", ns, check=False).stdout.split()]
        if not pids or time.monotonic() > deadline:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(STEP_S)


def run_folder(run_id: str) -> Path:
    """A run's folder: its owner, logs, and its nodes' temp dirs (short: Ray's socket paths live under them)."""
    return Path(f"/tmp/{PREFIX}{run_id}")


def write_owner(run_id: str, pid: int) -> None:
    folder = run_folder(run_id)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "owner.json").write_text(json.dumps({"pid": pid, "start": _proc_start(pid)}))


def _remove_run(run_id: str) -> None:
    for ns in _namespaces():
        if ns.startswith(f"{PREFIX}{run_id}-"):
            _kill_namespace_processes(ns)
            run_ip("netns", "del", ns, check=False)
    shutil.rmtree(run_folder(run_id), ignore_errors=True)


def remove_leftovers() -> list[str]:
    """Remove the namespaces, processes and folders of runs whose owner process is gone (a killed run);
    a run still going is left alone. Returns the run ids removed."""
    removed = []
    for run_id in sorted({m.group(1) for ns in _namespaces() if (m := re.match(rf"{PREFIX}([0-9a-f]{{6}})-", ns))}):
        try:
            owner = json.loads((run_folder(run_id) / "owner.json").read_text())
            alive = owner["start"] is not None and _proc_start(owner["pid"]) == owner["start"]
        except (OSError, ValueError, KeyError):
            alive = False
        if not alive:
            _remove_run(run_id)
            removed.append(run_id)
    return removed


class Network:
    """Hosts (namespaces with one address each) on a switch (a bridge in a namespace of its own)."""

    def __init__(self, run_id: str, hosts: dict[str, str]):
        self.id, self.hosts = run_id, hosts  # host name -> address
        self.switch = self.ns("sw")

    def ns(self, host: str) -> str:
        return f"{PREFIX}{self.id}-{host}"

    def create(self) -> None:
        run_ip("netns", "add", self.switch)
        run_ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        run_ip("-n", self.switch, "link", "set", "br0", "up")
        for host, address in self.hosts.items():
            ns = self.ns(host)
            run_ip("netns", "add", ns)
            run_ip("-n", self.switch, "link", "add", f"p-{host}", "type", "veth", "peer", "name", "eth0", "netns", ns)
            run_ip("-n", self.switch, "link", "set", f"p-{host}", "master", "br0", "up")
            run_ip("-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
            run_ip("-n", ns, "link", "set", "eth0", "up")
            run_ip("-n", ns, "link", "set", "lo", "up")

    def cut(self, host: str) -> None:
        """The host's port on the switch down: its packets go nowhere, and no connection is reset."""
        run_ip("-n", self.switch, "link", "set", f"p-{host}", "down")

    def mend(self, host: str) -> None:
        run_ip("-n", self.switch, "link", "set", f"p-{host}", "up")

    def command(self, host: str, *argv: str) -> list[str]:
        return ["ip", "netns", "exec", self.ns(host), *argv]

    def pids(self, host: str) -> list[int]:
        return [int(p) for p in run_ip("netns", "pids", self.ns(host), check=False).stdout.split()]

    def kill(self, host: str) -> None:
        _kill_namespace_processes(self.ns(host))

    def destroy(self) -> None:
        for host in self.hosts:
            self.kill(host)
            run_ip("netns", "del", self.ns(host), check=False)
        run_ip("netns", "del", self.switch, check=False)


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


@dataclass
class DriverRun:
    returncode: int | None        # None: it hung and was killed at its timeout
    stdout: str
    stderr: str
    wall_s: float

    @property
    def last_line(self) -> str:
        lines = [line for line in self.stderr.splitlines() if line.strip()]
        return lines[-1] if lines else ""


@dataclass
class Cluster:
    """A Ray head (no CPUs: units run on the workers only), ``workers`` worker nodes of one CPU each and a moto S3
    server, each on its own host; ``env`` reaches every node and the driver (e.g. WEBPRUNE_TEST_SLOW_S)."""

    workers: int = 2
    env: dict = field(default_factory=dict)
    ray_settings: dict = field(default_factory=lambda: dict(RAY_SETTINGS))
    run_id: str = field(default_factory=lambda: secrets.token_hex(3))

    def __post_init__(self):
        self.base = run_folder(self.run_id)
        self.names = [f"w{i + 1}" for i in range(self.workers)]
        hosts = {"head": f"{SUBNET}.{ADDRESSES['head']}", "s3": f"{SUBNET}.{ADDRESSES['s3']}"}
        hosts |= {w: f"{SUBNET}.{11 + i}" for i, w in enumerate(self.names)}
        self.net = Network(self.run_id, hosts)
        self.address = f"{hosts['head']}:{RAY_PORT}"
        self.endpoint = f"{hosts['s3']}:{S3_PORT}"
        self.token = secrets.token_hex(16)
        self.procs: list[subprocess.Popen] = []
        self.starts: dict[str, int] = {}  # host -> how many times its Ray was started again (its temp dir's suffix)

    # -- set-up and tear-down ------------------------------------------------------------------------------
    def start(self) -> "Cluster":
        remove_leftovers()
        write_owner(self.run_id, os.getpid())
        try:
            self.net.create()
            self._start_s3()
            self._start_node("head")
            for w in self.names:
                self._start_node(w)
            self.wait_workers(self.workers)
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        self.net.destroy()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        if os.environ.get("WPMH_KEEP"):  # the nodes' logs and temp dirs, to read after a failure
            print(f"multihost: kept {self.base}", file=sys.stderr)
        else:
            shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> "Cluster":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def node_env(self, host: str) -> dict:
        """What every process of a host (a node, its workers, the driver) runs with: the worktree's code, the S3
        credentials, the cluster's token, a temp dir of its own."""
        tmp = self.base / f"{host}{self.starts.get(host, 0)}"
        tmp.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("RAY_", "AWS_"))}
        return env | CREDENTIALS | self.ray_settings | {
            "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp), "HOME": str(tmp), "RAY_AUTH_MODE": "token",
            "RAY_AUTH_TOKEN": self.token, "RAY_USAGE_STATS_ENABLED": "0", "WEBPRUNE_PLUGINS": "tests.plugins.faults",
        } | self.env

    def _spawn(self, host: str, argv: list[str], log: str) -> subprocess.Popen:
        env = self.node_env(host)
        with open(self.base / log, "ab") as fh:
            proc = subprocess.Popen(self.net.command(host, *argv), env=env, stdout=fh, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
        self.procs.append(proc)
        return proc

    def _start_s3(self) -> None:
        ip = self.net.hosts["s3"]
        self._spawn("s3", [PYTHON, "-m", "moto.server", "-H", ip, "-p", str(S3_PORT)], "s3.log")
        self.inside("head", "bucket", self.endpoint, BUCKET, timeout=60)

    def _start_node(self, host: str) -> None:
        self.starts[host] = self.starts.get(host, -1) + 1
        tmp = self.base / f"{host}{self.starts[host]}"
        argv = [RAY, "start", "--node-ip-address", self.net.hosts[host], "--temp-dir", str(tmp / "ray"),
                "--object-store-memory", str(OBJECT_STORE_BYTES), "--disable-usage-stats", "--block"]
        if host == "head":
            argv += ["--head", "--port", str(RAY_PORT), "--num-cpus", "0", "--include-dashboard=false"]
        else:
            argv += ["--address", self.address, "--num-cpus", "1"]
        self._spawn(host, argv, f"{host}{self.starts[host]}.log")

    def inside(self, host: str, *args: str, timeout: float = 60) -> str:
        """One of this module's own commands (``python -m tests.multihost ...``) run on ``host``; its stdout."""
        done = subprocess.run(self.net.command(host, PYTHON, "-m", "tests.multihost", *args), cwd=ROOT,
                              env=self.node_env(host), capture_output=True, text=True, timeout=timeout)
        if done.returncode:
            raise RuntimeError(f"tests.multihost {' '.join(args)} on {host}: {done.stderr.strip()[-2000:]}")
        return done.stdout

    def alive_workers(self) -> int:
        return int(self.inside("head", "workers", self.address, timeout=60))

    def wait_workers(self, count: int, timeout: float = 120) -> None:
        """Until the GCS lists ``count`` live nodes with CPUs (bounded)."""
        deadline = time.monotonic() + timeout
        for _ in range(int(timeout)):
            try:
                if self.alive_workers() == count:
                    return
            except (RuntimeError, subprocess.TimeoutExpired):
                pass
            if time.monotonic() > deadline:
                break
            time.sleep(1)
        raise TimeoutError(f"{count} worker nodes not alive after {timeout:.0f} s; logs in {self.base}")

    def restore(self) -> None:
        """Every worker node back, for the next run: a node whose Ray is gone or was declared dead has its processes
        ended before its port is up again (lost for good: none of its writes lands late), then is started again
        with a fresh temp dir; every port up."""
        dead = self._dead_workers()
        for w in dead:
            self.net.kill(w)
        for host in [*self.names, "s3"]:
            self.net.mend(host)
        for w in dead:
            self._start_node(w)
        if dead:
            self.wait_workers(self.workers)

    def _dead_workers(self) -> list[str]:
        alive = set(json.loads(self.inside("head", "worker-ips", self.address, timeout=60)))
        return [w for w in self.names if self.net.hosts[w] not in alive or not self.raylet(w)]

    def raylet(self, host: str) -> int | None:
        """The pid of the host's raylet, found among its namespace's processes."""
        return next((pid for pid in self.net.pids(host) if _comm(pid) == "raylet"), None)

    # -- S3 and the driver ---------------------------------------------------------------------------------
    def uri(self, key: str) -> str:
        return f"s3://{BUCKET}/{key}?endpoint_override={self.endpoint}&scheme=http"

    def upload(self, folder: Path, key: str) -> str:
        self.inside("head", "put", str(folder), self.uri(key), timeout=120)
        return self.uri(key)

    def download(self, key: str, folder: Path) -> Path:
        self.inside("head", "get", self.uri(key), str(folder), timeout=120)
        return folder

    def preprocess(self, args: list[str], timeout: float) -> DriverRun:
        """``webprune preprocess ARGS --address HEAD`` on the head's host, killed (returncode None) past ``timeout``."""
        argv = [PYTHON, "-m", "webprune.cli", "preprocess", *args, "--address", self.address]
        t0 = time.monotonic()
        proc = subprocess.Popen(self.net.command("head", *argv), cwd=ROOT, env=self.node_env("head"), text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate(timeout=30)
            code = None
        return DriverRun(code, stdout, stderr, time.monotonic() - t0)


# -- faults and their runs --------------------------------------------------------------------------------
FAULTS = {
    "cut": "a worker's port down for good",
    "flap": "a worker's port down, up again after 20 s",
    "raylet": "a worker's raylet killed (SIGKILL)",
    "s3": "the S3 host unreachable for 10 s",
    "all": "every worker's port down for good: no node left",
}
EXPECTED = {kind: "refused" if kind == "all" else "finished" for kind in FAULTS}
FLAP_S, S3_OUTAGE_S = 20.0, 10.0
COUNTS = ("records", "written", "skipped", "failed", "unaccounted")
# The workload: real pages (pack_cleaning_pages), 8 files of 30, cleaned by tests/plugins/faults.py's `slow`
# (tag removal, 0.15 s a page: ~4.5 s a unit, so a fault lands inside units and a 20 s outage inside the run).
FILES, PAGES, SLOW_S = 8, 240, "0.15"
ARGS = ["--cleaner", "slow", "--node-wait", "10"]


@dataclass
class Fault:
    """One fault of ``kind`` on ``host`` (a worker, ``s3``, or ``*`` for every worker), ``at_s`` seconds after the
    driver started; ``log`` says what was done when."""

    kind: str
    host: str
    at_s: float
    log: list = field(default_factory=list)
    cancel: threading.Event = field(default_factory=threading.Event)  # the run ended before the fault began

    @classmethod
    def pick(cls, kind: str, seed: int, workers: list[str], window: tuple[float, float]) -> "Fault":
        """The host and the moment, drawn from ``seed`` (the moment within ``window``)."""
        import random

        rng = random.Random(f"{kind}-{seed}")
        host = "s3" if kind == "s3" else "*" if kind == "all" else rng.choice(workers)
        return cls(kind, host, round(rng.uniform(*window), 2))

    @property
    def applied(self) -> bool:
        return bool(self.log)

    def start(self, cluster: Cluster, t0: float) -> threading.Thread:
        thread = threading.Thread(target=self._apply, args=(cluster, t0), name=f"fault-{self.kind}", daemon=True)
        thread.start()
        return thread

    def _note(self, t0: float, what: str) -> None:
        self.log.append((round(time.monotonic() - t0, 2), what))

    def _apply(self, cluster: Cluster, t0: float) -> None:
        if self.cancel.wait(max(0.0, t0 + self.at_s - time.monotonic())):
            return
        if self.kind == "raylet":
            pid = cluster.raylet(self.host)
            if pid:
                os.kill(pid, signal.SIGKILL)
            self._note(t0, f"{self.host} raylet killed" if pid else f"{self.host}: no raylet found")
            return
        hosts = cluster.names if self.host == "*" else [self.host]
        for host in hosts:
            cluster.net.cut(host)
        self._note(t0, f"{self.host} cut off")
        if self.kind in ("flap", "s3"):  # the whole outage, even past the run's end
            time.sleep(FLAP_S if self.kind == "flap" else S3_OUTAGE_S)
            cluster.net.mend(self.host)
            self._note(t0, f"{self.host} back")
        if self.kind == "flap":  # back after it was declared dead: its Ray ends itself (bounded wait)
            deadline = time.monotonic() + 15
            while cluster.raylet(self.host) and time.monotonic() < deadline:
                time.sleep(STEP_S)
            self._note(t0, f"{self.host} raylet " + ("still running" if cluster.raylet(self.host) else "gone"))


def shard_bytes(folder: Path) -> dict[str, bytes]:
    """Every shard of an output folder, as stored (gzip bytes)."""
    return {p.name: p.read_bytes() for p in sorted((folder / "collection").glob("*"))}


def leftovers(folder: Path) -> list[str]:
    """Files a finished run should not leave: half-written ``.tmp`` files, attempt markers in ``work/``."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and (p.name.endswith(".tmp") or p.parent.name == "work"))


@dataclass
class Outcome:
    """One faulted run (and its rerun, when it stopped), compared with the uninterrupted one."""

    kind: str
    seed: int
    host: str
    at_s: float                   # when the fault began, s after the driver started
    applied: bool                 # it began before the driver ended
    result: str                   # finished | refused (stopped in one line, finished when rerun) | failed | hung
    identical: bool               # every shard byte for byte, and stats.json's counts
    lost_s: float                 # wall time of the run(s) past the uninterrupted run's
    runs: list                    # [exit status, wall s, last line of stderr] of each driver run
    faults: list                  # [s after the driver started, what was done]
    counters: dict                # stats.json's units.* counters (retries, attempts lost)
    differences: list             # what was not identical
    leftovers: list               # stray files in OUT after the run

    def row(self) -> dict:
        return dict(self.__dict__)

    @property
    def as_expected(self) -> bool:
        """Applied mid-run, finished (or refused, then finished), identical, and nothing stray in OUT but what a node
        back on the network may write late: its attempt's marker (removed by the next run; shards and entries it
        writes have the same bytes)."""
        late = [f for f in self.leftovers if self.kind == "flap" and f.startswith("work/")]
        return (self.applied and self.result == EXPECTED[self.kind] and self.identical
                and len(late) == len(self.leftovers))


class Study:
    """Faulted runs of one crawl on one cluster, each compared with an uninterrupted run of the same command.

    The inputs are uploaded to the S3 host once; each run writes to an ``s3://`` prefix of its own."""

    def __init__(self, cluster: Cluster, crawl: Path, work: Path, args: list[str] = ARGS, timeout: float = 300):
        self.cluster, self.work, self.args, self.timeout = cluster, work, args, timeout
        self.inputs = cluster.upload(crawl, "in")
        run = cluster.preprocess(self._command("ref"), timeout)
        if run.returncode != 0:
            raise RuntimeError(f"the uninterrupted run failed ({run.returncode}):\n{run.stderr[-3000:]}")
        folder = cluster.download("ref", work / "ref")
        stats = json.loads((folder / "stats.json").read_text())
        self.reference, self.shards = run, shard_bytes(folder)
        self.counts = {k: stats[k] for k in COUNTS}
        # faults land in the cleaning pass: from the driver's start-up and plan to a second before its end
        lead = run.wall_s - stats["wall_s"] + stats["startup_s"]
        self.window = (round(lead, 2), round(max(lead + 1.0, run.wall_s - 1.0), 2))

    def _command(self, key: str) -> list[str]:
        return [self.inputs, "-o", self.cluster.uri(key), *self.args]

    def run(self, kind: str, seed: int) -> Outcome:
        """The fault of ``kind`` drawn from ``seed``, during the same command to a new prefix; a run that stopped is
        run again once the cluster is restored (every node back); then the cluster is restored for the next."""
        cluster, key = self.cluster, f"out-{kind}-{seed}"
        fault = Fault.pick(kind, seed, cluster.names, self.window)
        thread = fault.start(cluster, time.monotonic())
        runs = [cluster.preprocess(self._command(key), self.timeout)]
        fault.cancel.set()
        thread.join(timeout=FLAP_S + S3_OUTAGE_S + 30)
        cluster.restore()
        if runs[0].returncode not in (0, None):
            runs.append(cluster.preprocess(self._command(key), self.timeout))
            cluster.restore()
        for i, r in enumerate(runs):  # the driver's own words, for a failure's message
            (self.work / f"{key}.{i}.log").write_text(r.stderr)
        first, last = runs[0], runs[-1]
        result = ("hung" if any(r.returncode is None for r in runs) else "finished" if first.returncode == 0
                  else "refused" if last.returncode == 0 and _one_line(first) else "failed")
        differences, counters, stray = [], {}, []
        if last.returncode == 0:
            folder = cluster.download(key, self.work / key)
            stats = json.loads((folder / "stats.json").read_text())
            counters = {k: v for k, v in stats["counters"].items() if k.startswith("units.")}
            mine = shard_bytes(folder)
            differences += [f"shard {n}" for n in sorted(set(mine) | set(self.shards))
                            if mine.get(n) != self.shards.get(n)]
            differences += [f"{k}: {stats[k]} != {self.counts[k]}" for k in COUNTS if stats[k] != self.counts[k]]
            stray = leftovers(folder)
        else:
            differences.append("no finished run")
        outcome = Outcome(kind, seed, fault.host, fault.at_s, fault.applied, result, not differences,
                          round(sum(r.wall_s for r in runs) - self.reference.wall_s, 1),
                          [[r.returncode, round(r.wall_s, 1), r.last_line[:300]] for r in runs],
                          [list(f) for f in fault.log], counters, differences, stray)
        (self.work / f"{key}.json").write_text(json.dumps(outcome.row(), indent=1))
        return outcome


def _one_line(run: DriverRun) -> bool:
    """The driver stopped saying why in one line of its own, no traceback."""
    return "Traceback" not in run.stderr and run.last_line.startswith("webprune preprocess: ")


def table(rows: list[dict], reference_s: float) -> str:
    """The docs' table from outcome rows (``Outcome.row``, or a result file's): fault x seed -> result, identical
    shards and counts, time lost."""
    lines = [f"| fault | seed | fault at | result | identical shards and counts | time lost "
             f"(uninterrupted: {reference_s:.0f} s) |", "|---|---:|---:|---|---|---:|"]
    for o in rows:
        result = o["result"] if o["applied"] else f"{o['result']} (fault after the end)"
        same = "yes" if o["identical"] else "no: " + ", ".join(o["differences"])
        lines.append(f"| {FAULTS[o['kind']]} | {o['seed']} | {o['at_s']:.1f} s | {result} | {same} | "
                     f"{o['lost_s']:+.0f} s |")
    return "\n".join(lines)


# -- inside a namespace ------------------------------------------------------------------------------------
def _gcs_nodes(address: str) -> list:
    from ray._raylet import GcsClient
    from ray.core.generated.gcs_pb2 import GcsNodeInfo

    alive = GcsNodeInfo.GcsNodeState.ALIVE
    nodes = GcsClient(address=address).get_all_node_info(timeout=10).values()
    return [n for n in nodes if n.state == alive and n.resources_total.get("CPU", 0) > 0]


def _s3(uri: str):
    import pyarrow.fs as pafs

    return pafs.FileSystem.from_uri(uri)


def _inside(args: list[str]) -> None:
    command, rest = args[0], args[1:]
    if command == "workers":      # ADDRESS: live nodes with CPUs
        print(len(_gcs_nodes(rest[0])))
    elif command == "worker-ips":
        print(json.dumps(sorted(n.node_manager_address for n in _gcs_nodes(rest[0]))))
    elif command == "bucket":     # ENDPOINT BUCKET: made once the server answers (bounded)
        import boto3

        client = boto3.client("s3", endpoint_url=f"http://{rest[0]}")
        deadline = time.monotonic() + 30
        for _ in range(300):
            try:
                client.create_bucket(Bucket=rest[1])
                return
            except Exception:  # noqa: BLE001 -- not listening yet
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    elif command == "put":        # FOLDER URI
        import pyarrow.fs as pafs

        fs, path = _s3(rest[1])
        pafs.copy_files(rest[0], path, destination_filesystem=fs)
    elif command == "get":        # URI FOLDER
        import pyarrow.fs as pafs

        fs, path = _s3(rest[0])
        Path(rest[1]).mkdir(parents=True, exist_ok=True)
        pafs.copy_files(path, rest[1], source_filesystem=fs)
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    _inside(sys.argv[1:])
