"""The local Ray cluster a run starts has no autoscaler monitor and no dashboard head
(preprocess.runtime.ray_local.without_idle_daemons), runs tasks, starts its progress counter only when the driver first asks
for it, and the `webprune` command ends it before it exits (shutdown_ray_at_exit): every daemon is gone."""
import base64
import json
import subprocess
import sys

from preprocess.runtime.ray_local import LOCAL_RAY_CONFIG
from tests.conftest import ROOT

SCRIPT = """
import json, time
import ray
from preprocess.runtime.executor import RayExecutor, shutdown_ray_at_exit
from preprocess.runtime.ray_local import LOCAL_RAY_CONFIG
from ray._private import worker
ex = RayExecutor(workers=1)
ran = [r for _, r in ex.map(lambda shared, item, progress: (item * shared, progress.add(item)), [1, 2, 3], shared=7)]
actors_before = ray.util.list_named_actors()
first = ex.records()

def add_until_taken(shared, item, progress):
    deadline = time.monotonic() + 30
    while not progress.add(item) and time.monotonic() < deadline:
        time.sleep(0.05)
    return True

taken = [r for _, r in ex.map(add_until_taken, [4])]
deadline = time.monotonic() + 30
while ex.records() != 4 and time.monotonic() < deadline:
    time.sleep(0.05)
counted = ex.records()
ex.close()
procs = {kind: [i.process.pid for i in infos] for kind, infos in worker._global_node.all_processes.items()}
gcs_args = open(f"/proc/{procs['gcs_server'][0]}/cmdline").read().split(chr(0))
t = time.perf_counter()
shutdown_ray_at_exit()
print(json.dumps({"ran": sorted(ran), "actors_before": actors_before, "first": first, "taken": taken,
                  "counted": counted, "procs": procs, "gcs_args": gcs_args, "config_after": dict(LOCAL_RAY_CONFIG),
                  "seconds": time.perf_counter() - t, "up": ray.is_initialized()}))
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[-1][:1] != "Z"
    except FileNotFoundError:
        return False


def test_every_daemon_of_the_local_cluster_is_gone_when_the_command_ends():
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert not report["up"]
    # the progress counter is started the first time the driver asks: until then a worker's add is not taken
    assert report["ran"] == [[7, False], [14, False], [21, False]] and report["actors_before"] == []
    assert report["first"] == 0 and report["taken"] == [True] and report["counted"] == 4
    assert {"raylet", "gcs_server"} <= set(report["procs"])
    assert "monitor" not in report["procs"] and "dashboard" not in report["procs"], report["procs"]
    # the cluster runs with the local settings (ray_local.LOCAL_RAY_CONFIG; the GCS hands them on)
    listed = [a.split("=", 1)[1] for a in report["gcs_args"] if a.startswith("--config_list=")]
    assert listed and json.loads(base64.b64decode(listed[0])).items() >= LOCAL_RAY_CONFIG.items()
    # ray.init adds its session's spilling directory to the dict it gets: the next start must not inherit it
    assert report["config_after"] == dict(LOCAL_RAY_CONFIG)
    left = [(kind, pid) for kind, pids in report["procs"].items() for pid in pids if alive(pid)]
    assert not left, left
    print(f"shutdown took {report['seconds']:.2f} s")


class _Node:
    def __init__(self, hex_id: str, state: int):
        self.node_id = type("Id", (), {"hex": lambda _self: hex_id})()
        self.state = state


class _Gcs:
    """A GCS client whose node list shows the node alive from the ``alive_from``-th call on (or raises)."""

    def __init__(self, alive_from: int, error: Exception | None = None):
        self.calls, self.alive_from, self.error = 0, alive_from, error

    def get_all_node_info(self, timeout):
        self.calls += 1
        if self.error:
            raise self.error
        other = {"b": _Node("bb", 0)}
        return {**other, "a": _Node("aa", 0 if self.calls >= self.alive_from else 1)}


def test_the_raylet_is_awaited_in_short_steps_then_rays_own_lookup_runs_once(monkeypatch):
    """Ray's C++ GetNode asks the GCS once a second; the wrapper asks every `every` seconds until the node is
    alive, then calls Ray's lookup, which finds it at once. A client that fails leaves the whole wait to Ray."""
    import time

    from ray.experimental import internal_kv

    from preprocess.runtime.ray_local import _raylet_registered

    got = []

    def get_node(address, node_id):
        got.append((address, node_id))
        return {"node": node_id}

    gcs = _Gcs(alive_from=4)
    monkeypatch.setattr(internal_kv, "global_gcs_client", gcs)
    t = time.monotonic()
    assert _raylet_registered(get_node, every=0.01)("gcs:1", "aa") == {"node": "aa"}
    assert gcs.calls == 4 and got == [("gcs:1", "aa")] and time.monotonic() - t < 0.5

    broken = _Gcs(alive_from=1, error=RuntimeError("no GCS"))
    monkeypatch.setattr(internal_kv, "global_gcs_client", broken)
    assert _raylet_registered(get_node)("gcs:1", "aa") == {"node": "aa"} and broken.calls == 1

    monkeypatch.setattr(internal_kv, "global_gcs_client", _Gcs(alive_from=10 ** 9))  # never alive: bounded
    t = time.monotonic()
    _raylet_registered(get_node, timeout=0.1, every=0.01)("gcs:1", "aa")
    assert 0.1 <= time.monotonic() - t < 1 and len(got) == 3
