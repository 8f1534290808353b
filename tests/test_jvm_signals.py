"""A process that searches (its JVM running) and then starts Ray keeps its JVM alive
(preprocess/runtime/fatal_signals.py): Ray's core worker takes the fatal signals the JVM relies on, and without
them given back the JVM's next safepoint poll kills the process. Each case runs in a child process."""
import subprocess
import sys

import pytest

from tests.conftest import local_run, shared

pytestmark = pytest.mark.slow

CHILD = """
import sys, time
from index.java import autoclass
from search.topics import read_topics
index, topics, how = sys.argv[1:4]
searcher = autoclass("io.anserini.search.SimpleSearcher")(index)
searcher.set_qld(1000.0)
System, ArrayList = autoclass("java.lang.System"), autoclass("java.util.ArrayList")
queries, ids = ArrayList(), ArrayList()
for q, text in read_topics(topics).items():
    queries.add(text)
    ids.add(q)
for _ in range(3):  # the JIT's warm-up
    searcher.batch_search(queries, ids, 100, 4)
if how == "executor":
    from preprocess.runtime.executor import make_executor
    make_executor("ray", 1)
else:  # Ray started as anything else would start it
    import ray
    ray.init(num_cpus=1, include_dashboard=False, logging_level="ERROR")
t0, rounds = time.time(), 0
while time.time() - t0 < 12:
    searcher.batch_search(queries, ids, 100, 4)
    System.gc()
    rounds += 1
print("survived", rounds)
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    """CACM's 3,204 pages: searching them keeps Java threads busy enough to poll for safepoints."""
    from index.build import build_index
    from preprocess.config.options import CleanOptions
    from preprocess.driver.preprocess import run_preprocess

    root = tmp_path_factory.mktemp("jvm")
    run_preprocess([str(shared("retrieval", "cacm", "cacm.tar.gz"))], str(root / "out"), CleanOptions(cleaner="tags"),
                   local_run(), progress=False)
    build_index(root / "out", root / "idx")
    return root / "idx"


def child(index, how: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, str(index), str(shared("retrieval", "cacm", "topics.cacm.txt")), how],
                          capture_output=True, text=True, cwd=index.parent, timeout=300)  # (a crash's hs_err file there)


def test_ray_started_after_the_jvm_by_the_executor_leaves_the_jvm_its_signals(index):
    proc = child(index, "executor")
    assert proc.returncode == 0 and "survived" in proc.stdout, proc.stderr[-2000:]


def test_ray_started_after_the_jvm_without_that_kills_the_process(index):  # the check itself can fail
    proc = child(index, "plain")
    assert proc.returncode != 0 and "SIGSEGV" in proc.stderr, (proc.returncode, proc.stdout, proc.stderr[-2000:])
