"""Document ids that two records share: the first is written, every other is ``skipped.duplicate_id``.

"First" is by unit (the input order, whatever the number of workers or the order units finish in), then by
record within the unit. Lucene would keep both of two documents with one id and a run file could not tell them
apart, so written = indexed holds only when ids are unique.

* **Within a unit** the worker drops a later copy as it writes (:class:`UnitIds`).
* **Across units** each unit leaves the ids it wrote as a table of 16-byte digests (BLAKE2b), sorted, in
  ``OUT/ids/NNNNN.bin``, with the offsets of its 256 parts (by first byte) in its entry. After the cleaning
  pass, :func:`find_copies` runs tasks that each merge a range of parts over every unit's tables (one read
  per unit each) and name the copies; a unit that holds some rewrites its shard without them
  (:func:`drop_copies`, a task: the same bytes on a retry), and its entry records the copies it dropped, so a
  rerun finds nothing left to do. The driver holds the copies found, never the ids.

A unit's table holds every id it wrote itself, before copies were dropped from it, so a rerun always finds the
same copies; a unit whose shard lacks a page it must now keep (the unit that kept it was redone and no longer
holds it) is cleaned again.
"""
from __future__ import annotations

import hashlib
import heapq
from bisect import bisect_left

from preprocess.core.stats import Stats

DIGEST = 16
PARTS = 256


def id_digest(doc_id: str) -> bytes:
    return hashlib.blake2b(doc_id.encode("utf-8"), digest_size=DIGEST).digest()


def table_name(index: int) -> str:
    return f"{index:05d}.bin"


class UnitIds:
    """The ids a unit has written: ``add`` says whether an id is new here."""

    def __init__(self):
        self.first: dict[str, int] = {}  # id -> its document number in the unit's shard (for a skip's example)

    def add(self, doc_id: str) -> int | None:
        """None if ``doc_id`` is new (now taken), else the document number of its first copy."""
        first = self.first.get(doc_id)
        if first is None:
            self.first[doc_id] = len(self.first) + 1
        return first

    def table(self) -> tuple[bytes, list[int]]:
        """The sorted digests and the byte offsets of the 257 part boundaries."""
        digests = sorted(id_digest(i) for i in self.first)
        firsts = [d[0] for d in digests]
        return b"".join(digests), [bisect_left(firsts, p) * DIGEST for p in range(PARTS + 1)]


def skip_copy(stats: Stats, doc_id: str, first: str, here: str) -> None:
    stats.outcome("skipped", "duplicate_id", rid=doc_id,
                  example=f"{doc_id} ({here}): the same id was written first at {first}")


# -- across units ------------------------------------------------------------------------------------------------
def part_ranges(tasks: int) -> list[tuple[int, int]]:
    """``tasks`` contiguous ranges of parts covering all 256."""
    tasks = max(1, min(tasks, PARTS))
    bounds = [round(k * PARTS / tasks) for k in range(tasks + 1)]
    return [(bounds[k], bounds[k + 1]) for k in range(tasks) if bounds[k] < bounds[k + 1]]


def copies_in(shared: tuple, task: tuple[int, int], progress=None) -> dict[int, list[tuple[bytes, int]]]:
    """One task of :func:`resolve`: for parts [lo, hi), {unit index: [(digest, index of the unit that keeps it)]}
    of the copies each unit must drop. ``shared`` is (OUT, [(unit index, its part offsets)] in unit order)."""
    from preprocess.folder.output import OutputDir

    output, tables = shared
    lo, hi = task
    out = OutputDir(output)
    streams = []
    for index, offsets in tables:
        a, b = offsets[lo], offsets[hi]
        if b > a:
            data = out.read_range(a, b - a, "ids", table_name(index))
            streams.append([(data[k:k + DIGEST], index) for k in range(0, len(data), DIGEST)])
    drops: dict[int, list[tuple[bytes, int]]] = {}
    last, keeper = None, -1
    for digest, index in heapq.merge(*streams):  # by digest, then by unit index: the copy kept comes first
        if digest == last:
            drops.setdefault(index, []).append((digest, keeper))
        else:
            last, keeper = digest, index
    return drops


def dropped_key(digests) -> str:
    """What names a set of dropped copies in a unit's entry ('' for none)."""
    return hashlib.sha1(b"".join(sorted(digests))).hexdigest()[:16] if digests else ""


