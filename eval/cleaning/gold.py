"""Human gold standards of ../shared/data/cleaning: read each set's gold main-content text.

Formats: CleanEval (dev, final, CleanPortalEval) -- a ``URL:`` line then blocks
prefixed ``<p>``/``<h>``/``<l>``; Dragnet -- plain text, comments after a
``!@#$%^&*()  COMMENTS`` line (not main content); L3S-GN1 -- annotated HTML where
spans of class ``x-nc-sel1`` (headline) and ``x-nc-sel2`` (full text) are the
main content; WCXB (its development split, ``wcxb-dev``) -- one JSON per page with
``ground_truth.main_content``, the page's URL and its page type (article, service,
forum, product, collection, listing, documentation), pages gzipped. Gold texts may
hold HTML entities; they are unescaped (not WCXB's, which are plain text).

``FORMATS`` are the five article-like sets of the earlier benchmarks (the default of
the scripts that read "the gold pages"); ``SETS`` adds ``wcxb-dev``.
"""
from __future__ import annotations

import gzip
import html
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

FORMATS = {"cleaneval-dev": "cleaneval", "cleaneval-final": "cleaneval", "cleanportaleval": "cleaneval",
           "dragnet": "dragnet", "l3s-gn1": "l3s"}
SETS = FORMATS | {"wcxb-dev": "wcxb"}
PAGE_TYPES = ("article", "documentation", "service", "forum", "collection", "listing", "product")
_MARKER = re.compile(r"^\s*<[phl]>\s*", re.M)
_URL_LINE = re.compile(r"^\s*URL:[^\n]*\n?")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_DRAGNET_COMMENTS = "!@#$%^&*()  COMMENTS"
_L3S_MAIN = {"x-nc-sel1", "x-nc-sel2"}


_PAGE_URLS = [re.compile(rb'\A\s*<text id="([^"]+)"'),  # CleanEval's wrapper line
              re.compile(rb'<link\b[^>]*\brel=["\']canonical["\'][^>]*\bhref=["\']([^"\']+)', re.I),
              re.compile(rb'<meta\b[^>]*\bproperty=["\']og:url["\'][^>]*\bcontent=["\']([^"\']+)', re.I)]


_ROOT = Path(__file__).resolve().parents[2]  # the project


def shared_root() -> Path:
    """The shared data folder: $WEBPRUNE_SHARED, else ``../shared/data`` beside the project."""
    return Path(os.environ.get("WEBPRUNE_SHARED") or _ROOT.parent / "shared" / "data")


def page_url(raw: bytes) -> str:
    """The page's own URL where the file says it (CleanEval wrapper, canonical link, og:url), else ''.

    The benchmark sets come as loose files; per-host cleaners (``sitediff``) need the host.
    """
    head = raw[:300_000]
    for pat in _PAGE_URLS:
        m = pat.search(head)
        if m and m.group(1).startswith((b"http://", b"https://")):
            return m.group(1).decode("latin-1").strip()
    return ""


@dataclass(frozen=True)
class GoldPage:
    set: str
    name: str
    input: Path
    gold: Path

    @property
    def format(self) -> str:
        return SETS.get(self.set, "")

    def raw(self) -> bytes:
        """The page's bytes (WCXB's are gzipped on disk)."""
        data = self.input.read_bytes()
        return gzip.decompress(data) if self.input.suffix == ".gz" else data

    def gold_text(self) -> str:
        return read_gold(self.gold, self.format)

    def _card(self) -> dict:
        return json.loads(self.gold.read_text(encoding="utf-8")) if self.format == "wcxb" else {}

    @property
    def page_type(self) -> str:
        """WCXB's page type; "" for the other sets."""
        return ((self._card().get("_internal") or {}).get("page_type") or {}).get("primary", "")

    @property
    def split(self) -> str:
        """Which held-out model scores the page: its set, or for WCXB its site-grouped fold (``wcxb-dev-f3``)."""
        return f"{self.set}-f{host_fold(self.set, host_of(self.url()))}" if self.format == "wcxb" else self.set

    def url(self, raw: bytes | None = None) -> str:
        """The page's URL: WCXB's card, else what the page says (:func:`page_url`)."""
        return self._card().get("url", "") if self.format == "wcxb" else page_url(raw if raw is not None else
                                                                                    self.raw())


FOLDS = 5  # site-grouped folds of wcxb-dev: no host in two folds


def host_of(url: str) -> str:
    host = url.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0].lower()
    return host[4:] if host.startswith("www.") else host


def host_fold(set_name: str, host: str) -> int:
    """The fold a host's pages belong to: a stable hash, so training and scoring agree without a file."""
    import hashlib

    return int(hashlib.sha1(f"{set_name}/{host}".encode()).hexdigest(), 16) % FOLDS


def _decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # five Dragnet gold files are UTF-16 with a BOM
        return data.decode("utf-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")  # Dragnet's gold files are Windows-1252


def read_gold(path: Path, fmt: str) -> str:
    if fmt == "wcxb":
        return (json.loads(path.read_text(encoding="utf-8"))["ground_truth"].get("main_content") or "").strip()
    raw = _decode(path.read_bytes()).lstrip("\ufeff")
    if fmt == "cleaneval":
        raw = _COMMENT.sub("", _URL_LINE.sub("", raw, count=1))
        return html.unescape(_MARKER.sub("", raw)).strip()
    if fmt == "dragnet":
        return html.unescape(raw.split(_DRAGNET_COMMENTS, 1)[0]).strip()
    if fmt == "l3s":
        import lxml.html

        root = lxml.html.fromstring(raw)
        parts = []
        for el in root.iter():
            classes = set((el.get("class") or "").split()) if isinstance(el.tag, str) else set()
            if classes & _L3S_MAIN and not any(set((a.get("class") or "").split()) & _L3S_MAIN for a in el.iterancestors()):
                parts.append(el.text_content())
        return html.unescape("\n".join(parts)).strip()
    raise ValueError(f"unknown gold format {fmt!r}")


def gold_pages(shared: Path, sets: list[str] | None = None) -> list[GoldPage]:
    """Pages that have both an input and a gold file, in a stable order (``sets``: default the five FORMATS)."""
    out = []
    for s in sets or list(FORMATS):
        base = Path(shared) / "cleaning" / s
        if SETS.get(s) == "wcxb":
            for gold in sorted((base / "ground-truth").glob("*.json")):
                inp = base / "html" / (gold.stem + ".html.gz")
                if inp.exists():
                    out.append(GoldPage(s, gold.stem, inp, gold))
            continue
        for gold in sorted((base / "gold").glob("*.txt")):
            inp = base / "input" / (gold.stem + ".html")
            if inp.exists():
                out.append(GoldPage(s, gold.stem, inp, gold))
    return out


def first_pages(pages: list[GoldPage], first: int | None = None, per_type: int | None = None) -> list[GoldPage]:
    """A fixed slice of one set's pages, in their order: the first ``first``, or the first ``per_type`` of each
    WCXB page type (so a few pages touch every type); all of them when neither is given."""
    if per_type is not None:
        seen: dict[str, int] = {}
        out = []
        for p in pages:
            seen[p.page_type] = seen.get(p.page_type, 0) + 1
            if seen[p.page_type] <= per_type:
                out.append(p)
        return out
    return pages[:first] if first is not None else list(pages)
