"""Paths and URIs over ``pyarrow.fs``: a local path or any URI it supports (``s3://``, ``gs://``, ``hdfs://``)."""
from __future__ import annotations

import json
import os

import pyarrow.fs as pafs


def filesystem(uri: str) -> tuple[pafs.FileSystem, str]:
    """(filesystem, path inside it) for a local path or a URI."""
    if "://" in uri:
        return pafs.FileSystem.from_uri(uri)
    return pafs.LocalFileSystem(), os.path.abspath(uri)


def join(base: str, *parts: str) -> str:
    return "/".join([base.rstrip("/"), *parts])


def open_input(fs: pafs.FileSystem, path: str):
    """A binary input stream of ``path`` (seekable for local files). A local name that is not UTF-8 (a
    surrogate escape in ``path``, which pyarrow cannot pass on) is opened by Python itself."""
    if not isinstance(fs, pafs.LocalFileSystem):
        return fs.open_input_stream(path)
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return open(path, "rb")
    return fs.open_input_file(path)


def read_json(uri: str):
    """The JSON file at ``uri`` (a path or URI); None when it is missing or not JSON."""
    fs, path = filesystem(uri)
    try:
        with fs.open_input_stream(path) as fh:
            return json.loads(fh.read())
    except (FileNotFoundError, OSError, ValueError):
        return None