def drop_copies(job, task: tuple, progress=None):
    """Rewrite one unit's shard without the copies other units keep (``task``: the unit, [(digest, keeper's
    source)]), and its entry (and outcomes) to say so: the same bytes on a retry."""
    from preprocess.folder.output import OutputDir
    from preprocess.run.units import UnitResult

    unit, copies = task
    out = OutputDir(job.output)
    keepers = dict(copies)
    entry = out.read_json("units", unit.entry)
    stats = Stats.from_state(entry["stats"])
    shard = out.open_shard(unit.shard, job.compress)
    kept, dropped = [], []
    try:
        for line in out.shard_lines(unit.shard):
            doc_id = _line_id(line)
            keeper = keepers.get(id_digest(doc_id))
            if keeper is None:
                kept.append(line)
                if len(kept) >= 1024:
                    shard.write(kept)
                    kept = []
                continue
            dropped.append(doc_id)
            stats.counts["written"] -= 1
            stats.counts["bytes_out"] -= len(_line_contents(line).encode("utf-8"))
            skip_copy(stats, doc_id, keeper, unit.source.uri)
        shard.write(kept)
        size = shard.commit()
    except BaseException:
        shard.abort()
        raise
    if job.outcomes and dropped:
        _mark_outcomes(out, unit.index, set(dropped))
    result = UnitResult(unit.index, unit.key, unit.shard, entry["documents"] - len(dropped), size,
                        stats.to_state(), entry.get("node", ""), entry.get("peak_rss_mb", 0.0), entry.get("pid", 0),
                        ids=entry.get("ids"), dropped=dropped_key([d for d, _ in copies]), shard_sha1=shard.sha1)
    out.write_json(result.entry(), "units", unit.entry)
    return result


def _line_id(line: bytes) -> str:
    import orjson

    return orjson.loads(line)["id"]


def _line_contents(line: bytes) -> str:
    import orjson

    return orjson.loads(line)["contents"]


def _mark_outcomes(out, index: int, dropped: set[str]) -> None:
    import gzip

    name = f"{index:05d}.tsv.gz"
    with out.fs.open_input_stream(out.path("outcomes", name), compression=None) as fh:
        rows = gzip.decompress(fh.read()).decode("utf-8").splitlines()
    seen: set[str] = set()
    text = []
    for row in rows:
        rid, _, outcome = row.partition("\t")
        if outcome == "written" and rid in dropped and rid not in seen:
            seen.add(rid)
            outcome = "skipped.duplicate_id"
        text.append(f"{rid}\t{outcome}\n")
    out.write_bytes(gzip.compress("".join(text).encode("utf-8"), mtime=0), "outcomes", name)


def resolve(out, units: list, results: dict, executor, job, redo) -> dict:
    """``results`` (unit index -> UnitResult) after the copies other units keep are dropped from each unit's
    shard; ``redo(units)`` cleans units again (a unit whose shard lacks a page it must now keep)."""
    tables = [(u.index, results[u.index].ids) for u in units
              if results[u.index].shard and results[u.index].ids and results[u.index].ids[-1]]
    copies: dict[int, list[tuple[bytes, int]]] = {}
    if len(tables) > 1:
        ranges = part_ranges(2 * max(1, executor.workers))
        for _, found in executor.map(copies_in, ranges, shared=(out.uri, tables)):
            if not isinstance(found, dict):
                raise RuntimeError(f"finding the ids two input files share failed ({found.message}); run the "
                                   "same command again")
            for index, pairs in found.items():
                copies.setdefault(index, []).extend(pairs)
    by_index = {u.index: u for u in units}
    stale = [u for u in units if results[u.index].shard and results[u.index].dropped
             and results[u.index].dropped != dropped_key([d for d, _ in copies.get(u.index, [])])]
    if stale:  # they dropped other copies than they must now: clean them again (their tables hold every id)
        results.update(redo(stale))
    todo = [(by_index[i], [(d, by_index[k].source.uri) for d, k in sorted(pairs)]) for i, pairs in sorted(copies.items())
            if results[i].shard and results[i].dropped != dropped_key([d for d, _ in pairs])]
    for (unit, _), result in executor.map(drop_copies, todo, shared=job):
        if not hasattr(result, "documents"):
            raise RuntimeError(f"{unit.source.uri}: dropping the copies of ids other input files hold failed "
                               f"({result.message}); run the same command again")
        results[unit.index] = result
    return results
