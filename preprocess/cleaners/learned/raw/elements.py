"""The element categories of HTML's tree construction rules that the raw reader follows (WHATWG HTML, 13.2.6).

HTML's own sets are ``preprocess.html.vocabulary``'s; these are the reader's, and what it adds to them.
"""
from __future__ import annotations

from preprocess.cleaners.learned.blocks import BLOCK_TAGS, NOISE
from preprocess.html import vocabulary as V


def _set(names: str) -> frozenset:
    return frozenset(names.split())


BLOCK = frozenset(BLOCK_TAGS)
NOISE_SET = frozenset(NOISE)
VOID = V.VOID
RAW_ELEMENTS = V.RAWTEXT | V.RCDATA  # no markup inside
RCDATA = V.RCDATA  # ... but character references
FORMATTING = V.FORMATTING
SPECIAL = V.SPECIAL | V.FOREIGN  # (one namespace here: svg and math stand for the spec's special foreign elements)
SCOPE = V.SCOPE
BUTTON_SCOPE = SCOPE | {"button"}
LIST_SCOPE = SCOPE | {"ol", "ul"}
TABLE_SCOPE = V.TABLE_SCOPE
IMPLIED = _set("dd dt li optgroup option p rb rp rt rtc")  # ends the tree builder implies
CLOSES_P = V.CLOSES_P
HEADINGS = V.HEADINGS
HEAD_VOID = V.HEAD_VOID
HEAD_TAGS = V.HEAD_TAGS  # read in the head (and where they are in the body)
TABLE_PARTS = _set("caption col colgroup tbody td tfoot th thead tr")
FOSTER_TARGETS = _set("table tbody tfoot thead tr")
# the insertion mode an open element puts the builder in (the nearest one from the current node down decides)
MODE_OF = {"td": "cell", "th": "cell", "tr": "row", "tbody": "tbody", "thead": "tbody", "tfoot": "tbody",
           "caption": "caption", "colgroup": "colgroup", "table": "table", "select": "select", "body": "body",
           "html": "body"}
BREAKOUT = V.BREAKOUT
INTEGRATION = _set("foreignobject desc title mi mo mn ms mtext annotation-xml")  # HTML inside svg/math
NEVER_HINTED = _set("html body a")  # filters.hints._NEVER
