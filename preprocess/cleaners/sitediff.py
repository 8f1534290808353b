"""``sitediff``: Baisa's WC Cleaner, multiple-file mode (seed "Web Content Cleaning").

Pages of one host share a template: menus, footers, "related" boxes and
copyright lines repeat on every page while the content does not. Each page is
compared with a *reference page* of its host -- the median-size page of the
first group of that host's pages this worker sees -- and the text blocks that
are identical *and in the same position* on both pages are template text and
are removed.

"Same position" is taken on the page's block sequence (the lines tag removal
writes, one per block, in document order): blocks are aligned with the
reference's by a longest common subsequence (rapidfuzz's C++ ``LCSseq`` over
the lines), so an identical block only counts as template where the two pages'
orders agree around it -- a "Comments" heading inside the article does not
match the one in the reference's footer unless the sequences line up there.
Where the page shares less than ``min_shared`` of the reference's blocks, the
two templates differ (another section of the site, a redesign) and the page
falls back to the ``density`` cleaner, as it does when its host has no other
page yet (``sitediff.fallback.*`` counts why).

Grouping: the driver regroups records by host inside a bounded window and
routes each host to one worker (``crc32(host) % workers``), so a worker sees
every page of its hosts, in input order, and keeps one reference per host
(an LRU of ``max_hosts`` references: memory stays bounded whatever the crawl).
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Iterable, Iterator

from rapidfuzz.distance import LCSseq

from preprocess.cleaners.density import DensityCleaner
from preprocess.document import Document
from preprocess.steps.base import Step
from preprocess.steps.tags import TagRemoval, keep_lines

MAX_REF_LINES = 5000  # a reference longer than this is cut: memory per host stays bounded


def template_lines(lines: list[str], ref: list[str]) -> set[int]:
    """Indexes of ``lines`` that align with an identical line of ``ref`` (LCS over whole lines)."""
    if not lines or not ref:
        return set()
    out: set[int] = set()
    for block in LCSseq.editops(lines, ref).as_matching_blocks():
        out.update(range(block.a, block.a + block.size))
    return out


class SiteDiffCleaner(Step):
    """Runs after tag removal on a batch; pages are compared within their host."""

    name = "sitediff"

    def __init__(self, line_features: bool = False, min_shared: float = 0.2, max_hosts: int = 10_000):
        super().__init__()
        self.min_shared = min_shared
        self.max_hosts = max_hosts
        self.refs: OrderedDict[str, list[str]] = OrderedDict()  # host -> reference page's lines (LRU)
        self.density = DensityCleaner()
        self.tags = TagRemoval(line_features=line_features)

    def reset(self) -> None:
        self.refs.clear()

    def _fallback(self, doc: Document, why: str) -> Document | None:
        """Clean the page alone with ``density`` (its tree is still there) and write it again."""
        self.stat_update(f"fallback.{why}")
        self.density.stats = self.tags.stats = self.stats
        if self.density.process(doc) is None:
            return None
        return self.tags.process(doc)

    def _remember(self, host: str, lines: list[str]) -> list[str]:
        """Make ``lines`` the host's reference (LRU: the least recently used host goes past ``max_hosts``)."""
        ref = self.refs[host] = lines[:MAX_REF_LINES]
        if len(self.refs) > self.max_hosts:
            self.refs.popitem(last=False)
            self.stat_update("hosts_evicted")
        else:
            self.stat_update("hosts")
        return ref

    def _diff(self, doc: Document, ref: list[str]) -> Document | None:
        lines = doc.text.split("\n")
        same = template_lines(lines, ref)
        if len(same) < self.min_shared * len(ref):
            return self._fallback(doc, "structure_differs")
        self.stat_update("template_lines_removed", len(same))
        keep_lines(doc, lines, [i for i in range(len(lines)) if i not in same])
        return doc

    def process(self, doc: Document) -> Document | None:  # one page alone: no host to compare with
        return self._fallback(doc, "single_page")

    def run(self, docs: Iterable[Document]) -> Iterator[Document]:
        groups: dict[str, list[Document]] = {}
        for doc in docs:
            groups.setdefault(doc.host, []).append(doc)
        for host, group in groups.items():
            try:
                if not host:
                    results = [self._fallback(d, "no_host") for d in group]
                elif host in self.refs:
                    self.refs.move_to_end(host)
                    results = [self._diff(d, self.refs[host]) for d in group]
                elif len(group) == 1:  # the host's first page: it becomes the reference, with nothing to compare
                    self._remember(host, group[0].text.split("\n"))
                    results = [self._fallback(group[0], "first_page")]
                else:  # the median-size page is the reference; it is compared with its neighbour in size
                    by_size = sorted(group, key=lambda d: len(d.text))
                    ref_doc, alt_doc = by_size[len(by_size) // 2], by_size[len(by_size) // 2 - 1]
                    ref = self._remember(host, ref_doc.text.split("\n"))
                    alt = alt_doc.text.split("\n")
                    results = [self._diff(d, alt if d is ref_doc else ref) for d in group]
            except Exception as exc:  # a bad group fails its pages, never the batch
                for d in group:
                    self.drop(d, "sitediff_error", f"{type(exc).__name__}: {exc}", kind="failed")
                continue
            for doc, out in zip(group, results):
                if out is not None:
                    if not out.text and not out.title:
                        self.drop(out, "empty", "no text left after the site diff")
                        continue
                    yield out
