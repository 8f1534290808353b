"""Pages that come as files: a tar of .html pages (ids = file stems), or a folder of them."""
from __future__ import annotations

import logging
import tarfile
import zlib
from pathlib import PurePosixPath
from typing import Iterator

import pyarrow.fs as pafs

from preprocess.document import Document
from preprocess.sources import HTML_SUFFIXES, Source, filesystem
from preprocess.stats import Stats

log = logging.getLogger("webprune.preprocess")


def _corrupt(stats: Stats, path: str, offset, exc: Exception, hint: str) -> None:
    stats.update("records")
    stats.outcome("failed", "corrupt", example=f"{path} @ {offset}: {type(exc).__name__}: {exc}", rid=f"@{offset}")
    log.warning("%s: unreadable from offset %s (%s: %s); %s. Counted as failed.corrupt; going on with the next input.",
                path, offset, type(exc).__name__, str(exc).strip().splitlines()[0] if str(exc).strip() else "", hint)


def _page(name: str, data: bytes, source: str) -> Document:
    stem = PurePosixPath(name).name.rsplit(".", 1)[0]
    return Document(id=stem, url="", source=source, content_type="text/html", raw=data)


def read_tar(src: Source, stats: Stats) -> Iterator[Document]:
    """A tar (optionally gzipped) of .html pages; doc id = file stem (CACM-0001). A member the file ends
    inside is that member's failure (counted once); damage before any member is one record lost."""
    member = None
    try:
        with src.open() as fh, tarfile.open(fileobj=fh, mode="r|*") as tar:
            for member in tar:
                if not member.isfile():
                    member = None
                    continue
                stats.update("records")
                if not member.name.lower().endswith(HTML_SUFFIXES):
                    stats.outcome("skipped", "non_html", example=f"{src.uri}:{member.name}", rid=member.name)
                    member = None
                    continue
                data = tar.extractfile(member).read()
                name, member = member.name, None
                yield _page(name, data, src.uri)
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        if member is not None:  # counted already: it fails on its own
            stats.outcome("failed", "corrupt", example=f"{src.uri}:{member.name}: {type(exc).__name__}: {exc}",
                          rid=member.name)
            log.warning("%s: member %s is cut short or corrupt (%s); counted as failed.corrupt", src.uri,
                        member.name, exc)
        else:
            _corrupt(stats, src.uri, "tar stream", exc, "the tar file is truncated or corrupt")


def read_html_dir(src: Source, stats: Stats) -> Iterator[Document]:
    """Every .html/.htm file under a folder (archives there are separate sources)."""
    fs, root = filesystem(src.uri)
    files = [f for f in fs.get_file_info(pafs.FileSelector(root, recursive=True))
             if f.type == pafs.FileType.File and f.base_name.lower().endswith(HTML_SUFFIXES)]
    for f in sorted(files, key=lambda f: f.path.split("/")):
        stats.update("records")
        try:
            with fs.open_input_stream(f.path) as fh:
                data = fh.read()
        except OSError as exc:
            stats.outcome("failed", "unreadable", example=f"{f.path}: {exc}", rid=f.base_name)
            log.info("%s: cannot read (%s); skipped", f.path, exc)
            continue
        yield _page(f.base_name, data, src.uri)
