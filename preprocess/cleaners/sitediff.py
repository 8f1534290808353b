"""``sitediff``: Baisa's WC Cleaner, multiple-file mode (seed "Web Content Cleaning").

Pages of one host share a template: menus, footers, "related" boxes and
copyright lines repeat on every page while the content does not. Each page is
compared with its host's *reference page* -- the median-size page of a sample of
the host's pages -- and the text blocks that are identical *and in the same
position* on both pages are template text and are removed.

"Same position" is taken on the page's block sequence (the lines tag removal
writes, one per block, in document order): blocks are aligned with the
reference's by a longest common subsequence (rapidfuzz's C++ ``LCSseq`` over
64-bit hashes of the lines), so an identical block only counts as template where
the two pages' orders agree around it. Where the page shares less than
``min_shared`` of the reference's blocks, the two templates differ (another
section of the site, a redesign) and the page goes to the fallback (``density``,
then tag removal again), as it does when its host has fewer than two pages or
it has no URL (``sitediff.fallback.*`` counts why). The reference page itself is
compared with its neighbour in size.

References are learned before cleaning, by :class:`SiteReferences`, a learning
pass: every worker reads its own input file and keeps, per host, the
``SAMPLE_PER_HOST`` pages with the smallest hash of their id; the driver merges
these samples, so a host's sample -- and its reference -- is the same for any
split of the input and any worker count. The engine hands the pass only the sampled
pages (``select``), cleaned as far as sitediff (``cleaned_until``). Only line hashes
travel (never text), and a reference keeps at most ``MAX_REF_LINES`` of them, so each
host's state is bounded. The references are the artefact's parts, one per hash bucket,
which the engine writes under ``OUT/learned/site_references/``; a worker loads the
buckets of the hosts it meets.
Cleaning is then per page: no grouping of pages by host across workers.
"""
from __future__ import annotations

import hashlib
import heapq
import zlib

from rapidfuzz.distance import LCSseq

from preprocess.core.document import Document
from preprocess.core.artefacts import Learned
from preprocess.core.passes import LearningPass
from preprocess.steps.base import BuildContext, Step
from preprocess.core.hashing import hash64

MAX_REF_LINES = 5000     # a reference longer than this is cut
SAMPLE_PER_HOST = 25     # pages per host the reference is chosen from
BUCKETS = 64             # reference files under OUT/learned/site_references/


def page_hashes(doc: Document) -> list[int]:
    # an empty page is one empty block, so that it still aligns with an empty reference
    return [hash64(line.text) for line in doc.lines] or [hash64("")]


def rank(doc_id: str) -> str:
    return hashlib.sha1(doc_id.encode("utf-8", "surrogatepass")).hexdigest()


def bucket_of(host: str) -> int:
    return zlib.crc32(host.encode("utf-8", "surrogatepass")) % BUCKETS


def template_lines(lines: list, ref: list) -> set[int]:
    """Indexes of ``lines`` that align with an identical item of ``ref`` (LCS over whole lines)."""
    if not lines or not ref:
        return set()
    out: set[int] = set()
    for block in LCSseq.editops(lines, ref).as_matching_blocks():
        out.update(range(block.a, block.a + block.size))
    return out


