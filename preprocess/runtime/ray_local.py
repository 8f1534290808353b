"""The local Ray a run starts for itself, and ends when it is done (an attached cluster is left as it is): its
settings and what its start leaves out (used by ``executor.RayExecutor`` around ``ray.init``)."""
from __future__ import annotations

from contextlib import contextmanager
from types import MappingProxyType
from typing import Callable

# Ray settings of a local cluster the command starts, and ends, itself (an attached cluster keeps its own):
# - no task events: they feed the dashboard and the state API, which such a cluster does not serve, and the
#   driver's shutdown waited ~0.25 s to flush them;
# - the raylet's tries to reach its object store (and a worker's to reach the raylet) every 10 ms, still 10 s in
#   all: at Ray's one try a second, a store not yet listening at the first try cost 1 s of start-up (4 of 6 starts).
# (read-only: ray.init adds its spilling settings to the dict it is given, so each start gets a copy)
LOCAL_RAY_CONFIG = MappingProxyType({"task_events_report_interval_ms": 0,
                                     "raylet_client_connect_timeout_milliseconds": 10,
                                     "raylet_client_num_connect_attempts": 1000})


@contextmanager
def without_idle_daemons():
    """Around ``ray.init`` of a local cluster: two Python processes it would start, and wait for, are not started,
    and the wait for the raylet is shorter.

    * the autoscaler monitor (~0.6 s of the start-up on this 2-core machine), which scales nothing on a cluster of
      fixed CPUs and took 1 s to stop;
    * the dashboard head: with ``include_dashboard=False`` Ray still starts it with its usage-stats module alone
      (no web UI, no job or state API) and waits for it to register, ~0.5-0.75 s, before starting the raylet;
    * the raylet registers with the GCS ~0.6 s after it starts, but Ray's wait for it (C++ ``GetNode``) asks once a
      second: :func:`_raylet_registered` asks every 20 ms first (0.4-1 s less).

    Where Ray's private node class or function moved, no change."""
    try:
        from ray._private import services
        from ray._private.node import Node
    except ImportError:
        yield
        return
    saved = [(Node, name, getattr(Node, name)) for name in ("start_monitor", "start_api_server")
             if hasattr(Node, name)]
    for owner, name, _ in saved:
        setattr(owner, name, _no_daemon)
    if hasattr(services, "get_node"):
        saved.append((services, "get_node", services.get_node))
        services.get_node = _raylet_registered(services.get_node)
    try:
        yield
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


def _no_daemon(self, *args, **kwargs) -> None:
    return None


def _raylet_registered(get_node: Callable, timeout: float = 30.0, every: float = 0.02) -> Callable:
    """``get_node(gcs_address, node_id)``, called once the GCS lists the node alive (asked every ``every`` s through
    the GCS client the head has just made); if that client is missing or fails, Ray's own wait does it all."""
    def wait_then_get(gcs_address, node_id):
        import time

        from ray.core.generated.gcs_pb2 import GcsNodeInfo
        from ray.experimental import internal_kv

        alive = GcsNodeInfo.GcsNodeState.ALIVE
        client = internal_kv.global_gcs_client
        deadline = time.monotonic() + timeout
        while client is not None and time.monotonic() < deadline:
            try:
                nodes = client.get_all_node_info(timeout=5)
            except Exception:  # noqa: BLE001 -- Ray's own wait takes over
                break
            if any(node.node_id.hex() == node_id and node.state == alive for node in nodes.values()):
                break
            time.sleep(every)
        return get_node(gcs_address, node_id)
    return wait_then_get
