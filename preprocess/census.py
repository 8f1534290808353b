"""The ids' census: a learning pass that finds page ids held by more than one unit (:mod:`preprocess.ids`)."""
from __future__ import annotations

from preprocess.ids import FILE_KINDS, cross_unit_renames, page_ids
from preprocess.passes import LearningPass


class IdCensus(LearningPass):
    """Lists the page ids of every file-based unit (on the workers); the driver finds the ones shared by units."""

    name = "page_ids"

    def sample(self, units: list) -> list:
        return [u for u in units if u.source.kind in FILE_KINDS]

    def map(self, rnd: int, unit, job, state):
        from preprocess.readers.files import unit_page_names

        return {"index": unit.index, "name": unit.source.name, "shard": unit.shard.split(".jsonl", 1)[0],
                "ids": page_ids(unit_page_names(unit.source))}

    def reduce(self, rnd: int, partials: list, state):
        renames = cross_unit_renames([(p["index"], p["name"], p["shard"], p["ids"]) for p in partials])
        return {"renamed": renames, "units": len(partials)}

    def finish(self, state) -> dict:
        n = sum(len(r) for r in state["renamed"].values())
        return {"renamed": state["renamed"], "info": {"units": state["units"], "ids_prefixed": n}}
