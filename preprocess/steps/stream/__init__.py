"""Tag removal without a tree: the streaming scan (``scan.py``, compiled twin ``_scan.pyx``) and the switch.

The plain ``tags`` configuration (no DOM cleaner, no tree filter, no line features) reads the page's
text this way instead of parsing it with lexbor and walking the tree: 2.5x less CPU for the same text
on 99.5% of the shared cleaning pages (README, "Per-core speed"). Only with the compiled twin: where it
was not built (no C compiler) ``BUILT`` is False and pages are parsed as before (``scan.py``, the
reference, is ~30x slower than the compiled scan, 10x slower than lexbor). ``WEBPRUNE_PURE_PYTHON=1``
runs ``scan.py`` in its place, to compare or debug; ``WEBPRUNE_TREE_TAGS=1`` parses every page as before (``ON`` False).
"""
from __future__ import annotations

import os

from preprocess.html.dom import tidy_lines
from preprocess.steps.parse import NOSCRIPT_CHARS, NOSCRIPT_SHARE
from preprocess.steps.stream import scan as _python

try:
    from preprocess.steps.stream import _scan
except ImportError:
    _scan = None

BUILT = _scan is not None
ON = BUILT and not os.environ.get("WEBPRUNE_TREE_TAGS")


def python_scan(html: str, keep_noscript: bool = False) -> tuple[str, str | None, int, int]:
    """``_scan.scan`` in Python: the text tidied as ``tags`` tidies it."""
    text, title, ns, body = _python.scan(html, keep_noscript)
    return tidy_lines(text), title, ns, body


def scanner(compiled: bool | None = None):
    """The scan function: the compiled one where built (``compiled=None``: unless WEBPRUNE_PURE_PYTHON)."""
    if compiled is None:
        compiled = BUILT and not os.environ.get("WEBPRUNE_PURE_PYTHON")
    return _scan.scan if compiled else python_scan


def page_text(html: str, scan=None) -> tuple[str, str | None, bool]:
    """(tidied text, raw title or None, whether ``<noscript>`` held the page and was read)."""
    scan = scan or scanner()
    text, title, ns, body = scan(html)
    if ns >= NOSCRIPT_CHARS and ns >= NOSCRIPT_SHARE * body:  # the crawler's copy of a JavaScript application
        return scan(html, True)[0], title, True
    return text, title, False
