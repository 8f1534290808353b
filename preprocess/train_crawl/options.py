"""The parameters of ``webprune lm train-crawl`` (the :class:`preprocess.train_crawl.lines.CrawlLines` pass), declared
once: its command-line flags come from these declarations (:func:`preprocess.config.params.add_arguments`)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from preprocess.train_crawl.dedup_options import MODES, DedupOptions
from preprocess.learning.labels import LabelOptions
from preprocess.config.params import check_values, option
from preprocess.config.registry import cleaner_names

MEMORY = re.compile(r"\d+(\.\d+)?[%bKMGTPEZY]?")  # lmplz -S: a share of RAM or a size
MIN_LANGUAGE_LINES = 1000  # kept and removed lines a language other than the main one needs for its pair


@dataclass(frozen=True)
class CrawlOptions:
    order: int = option(3, "n-gram order of each model", choices=(2, 3, 4, 5, 6))
    cleaner: str = option("tags", "DOM cleaner whose kept/removed lines label the crawl", choices=cleaner_names)
    drop_hinted: bool = option(True, "labelling cleaner drops class/id-hinted elements")
    max_link_density: float | None = option(0.5, "labelling cleaner's link-density filter (negative: off)",
                                            metavar="X")
    kitten: bool | None = option(None, "labelling cleaner's Kitten normalisation (default: the cleaner's own)")
    min_repeat_pages: int = option(3, "a line on this many pages of a host is template text, even if the cleaner "
                                      "kept it (0: off)", metavar="N")
    min_word_count: int = option(2, "shared vocabulary: words seen this often", metavar="N")
    dedup: str = option("near", "duplicate pages left out before the repetition rule and training (near: exact "
                                "copies and MinHash near-duplicates)", choices=MODES)
    min_language_lines: int = option(MIN_LANGUAGE_LINES, "kept and removed lines a language other than the main one "
                                                         "needs for its own model pair; pages of a language without "
                                                         "one are left unpruned", metavar="N")
    sample_docs: int = option(10_000, "learn from about N records, spread over the input files (0: all)", metavar="N")
    memory: str = option("10%", "lmplz sort memory (-S), a share of RAM or a size such as 2G", metavar="M")

    def check(self) -> "CrawlOptions":
        check_values(self)
        for name, low in (("min_repeat_pages", 0), ("min_word_count", 1), ("min_language_lines", 1),
                          ("sample_docs", 0)):
            if getattr(self, name) < low:
                raise ValueError(f"--{name.replace('_', '-')} {getattr(self, name)}: give a whole number >= {low}")
        if not MEMORY.fullmatch(self.memory):
            raise ValueError(f"--memory {self.memory!r}: give a share of RAM such as 10% or a size such as 2G")
        return self

    def labels(self) -> LabelOptions:
        link = self.max_link_density if self.max_link_density is not None and self.max_link_density >= 0 else None
        return LabelOptions(cleaner=self.cleaner, drop_hinted=self.drop_hinted, kitten=self.kitten,
                            max_link_density=link, min_repeat_pages=self.min_repeat_pages,
                            min_word_count=self.min_word_count)

    def dedup_options(self) -> DedupOptions:
        return DedupOptions(mode=self.dedup).check()
