"""What the driver does on an attached Ray cluster when nodes are lost, with Ray's calls replaced (no Ray starts):
its gRPC keepalive."""
import os
import time
from types import SimpleNamespace

import pytest

import preprocess.executor as executor
from preprocess.executor import DRIVER_KEEPALIVE, RayExecutor


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
