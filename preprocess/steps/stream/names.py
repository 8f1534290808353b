"""Element classes for the streaming tag remover; both twins (``scan.py``, ``_scan.pyx``) read these tables.

The HTML5 parser's categories (WHATWG, "Parsing HTML documents") decide where an element ends; the
extractor's classes are what resiliparse 2.0.1's ``extract_plain_text`` does with ``tags.py``'s options
(measured element by element): which elements start a line, which are never read.
"""
from __future__ import annotations

from preprocess.html.dom import NOISE_TAGS

SPECIAL = frozenset("""address applet area article aside base basefont bgsound blockquote body br button caption center
col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6
head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes
noscript object ol p param plaintext pre script search section select source style summary table tbody td template
textarea tfoot th thead title tr track ul wbr xmp""".split())
FORMATTING = frozenset("a b big code em font i nobr s small strike strong tt u".split())
VOID = frozenset("""area base basefont bgsound br col embed frame hr image img input keygen link meta param source
track wbr""".split())
SCOPE = frozenset("applet caption html table td th marquee object template svg math".split())
CLOSES_P = frozenset("""address article aside blockquote center details dialog dir div dl fieldset figcaption figure
footer header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre listing form plaintext li dd
dt xmp hr table""".split())  # table: only outside quirks mode; an open <p> holding a table changes no text
# end tags that close their element in scope, whatever is open above it ("in body"); others stop at special elements
BLOCK_END = frozenset("""address article aside blockquote button center details dialog dir div dl fieldset figcaption
figure footer header hgroup listing main menu nav ol pre search section summary ul form applet marquee object""".split())
HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
BREAKOUT = frozenset("""b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li
listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var""".split())
HEAD_OK = frozenset("base basefont bgsound link meta noframes script style template title noscript head html".split())
TABLE_STOP = frozenset(("table", "template", "html"))
# the extractor
SKIP = frozenset(NOISE_TAGS) | frozenset("figure figcaption label option video audio".split())
BLOCK = frozenset("""address article aside blockquote center dd details div dl dt fieldset footer form h1 h2 h3 h4 h5 h6
header hgroup li main nav ol p pre section table ul tr caption""".split())
CELL = frozenset(("td", "th"))
# elements whose content the tokenizer reads as text up to their end tag: shown (as is), or not
RAW_SHOWN = frozenset(("xmp", "noembed", "noframes"))
RAW_HIDDEN = frozenset(("script", "style", "iframe"))
RCDATA = frozenset(("title", "textarea"))
FOREIGN = frozenset(("svg", "math"))
