"""Shards written through the compressing thread (preprocess.folder.shard.ShardFile): the same bytes however the
lines come in batches, errors raised in the caller, and an abort that leaves nothing behind."""
import io
import os
import threading
from pathlib import Path

import pytest
from isal import igzip

from preprocess.folder.output import OutputDir
from preprocess.folder.shard import COMPRESS_CHUNK, _InOrder


def batches() -> list[list[bytes]]:
    rng = __import__("random").Random(7)
    words = [bytes(rng.choice(b"abcdefgh \n\xc3\xa9") for _ in range(rng.randint(1, 40))) for _ in range(500)]
    return [[b" ".join(rng.choices(words, k=rng.randint(1, 300))) + b"\n" for _ in range(rng.randint(0, 70))]
            for _ in range(60)]


def write_shard(out: OutputDir, name: str, batches: list[list[bytes]]) -> bytes:
    shard = out.open_shard(name, True)
    for batch in batches:
        shard.write(batch)
    size = shard.commit()
    data = (Path(out.root) / "collection" / name).read_bytes()
    assert size == len(data) and shard.documents == sum(map(len, batches))
    return data


def test_a_compressed_shard_has_the_same_bytes_however_its_lines_are_split_into_batches(tmp_path):
    """A retry writes its suspect records one at a time: the same lines, the same gzip bytes (ISA-L's output depends
    on how its input is split, so the compressor is handed fixed pieces)."""
    out = OutputDir(str(tmp_path))
    out.mkdirs("collection")
    lines = [line for batch in batches() for line in batch]
    as_batches = write_shard(out, "00000-a.jsonl.gz", batches())
    one_by_one = write_shard(out, "00001-b.jsonl.gz", [[line] for line in lines])
    at_once = write_shard(out, "00002-c.jsonl.gz", [lines])
    assert as_batches == one_by_one == at_once and igzip.decompress(as_batches) == b"".join(lines)
    # what igzip gives the lines in COMPRESS_CHUNK pieces, written in this thread
    reference = io.BytesIO()
    direct = igzip.IGzipFile(fileobj=reference, mode="wb", mtime=0, filename="", compresslevel=2)
    data = b"".join(lines)
    for i in range(0, len(data), COMPRESS_CHUNK):
        direct.write(data[i:i + COMPRESS_CHUNK])
    direct.close()
    assert as_batches == reference.getvalue() and len(data) > 3 * COMPRESS_CHUNK
    assert sorted(os.listdir(tmp_path / "collection")) == ["00000-a.jsonl.gz", "00001-b.jsonl.gz", "00002-c.jsonl.gz"]


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
