"""Shards written through the compressing thread (preprocess.folder.output.ShardFile): the same bytes as compressing in
the caller's thread, errors raised in the caller, and an abort that leaves nothing behind."""
import io
import os
import threading

import pytest
from isal import igzip

from preprocess.folder.output import OutputDir, _InOrder


def batches() -> list[list[bytes]]:
    rng = __import__("random").Random(7)
    words = [bytes(rng.choice(b"abcdefgh \n\xc3\xa9") for _ in range(rng.randint(1, 40))) for _ in range(500)]
    return [[b" ".join(rng.choices(words, k=rng.randint(1, 300))) + b"\n" for _ in range(rng.randint(0, 70))]
            for _ in range(60)]


def test_a_compressed_shard_has_the_bytes_of_compressing_each_batch_in_the_callers_thread(tmp_path):
    out = OutputDir(str(tmp_path))
    out.mkdirs("collection")
    shard = out.open_shard("00000-x.jsonl.gz", True)
    reference = io.BytesIO()
    direct = igzip.IGzipFile(fileobj=reference, mode="wb", mtime=0, filename="", compresslevel=2)
    lines = 0
    for batch in batches():
        shard.write(batch)
        if batch:
            direct.write(b"".join(batch))
        lines += len(batch)
    size = shard.commit()
    direct.close()
    data = (tmp_path / "collection" / "00000-x.jsonl.gz").read_bytes()
    assert data == reference.getvalue() and size == len(data)
    assert igzip.decompress(data) == b"".join(b"".join(b) for b in batches())
    assert shard.documents == lines and os.listdir(tmp_path / "collection") == ["00000-x.jsonl.gz"]


def test_an_error_of_the_writing_thread_is_raised_in_the_caller_and_later_items_are_not_written():
    done = []

    def write(item):
        if item == 2:
            raise OSError(28, "No space left on device")
        done.append(item)

    behind = _InOrder(write)
    with pytest.raises(OSError, match="No space left"):
        for item in range(50):
            behind.put(item)
        behind.finish()
    with pytest.raises(OSError):
        behind.put(99)
    behind.finish(drop=True)  # what an aborted shard does: no error, the thread ends
    assert done == [0, 1] and not behind.thread.is_alive()


def test_finish_waits_for_every_item_in_order():
    done, gate = [], threading.Event()

    def write(item):
        gate.wait(5)
        done.append(item)

    behind = _InOrder(write, depth=3)
    for item in range(3):
        behind.put(item)
    gate.set()
    for item in range(3, 10):
        behind.put(item)
    behind.finish()
    assert done == list(range(10)) and not behind.thread.is_alive()


def test_an_aborted_shard_leaves_no_file_and_raises_nothing(tmp_path):
    out = OutputDir(str(tmp_path))
    out.mkdirs("collection")
    shard = out.open_shard("00000-x.jsonl.gz", True)
    for batch in batches()[:10]:
        shard.write(batch)
    shard.abort()
    assert os.listdir(tmp_path / "collection") == []
    assert not shard._behind.thread.is_alive()