def choose_reference(candidates: list[tuple]) -> dict | None:
    """The reference of a host from its sample ``(rank, chars, doc id, hashes)``: the median-size page,
    and its neighbour in size (the reference page is compared with that one)."""
    if len(candidates) < 2:
        return None
    by_size = sorted(candidates, key=lambda c: (c[1], c[0]))
    ref, alt = by_size[len(by_size) // 2], by_size[len(by_size) // 2 - 1]
    return {"ref_id": ref[2], "ref": ref[3][:MAX_REF_LINES], "alt": alt[3][:MAX_REF_LINES]}


class SiteReferences(LearningPass):
    """Per host, a sample of its pages' line hashes (map, on the workers), then its reference (driver)."""

    name = "site_references"
    sample_per_host = SAMPLE_PER_HOST

    cleaned_until = "sitediff"

    def select(self, docs) -> set[str]:
        """Ids of each host's ``sample_per_host`` pages with the smallest rank."""
        best: dict[str, list] = {}  # host -> heap of (-rank, id)
        for doc in docs:
            host = doc.host
            if not host:
                continue
            heap = best.setdefault(host, [])
            item = (-int(rank(doc.id), 16), doc.id)
            if len(heap) < self.sample_per_host:
                heapq.heappush(heap, item)
            elif item > heap[0]:
                heapq.heapreplace(heap, item)
        return {doc_id for heap in best.values() for _, doc_id in heap}

    def map_docs(self, rnd: int, docs, state) -> dict:
        """host -> [(rank, characters, id, line hashes)] of the sampled pages, cleaned as far as sitediff."""
        out: dict[str, list] = {}
        for d in docs:
            out.setdefault(d.host, []).append((rank(d.id), len(d.text), d.id, page_hashes(d)))
        return out

    def reduce(self, rnd: int, partials: list, state) -> dict:
        merged: dict[str, list] = {}
        for part in partials:
            for host, cands in part.items():
                merged.setdefault(host, []).extend(cands)
        refs = {}
        for host, cands in merged.items():
            sample = sorted(cands)[: self.sample_per_host]
            ref = choose_reference(sample)
            if ref is not None:
                refs[host] = ref
        return {"refs": refs, "hosts": len(merged)}

    def finish(self, state) -> dict:
        info = {"hosts": state["hosts"], "hosts_with_reference": len(state["refs"]),
                "sample_per_host": self.sample_per_host}
        buckets: dict[int, dict] = {}
        for host, ref in state["refs"].items():
            buckets.setdefault(bucket_of(host), {})[host] = ref
        return {"buckets": sorted(buckets), "info": info,
                "parts": {f"{b:03d}": refs for b, refs in sorted(buckets.items())}}


class _References:
    """A host's reference, read bucket by bucket (the artefact's parts) when a host of it is met."""

    def __init__(self, artefact: dict | None, learned: Learned | None):
        self.present = set((artefact or {}).get("buckets", []))
        self.learned = learned
        self.loaded: dict[int, dict] = {}

    def get(self, host: str) -> dict | None:
        b = bucket_of(host)
        if b not in self.present or self.learned is None:
            return None
        if b not in self.loaded:
            self.loaded[b] = self.learned.part(SiteReferences.name, f"{b:03d}") or {}
        return self.loaded[b].get(host)


class SiteDiffCleaner(Step):
    """Runs after tag removal: drops the lines a page shares, in place, with its host's reference."""

    name = "sitediff"

    def __init__(self, references: dict | None = None, fallback: Step | None = None, min_shared: float = 0.2,
                 learned: Learned | None = None):
        super().__init__()
        self.min_shared = min_shared
        self.refs = _References(references, learned)
        self.fallback = fallback  # the registry's: density on the page's tree, then tag removal again

    @classmethod
    def build(cls, ctx: BuildContext) -> "SiteDiffCleaner":
        return cls(ctx.learned.get("site_references"), fallback=ctx.fallback, learned=ctx.learned)

    def _fallback(self, doc: Document, why: str) -> Document | None:
        """Clean the page alone with the fallback (its tree is still there); without one, keep it as written."""
        self.stat_update(f"fallback.{why}")
        return self.fallback.process(doc) if self.fallback is not None else doc

    def process(self, doc: Document) -> Document | None:
        host = doc.host
        if not host:
            out = self._fallback(doc, "no_host")
        else:
            ref = self.refs.get(host)
            if ref is None:
                out = self._fallback(doc, "single_page")
            else:
                out = self._diff(doc, ref["alt"] if doc.id == ref["ref_id"] else ref["ref"])
        if out is not None and not out.lines and not out.title:
            return self.drop(out, "empty", "no text left after the site diff")
        return out

    def _diff(self, doc: Document, ref: list) -> Document | None:
        same = template_lines(page_hashes(doc), ref)
        if len(same) < self.min_shared * len(ref):
            return self._fallback(doc, "structure_differs")
        self.stat_update("template_lines_removed", len(same))
        doc.lines = [line for i, line in enumerate(doc.lines) if i not in same]
        return doc
