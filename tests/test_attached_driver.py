"""What the driver does on an attached Ray cluster when nodes are lost, with Ray's calls replaced (no Ray starts):
its gRPC keepalive, and the stop when no node with CPUs is left. The real cluster: tests/test_multihost.py."""
import os
import time
from types import SimpleNamespace

import pytest

import preprocess.runtime.executor as executor
from preprocess.runtime.executor import DRIVER_KEEPALIVE, NoNodesLeft, RayExecutor


class Cluster:
    """Ray's module functions the executor calls, answering as a cluster of ``nodes`` would (a list that a test
    empties to lose them)."""

    def __init__(self, monkeypatch, nodes):
        import ray

        self.nodes, self.env_at_init = nodes, None
        for name in ("init", "is_initialized", "cluster_resources", "remote", "get_runtime_context", "put", "wait"):
            monkeypatch.setattr(ray, name, getattr(self, name))
        monkeypatch.setattr(ray, "nodes", lambda: self.nodes)
        monkeypatch.setattr(executor, "check_address", lambda address: address)

    def init(self, address=None, **kwargs):
        self.env_at_init = {k: os.environ.get(k) for k in DRIVER_KEEPALIVE}

    def is_initialized(self):
        return False

    def cluster_resources(self):
        return {"CPU": sum(n["Resources"].get("CPU", 0) for n in self.nodes if n["Alive"])}

    def remote(self, **options):
        return lambda fn: SimpleNamespace(remote=lambda *args: object())

    def get_runtime_context(self):
        return SimpleNamespace(namespace="test")

    def put(self, value):
        return value

    def wait(self, refs, num_returns=1, timeout=None):  # nothing ever finishes
        time.sleep(0.01)
        return [], refs


def node(cpus=1, alive=True):
    return {"Alive": alive, "Resources": {"CPU": cpus} if cpus else {}}


@pytest.fixture(autouse=True)
def no_keepalive_env(monkeypatch):
    """The keepalive variables unset, and as they were after the test (an attach sets them in os.environ)."""
    for key in DRIVER_KEEPALIVE:
        monkeypatch.setenv(key, "")
        monkeypatch.delenv(key)


def test_attaching_sets_the_drivers_keepalive_unless_it_is_set(monkeypatch):
    cluster = Cluster(monkeypatch, [node()])
    RayExecutor(address="10.0.0.5:6379")
    assert cluster.env_at_init == DRIVER_KEEPALIVE
    # a ping every 70 s: Ray's servers accept one every 60 s at the least, a faster client is sent GOAWAY
    assert int(DRIVER_KEEPALIVE["RAY_grpc_client_keepalive_time_ms"]) > 60_000
    monkeypatch.setenv("RAY_grpc_client_keepalive_time_ms", "5000")
    RayExecutor(address="10.0.0.5:6379")
    assert cluster.env_at_init["RAY_grpc_client_keepalive_time_ms"] == "5000"


def run_until(ex, seconds, on_tick=lambda elapsed: None):
    """Drive ``map`` over two units for up to ``seconds``; what it raised, or None."""
    start = time.monotonic()

    def tick():
        on_tick(time.monotonic() - start)
        if time.monotonic() - start > seconds:
            raise TimeoutError

    try:
        for _ in ex.map(lambda *a: None, [1, 2], tick=tick):
            pass
    except (NoNodesLeft, TimeoutError) as exc:
        return exc
    return None


def test_a_cluster_that_lost_every_node_with_cpus_stops_the_run_after_node_wait(monkeypatch):
    monkeypatch.setattr(executor, "NODE_CHECK_S", 0.05)
    cluster = Cluster(monkeypatch, [node(0), node(1), node(1)])  # a head without CPUs, two workers
    ex = RayExecutor(address="10.0.0.5:6379", node_wait=0.3)
    cluster.nodes = [node(0), node(1, alive=False), node(1, alive=False)]
    t0 = time.monotonic()
    stop = run_until(ex, 10)
    assert isinstance(stop, NoNodesLeft) and 0.3 <= time.monotonic() - t0 < 2
    assert "2 unit(s) in flight" in str(stop) and "run the same command again" in str(stop)


def test_a_node_back_within_node_wait_keeps_the_run_going(monkeypatch):
    monkeypatch.setattr(executor, "NODE_CHECK_S", 0.05)
    cluster = Cluster(monkeypatch, [node(1)])
    ex = RayExecutor(address="10.0.0.5:6379", node_wait=0.5)
    cluster.nodes = []

    def back_after_a_while(elapsed):
        cluster.nodes = [node(1)] if elapsed > 0.3 else []
    assert isinstance(run_until(ex, 1.5, back_after_a_while), TimeoutError)


@pytest.mark.parametrize("nodes, node_wait", [([node(0)], 0.2),   # never had workers: an autoscaler's to start
                                              ([node(1)], 0)])     # --node-wait 0: wait for ever
def test_no_stop_without_workers_to_lose_or_with_node_wait_0(monkeypatch, nodes, node_wait):
    monkeypatch.setattr(executor, "NODE_CHECK_S", 0.05)
    cluster = Cluster(monkeypatch, nodes)
    ex = RayExecutor(address="10.0.0.5:6379", node_wait=node_wait)
    cluster.nodes = [node(0)]
    assert isinstance(run_until(ex, 1.0), TimeoutError)
