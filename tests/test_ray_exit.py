"""The local Ray cluster a run starts has no autoscaler monitor and no dashboard head
(preprocess.executor.without_idle_daemons), runs tasks, starts its progress counter only when the driver first asks
for it, and the `webprune` command ends it before it exits (shutdown_ray_at_exit): every daemon is gone."""
import json
import subprocess
import sys

from tests.conftest import ROOT

SCRIPT = """
import json, time
import ray
from preprocess.executor import RayExecutor, shutdown_ray_at_exit
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
t = time.perf_counter()
shutdown_ray_at_exit()
print(json.dumps({"ran": sorted(ran), "actors_before": actors_before, "first": first, "taken": taken,
                  "counted": counted, "procs": procs, "seconds": time.perf_counter() - t, "up": ray.is_initialized()}))
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
    left = [(kind, pid) for kind, pids in report["procs"].items() for pid in pids if alive(pid)]
    assert not left, left
    print(f"shutdown took {report['seconds']:.2f} s")
