"""The local Ray cluster a run starts has no autoscaler monitor and no dashboard head
(preprocess.executor.without_idle_daemons), runs tasks, and the `webprune` command ends it before it exits
(shutdown_ray_at_exit): every daemon is gone."""
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
ran = [r for _, r in ex.map(lambda shared, item, progress: item * shared, [1, 2, 3], shared=7)]
procs = {kind: [i.process.pid for i in infos] for kind, infos in worker._global_node.all_processes.items()}
t = time.perf_counter()
shutdown_ray_at_exit()
print(json.dumps({"ran": sorted(ran), "procs": procs, "seconds": time.perf_counter() - t, "up": ray.is_initialized()}))
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
    assert report["ran"] == [7, 14, 21]
    assert {"raylet", "gcs_server"} <= set(report["procs"])
    assert "monitor" not in report["procs"] and "dashboard" not in report["procs"], report["procs"]
    left = [(kind, pid) for kind, pids in report["procs"].items() for pid in pids if alive(pid)]
    assert not left, left
    print(f"shutdown took {report['seconds']:.2f} s")
