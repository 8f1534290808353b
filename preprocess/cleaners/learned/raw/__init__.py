"""The learned cleaner's blocks read off the raw markup, the same as off lexbor's tree, or not at all.

``read_raw(html)`` follows HTML's tree construction rules over the decoded page far enough to know, for the
pages it accepts, exactly the :class:`blocks.Page` that ``blocks.split_body`` reads off lexbor's serialisation
of ``<body>`` (with the class/id hint rule, ``--drop-hinted``, applied as ``HintFilter.drop_from`` applies it).
Where the markup needs a rule it does not follow (foster parenting in tables, a link or a block moved by the
adoption agency, HTML breaking out of svg, a ``<noscript>`` the parse step unwraps, a doctype it does not
know ...) it gives up and says why: the page is then parsed as before. ``scripts/studies/raw_tree_check.py`` measures it
against lexbor on every shared gold page; ``tests/test_learned_raw.py`` holds it to that.

This package is the reference, in Python; ``_raw.pyx`` is its compiled twin, which gives the same reading on every
page (``tests/test_learned_raw.py``) and saves the cleaner lexbor's parse and ``<body>`` serialisation. Where the
twin is built the cleaner reads pages raw (``ON``; ``WEBPRUNE_RAW_READER=0`` turns it off, ``=1`` turns it on even
with the Python reader, which gives the same output, slower).
"""
from __future__ import annotations

import logging
import os
import re
import warnings

from preprocess.cleaners.learned.anchor import head_names
from preprocess.cleaners.learned.raw.page import hint_drops
from preprocess.cleaners.learned.raw.tokens import GiveUp
from preprocess.cleaners.learned import compiled as _learned_compiled
from preprocess.cleaners.learned.raw.tree import Reader as PyReader
from preprocess.steps.parse import NOSCRIPT_CHARS, NOSCRIPT_SHARE

MARGIN = 0.02  # how near the parse step's <noscript> thresholds the reader does not decide


def noscript_unwrapped(inside: int, body: int) -> bool:
    """Would the parse step unwrap the page's ``<noscript>`` elements (``parse.unwrap_noscript``: their text, of
    the body's)? Near its thresholds the reader's count may not be lexbor's to the character: counted as yes."""
    return inside >= (1 - MARGIN) * NOSCRIPT_CHARS and inside >= (1 - MARGIN) * NOSCRIPT_SHARE * body


log = logging.getLogger("webprune.preprocess")
_FLAG = os.environ.get("WEBPRUNE_RAW_READER", "")
if _FLAG not in ("", "0", "1"):
    warnings.warn(f"WEBPRUNE_RAW_READER={_FLAG!r} is neither 1 (on) nor 0 (off): taken as unset", RuntimeWarning,
                  stacklevel=2)
_ASCII_SPACE = re.compile(r"[\t\n\f\r ]+")


def page_title(text):
    """The tree's title (resiliparse's, lexbor's) from the first ``<title>``'s text: None when it has none; ASCII
    whitespace runs as one space, none leading, and a trailing one kept only where nothing else was taken out
    (lexbor's way: "a\\n" gives "a ", "a \\n" gives "a")."""
    if not text:
        return None
    t = _ASCII_SPACE.sub(" ", text)
    t = t[1:] if t.startswith(" ") else t
    return t[:-1] if len(t) < len(text) and t.endswith(" ") else t


def read_raw(html: str, max_depth: int = 400, hints=None, compiled: bool | None = None):
    """``(page, "", info)`` or ``(None, why, {})``. ``hints``: a ``HintFilter`` whose rule applies (a first reading
    measures its candidates, a second skips what it drops); ``info``: ``dropped`` and ``kept_large`` (the rule's
    counts), ``title`` (the tree's ``title``) and ``names`` (``anchor.page_head(tree).names``). ``compiled``: the
    compiled twin (``_raw``; None: where it is built and ``WEBPRUNE_PURE_PYTHON`` is not set) or this reference."""
    Reader = _TWIN if compiled or compiled is None and _learned_compiled.ON else PyReader
    if Reader is PyReader and "\0" in html:  # (the decode step leaves NULs only where lexbor decodes the bytes
        return None, "a NUL character", {}    # itself; the compiled reader tells that too)
    try:
        r = Reader(html, max_depth, hints)
        page = r.read()
        if noscript_unwrapped(r.noscript_chars, r.total - r.hidden_chars):
            return None, "text in <noscript> (the parse step unwraps it)", {}
        drop, kept_large = hint_drops(r.candidates, r.total, hints.max_share) if hints is not None and r.candidates \
            else (set(), 0)
        if drop:
            drop = frozenset(drop)  # (the compiled twin replays its first reading's log instead of a second one)
            page = r.replay(drop) if hasattr(r, "replay") else Reader(html, max_depth, hints, drop).read()
        return page, "", {"dropped": len(drop), "kept_large": kept_large, "title": page_title(r.title),
                          "names": head_names(r.named)}
    except GiveUp as e:
        return None, str(e), {}
    except Exception as e:  # noqa: BLE001 -- a case the reader missed: the page goes the tree's way
        log.warning("raw reader error (the page is parsed instead): %r", e)
        return None, f"reader error: {type(e).__name__}", {}


def _compiled_reader():
    """The compiled twin's reader class (``preprocess/cleaners/learned/_raw.pyx``; this reference's where it was
    not built)."""
    try:
        from preprocess.cleaners.learned import _raw
    except ImportError:
        return PyReader
    return _raw.Reader


_TWIN = _compiled_reader()
# the learned cleaner reads pages raw (pipeline._defer_parse): where the compiled twin runs, unless turned off
ON = _FLAG == "1" or _FLAG != "0" and _learned_compiled.ON and _TWIN is not PyReader
