"""The ids' census: a learning pass that finds page ids held by more than one unit (:mod:`preprocess.core.ids`)."""
from __future__ import annotations

from preprocess.core.ids import FILE_KINDS, cross_unit_renames, page_ids
from preprocess.core.passes import LearningPass, UnitListing


class IdCensus(LearningPass):
    """Lists the page ids of every file-based unit (on the workers); the driver finds the ones shared by units.
    It reads the units' page names only (``reads = "names"``): listing a folder or a tar's headers, never a page."""

    name = "page_ids"
    reads = "names"

    def sample(self, units: list) -> list:
        return [u for u in units if u.source.kind in FILE_KINDS]

    def map_docs(self, rnd: int, listing: UnitListing, state):
        return {"index": listing.index, "name": listing.source, "shard": listing.shard,
                "ids": page_ids(listing.names)}

    def reduce(self, rnd: int, partials: list, state):
        renames = cross_unit_renames([(p["index"], p["name"], p["shard"], p["ids"]) for p in partials])
        return {"renamed": renames, "units": len(partials)}

    def finish(self, state) -> dict:
        n = sum(len(r) for r in state["renamed"].values())
        return {"renamed": state["renamed"], "info": {"units": state["units"], "ids_prefixed": n}}
