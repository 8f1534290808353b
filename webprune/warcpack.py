"""Pack HTML pages into a gzipped WARC of response records (for the example and benchmarks)."""
from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Iterable

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter


def pack_pages(pages: Iterable[tuple[str, str, bytes]], out: str | Path, content_type: str = "text/html") -> int:
    """pages: (doc id, url, html bytes). The id goes into WARC-TREC-ID, as in ClueWeb. Returns the count."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    n = 0
    with open(tmp, "wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for doc_id, url, html in pages:
            http = StatusAndHeaders("200 OK", [("Content-Type", content_type), ("Content-Length", str(len(html)))],
                                    protocol="HTTP/1.1")
            rec = writer.create_warc_record(url, "response", payload=BytesIO(html), http_headers=http,
                                            warc_headers_dict={"WARC-TREC-ID": doc_id})
            writer.write_record(rec)
            n += 1
    tmp.replace(out)
    return n
