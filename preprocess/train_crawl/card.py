"""The card of a contrastive model learned from a crawl (``contrastive.json``): what it was learned from and how."""
from __future__ import annotations

from preprocess.lm.contrastive import DEFAULT_THRESHOLD


def crawl_card(state: dict, key: str, order: int, entries: dict, counts: dict, unused: dict, left_out: dict,
                units: int, units_total: int, failed: list, sample_docs) -> dict:
    total = {side: {"lines": sum(e[side]["lines"] for e in entries.values()),
                    "tokens": sum(e[side]["tokens"] for e in entries.values())} for side in ("content", "boilerplate")}
    labels = {k: sum(e["label_counts"].get(k, 0) for e in entries.values())
              for k in ("content", "removed", "kept_but_repeated", "boilerplate")}
    docs = state["documents_by_language"]
    return {"kind": "contrastive", "version": 2, "key": key, "order": order,
            "score": "H_content - H_boilerplate in bits per token (normalised tokens + </s>) under the pair of "
                     "the page's language; higher = boilerplate",
            "default_threshold": DEFAULT_THRESHOLD, "labels": state["labels"],
            "main_language": state["main_language"], "languages": entries,
            "min_language_lines": state["min_language_lines"],
            "without_model": {"documents": {k: v for k, v in sorted(docs.items()) if k not in entries},
                              "lines": dict(sorted(unused.items())), "left_out": left_out},
            "duplicates": {**state["dedup"], **state["dedup_found"]},
            "label_counts": labels, **total,
            "sample": {"documents": state["pages"], "distinct_documents": state["pages"] -
                       state["dedup_found"]["duplicates"], "records_read": state["records"],
                       "skipped": state["skipped"], "units": units, "units_total": units_total,
                       "units_failed": failed, "sample_docs_limit": sample_docs or None}}
