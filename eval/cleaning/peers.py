"""Peer boilerplate cleaners (main-content extractors) for side-by-side quality benchmarks.

``PEERS`` maps a peer name to ``fn(html_bytes) -> str`` (the main text, blocks
separated by newlines). The functions may raise; ``run(name, html_bytes)``
wraps a call so that any exception gives ``""`` plus an error string the caller
counts (scripts/bench/bench_cleaning.py does). Exceptions derived from
``BaseException`` only (e.g. a benchmark's timeout) pass through.

Install (the project's ``bench`` extra):
    .venv/bin/pip install trafilatura jusText boilerpy3 readability-lxml lxml_html_clean
``lxml_html_clean`` is needed because lxml >= 5.2 moved ``lxml.html.clean`` out
of lxml, and both readability-lxml (0.9) and jusText import it.

Decoding: resiliparse gets the bytes and detects the charset itself, as its
docs show. Every other peer gets a ``str`` decoded with webprune's own
``decode_payload(b, "text/html")`` (BOM, ``<meta charset>``, UTF-8 if the bytes are
valid UTF-8, then resiliparse's detector; a mislabelled declaration falls through
to the next candidate), so all
str-based peers see the same Unicode the webprune pipeline sees. Decoding is
part of each call, as it is part of webprune's pipeline.

Options, per peer (library defaults unless listed):
* trafilatura: ``extract(text, include_comments=False, include_tables=True)``;
  otherwise defaults: ``fast=False`` (its readability/jusText fallbacks are ON),
  ``favor_precision=favor_recall=False``, ``output_format="txt"``,
  ``with_metadata=False`` (no title line), ``deduplicate=False``, no links,
  images or formatting. ``None`` (nothing extracted) becomes ``""``.
* resiliparse: ``extract_plain_text(HTMLTree.parse_from_bytes(b, detect_encoding(b)),
  main_content=True)``; defaults ``preserve_formatting=True``, ``alt_texts=True``,
  ``list_bullets=True``, links/form fields/noscript off.
* justext: ``justext.justext(text, get_stoplist("English"))`` with default
  thresholds (length_low=70, length_high=200, stopwords_low=0.30,
  stopwords_high=0.32, max_link_density=0.2); the non-boilerplate paragraphs
  (``not p.is_boilerplate``: class "good", plus "short"/"near-good" ones that
  context revised to good) joined with newlines.
* boilerpy3: ``ArticleExtractor(raise_on_failure=False).get_content(text)``.
  With the default ``raise_on_failure=True`` it throws on any unbalanced end
  tag (an empty label stack) -- common on real pages -- so the page would be
  lost; ``False`` keeps the blocks parsed so far, boilerpipe's own behaviour.
* readability: ``readability.Document(text).summary(html_partial=True)`` (the
  article HTML), then tags stripped with lxml: block elements (p, div, li, td,
  h1-6, br, ...) become line breaks, so words of adjacent blocks are not glued
  together as ``text_content()`` would do.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable

__all__ = ["PEERS", "run", "versions"]

_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")


def _decode(html_bytes: bytes) -> str:
    from preprocess.steps.decode import decode_payload

    text, _codec, _source = decode_payload(html_bytes, "text/html")
    # lxml refuses a str that still carries an XML encoding declaration.
    return _XML_DECL.sub("", text.lstrip("\ufeff"), count=1)


def _tidy(text: str) -> str:
    lines = (_SPACES.sub(" ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


# --------------------------------------------------------------------------- peers

def trafilatura_text(html_bytes: bytes) -> str:
    import trafilatura

    out = trafilatura.extract(_decode(html_bytes), include_comments=False, include_tables=True)
    return out or ""


def resiliparse_text(html_bytes: bytes) -> str:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import detect_encoding
    from resiliparse.parse.html import HTMLTree

    tree = HTMLTree.parse_from_bytes(html_bytes, detect_encoding(html_bytes))
    return extract_plain_text(tree, main_content=True)


_STOPLIST = None


def justext_text(html_bytes: bytes) -> str:
    global _STOPLIST
    import justext

    if _STOPLIST is None:
        _STOPLIST = justext.get_stoplist("English")
    paragraphs = justext.justext(_decode(html_bytes), _STOPLIST)
    return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)


_BOILERPY = None


def boilerpy3_text(html_bytes: bytes) -> str:
    global _BOILERPY
    if _BOILERPY is None:
        from boilerpy3.extractors import ArticleExtractor

        _BOILERPY = ArticleExtractor(raise_on_failure=False)
    return _BOILERPY.get_content(_decode(html_bytes)) or ""


_BLOCKS = frozenset("""address article aside blockquote body br caption dd details dialog div dl dt fieldset
figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody
td tfoot th thead tr ul""".split())


def html_to_text(fragment: str) -> str:
    """Visible text of an HTML fragment, one line per block element (lxml)."""
    import lxml.html

    if not fragment.strip():
        return ""
    root = lxml.html.fromstring(fragment)
    for el in root.iter():
        if not isinstance(el.tag, str):  # comments, processing instructions
            continue
        tag = el.tag.lower()
        if tag in ("script", "style", "noscript", "template"):
            el.text = ""
        elif tag in _BLOCKS:
            el.text = "\n" + (el.text or "")
            el.tail = "\n" + (el.tail or "")
    return _tidy("".join(root.itertext()))


def readability_text(html_bytes: bytes) -> str:
    from readability import Document

    return html_to_text(Document(_decode(html_bytes)).summary(html_partial=True))


PEERS: dict[str, Callable[[bytes], str]] = {
    "trafilatura": trafilatura_text,
    "resiliparse": resiliparse_text,
    "justext": justext_text,
    "boilerpy3": boilerpy3_text,
    "readability": readability_text,
}

_DISTRIBUTIONS = {"trafilatura": "trafilatura", "resiliparse": "resiliparse", "justext": "jusText",
                  "boilerpy3": "boilerpy3", "readability": "readability-lxml"}


def versions() -> dict[str, str]:
    import importlib.metadata as md

    out = {}
    for name, dist in _DISTRIBUTIONS.items():
        try:
            out[name] = md.version(dist)
        except md.PackageNotFoundError:
            out[name] = "missing"
    return out


def quiet() -> None:
    """Silence the peers' loggers (trafilatura, readability, boilerpy3 log per page)."""
    for name in ("trafilatura", "readability", "readability.readability", "boilerpy3", "htmldate", "courlan",
                 "justext"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def run(name: str, html_bytes: bytes) -> tuple[str, str | None]:
    """(text, None) or ("", "ExceptionType: message") when the peer raised."""
    try:
        return PEERS[name](html_bytes) or "", None
    except Exception as exc:  # noqa: BLE001 -- any failure of a peer is one counted error
        return "", f"{type(exc).__name__}: {str(exc)[:200]}"
