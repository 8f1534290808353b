"""``webprune inspect``: a quick look at a crawl before cleaning it.

Per input file, on the workers like any unit (``--sample N`` reads only the first
N records of each): records by WARC type, HTTP status codes, MIME types, declared
charsets, payload sizes, top hosts and the id header each record would take its
document id from. The driver adds the counters up and prints a table (or JSON).
"""
from __future__ import annotations

import itertools
from collections import Counter
from urllib.parse import urlsplit

from preprocess.readers import read_source
from preprocess.core.stats import Stats

SIZES = (1 << 10, 10 << 10, 100 << 10, 1 << 20, 10 << 20)  # payload size buckets: <1K, <10K, ...
FIELDS = ("records", "status", "mime", "charset", "size", "host", "id_header")


def _size_bucket(n: int) -> str:
    for limit in SIZES:
        if n < limit:
            return f"< {limit >> 20} MB" if limit >= 1 << 20 else f"< {limit >> 10} KB"
    return f">= {SIZES[-1] >> 20} MB"


def inspect_unit(sample: int | None, unit, progress=None) -> dict:
    """The facts of one unit's records (``unit``: a :class:`preprocess.run.units.WorkUnit`)."""
    counts = {f: Counter() for f in FIELDS}

    def observe(kind=None, length=None, url=None, id_header=None, status=None, content_type=None, payload=None):
        if kind is not None:
            counts["records"][kind] += 1
            if id_header is None:  # a record whose head could not be read (the reader's ``unreadable (reason)``)
                return
            counts["id_header"][id_header] += 1
            try:
                host = (urlsplit(url.strip().strip("<>")).hostname or "") if url else ""
            except ValueError:
                host = ""
            if host and kind in ("response", "arc_record"):
                counts["host"][host.lower()] += 1
        if content_type is not None:
            mime, _, params = content_type.partition(";")
            counts["mime"][mime.strip().lower() or "(none)"] += 1
            charset = next((p.split("=", 1)[1].strip(" \"'").lower() for p in params.split(";")
                            if p.strip().lower().startswith("charset=")), "(none)")
            counts["charset"][charset] += 1
            counts["status"][str(status) if status is not None else "(no HTTP head)"] += 1
            counts["size"][_size_bucket(payload)] += 1

    stats = Stats()
    docs = read_source(unit.source, stats, observe=observe)
    for _ in itertools.islice(docs, sample) if sample else docs:
        pass
    if unit.source.kind != "warc":  # archives tell each unreadable record as they meet it
        for reason, n in stats.group("failed").items():
            counts["records"][f"unreadable ({reason})"] += n
    return {f: dict(c) for f, c in counts.items()}


def merge(parts: list[dict]) -> dict[str, Counter]:
    out = {f: Counter() for f in FIELDS}
    for part in parts:
        for f in FIELDS:
            out[f].update(part.get(f, {}))
    return out


def table(counts: dict[str, Counter], top: int = 10) -> str:
    titles = {"records": "records by type", "status": "HTTP status", "mime": "MIME type", "charset": "declared charset",
              "size": "payload size", "host": f"top {top} hosts", "id_header": "document id from"}
    lines = []
    for f in FIELDS:
        c = counts[f]
        total = sum(c.values())
        lines += [f"### {titles[f]}", "", f"| {f} | count | share |", "|---|---:|---:|"]
        order = [_size_bucket(n - 1) for n in SIZES] + [_size_bucket(SIZES[-1])]
        rows = (c.most_common(top) if f == "host" else sorted(c.items(), key=lambda kv: order.index(kv[0]))
                if f == "size" else sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))
        for key, n in rows:
            lines.append(f"| {key} | {n:,} | {100 * n / total:.1f}% |")
        if f == "host":
            lines.append(f"| ({len(c):,} hosts in all) | {total:,} | |")
        lines.append("")
    return "\n".join(lines)
