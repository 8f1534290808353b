"""The options of duplicate detection (:mod:`preprocess.train_crawl.dedup`), apart from its numpy code, so that the
command line can declare them (``crawl_options``) without importing numpy at start-up."""
from __future__ import annotations

from dataclasses import dataclass

MODES = ("near", "exact", "off")


@dataclass(frozen=True)
class DedupOptions:
    """How duplicate pages are found; recorded in the model's card."""

    mode: str = "near"        # near: exact copies and near-duplicates; exact: equal text only; off: every page counts
    resemblance: float = 0.9  # estimated Jaccard of page and kept shingles for a near-duplicate
    shingle: int = 3          # tokens per shingle

    def check(self) -> "DedupOptions":
        if self.mode not in MODES:
            raise ValueError(f"--dedup must be one of {', '.join(MODES)}, not {self.mode!r}")
        if not 0.5 <= self.resemblance <= 1 or self.shingle < 1:
            raise ValueError("near-duplicate resemblance must be between 0.5 and 1 and shingles >= 1 token")
        return self
