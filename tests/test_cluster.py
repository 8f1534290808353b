"""Preprocess at cluster scale: a real two-node Ray cluster by address, and shards written to s3:// (moto's server)."""
import gzip
import json
import socket
import subprocess
import sys
import time

import pytest

from preprocess.config.options import CleanOptions, RunOptions
from preprocess.driver.preprocess import run_preprocess
from tests.conftest import shared
from webprune.benchdata import pack_cleaning_pages

pytestmark = pytest.mark.slow


def shards(folder) -> dict[str, bytes]:
    return {p.name: gzip.decompress(p.read_bytes()) for p in sorted((folder / "collection").glob("*.jsonl.gz"))}


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    shared()
    return pack_cleaning_pages(tmp_path_factory.mktemp("crawl"), files=6, limit=240)


def test_two_node_cluster_by_address_gives_the_same_shards_as_one_local_process(crawl, tmp_path):
    import ray
    from ray.cluster_utils import Cluster

    ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    try:
        opts = CleanOptions(cleaner="density", drop_hinted=True, max_link_density=0.5)
        inputs = [str(crawl[0].parent)]
        on_cluster = run_preprocess(inputs, str(tmp_path / "cluster"), opts,
                                    RunOptions(address=cluster.address), progress=False)
        ray.shutdown()
        local = run_preprocess(inputs, str(tmp_path / "local"), opts, RunOptions(executor="local"), progress=False)
    finally:
        ray.shutdown()
        cluster.shutdown()
    assert on_cluster["workers"] == 2 and len(on_cluster["units"]["nodes"]) == 2  # units ran on both nodes
    assert on_cluster["written"] == local["written"] == 240 - sum(local["skipped"].values())
    assert shards(tmp_path / "cluster") == shards(tmp_path / "local")
    assert on_cluster["driver"]["cpu_s_per_1000_records"] is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture()
def s3(monkeypatch):
    """moto's S3-compatible server on 127.0.0.1, with a bucket; the credentials reach Ray's workers by env."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for key, value in {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                       "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(key, value)
    import boto3

    deadline = time.time() + 30
    client = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}")
    while True:
        try:
            client.create_bucket(Bucket="crawl")
            break
        except Exception:
            if time.time() > deadline:
                proc.kill()
                raise
            time.sleep(0.2)
    yield port, client
    proc.kill()


def test_shards_go_to_s3_and_a_rerun_resumes_there(crawl, tmp_path, s3):
    import ray

    port, client = s3
    ray.shutdown()
    for p in crawl[:3]:  # the inputs are read from the bucket too: no shared disk needed
        client.upload_file(str(p), "crawl", f"in/{p.name}")
    options = f"?endpoint_override=127.0.0.1:{port}&scheme=http"
    inputs, uri = [f"s3://crawl/in{options}"], f"s3://crawl/out{options}"
    try:
        r = run_preprocess(inputs, uri, CleanOptions(), RunOptions(workers=2), progress=False)
        again = run_preprocess(inputs, uri, CleanOptions(), RunOptions(workers=2), progress=False)
    finally:
        ray.shutdown()
    local = run_preprocess([str(p) for p in crawl[:3]], str(tmp_path / "local"), CleanOptions(),
                           RunOptions(executor="local"), progress=False)
    keys = sorted(o["Key"] for o in client.list_objects_v2(Bucket="crawl", Prefix="out/")["Contents"])
    names = [k.rsplit("/", 1)[1] for k in keys if k.startswith("out/collection/") and not k.endswith("/")]
    assert names == sorted(shards(tmp_path / "local")) and "out/stats.json" in keys and "out/manifest.json" in keys
    for name, data in shards(tmp_path / "local").items():
        body = client.get_object(Bucket="crawl", Key=f"out/collection/{name}")["Body"].read()
        assert gzip.decompress(body) == data
    assert r["written"] == local["written"] and again["units"]["reused"] == 3
    assert r["inputs"][0].startswith("s3://crawl/in/cleaning-000.warc.gz?endpoint_override=")
    stats = json.loads(client.get_object(Bucket="crawl", Key="out/stats.json")["Body"].read())
    assert stats["written"] == r["written"] and stats["unaccounted"] == 0
    assert not any(k.endswith(".tmp") for k in keys)
