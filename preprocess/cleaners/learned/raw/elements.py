"""The element categories of HTML's tree construction rules that the raw reader follows (WHATWG HTML, 13.2.6)."""
from __future__ import annotations

from preprocess.cleaners.learned.blocks import BLOCK_TAGS, NOISE


def _set(names: str) -> frozenset:
    return frozenset(names.split())


BLOCK = frozenset(BLOCK_TAGS)
NOISE_SET = frozenset(NOISE)
VOID = _set("area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr")
RAW_ELEMENTS = _set("script style xmp iframe noembed noframes title textarea")  # no markup inside
RCDATA = _set("title textarea")  # ... but character references
FORMATTING = _set("a b big code em font i nobr s small strike strong tt u")
SPECIAL = _set("address applet area article aside base basefont bgsound blockquote body br button caption center col "
               "colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 "
               "h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav "
               "noembed noframes noscript object ol p param plaintext pre script search section select source style "
               "summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp svg math")
SCOPE = _set("applet caption html table td th marquee object template svg math")
BUTTON_SCOPE = SCOPE | {"button"}
LIST_SCOPE = SCOPE | {"ol", "ul"}
TABLE_SCOPE = _set("html table template")
IMPLIED = _set("dd dt li optgroup option p rb rp rt rtc")  # ends the tree builder implies
CLOSES_P = _set("address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer "
                "header hgroup main menu nav ol p search section summary ul")
HEADINGS = _set("h1 h2 h3 h4 h5 h6")
HEAD_VOID = _set("base basefont bgsound link meta")
HEAD_TAGS = HEAD_VOID | _set("title style noframes script")  # read in the head (and where they are in the body)
TABLE_PARTS = _set("caption col colgroup tbody td tfoot th thead tr")
FOSTER_TARGETS = _set("table tbody tfoot thead tr")
# the insertion mode an open element puts the builder in (the nearest one from the current node down decides)
MODE_OF = {"td": "cell", "th": "cell", "tr": "row", "tbody": "tbody", "thead": "tbody", "tfoot": "tbody",
           "caption": "caption", "colgroup": "colgroup", "table": "table", "select": "select", "body": "body",
           "html": "body"}
BREAKOUT = _set("b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li "
                "listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var")
INTEGRATION = _set("foreignobject desc title mi mo mn ms mtext annotation-xml")  # HTML inside svg/math
NEVER_HINTED = _set("html body a")  # filters.hints._NEVER
