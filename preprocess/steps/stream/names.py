"""Element classes for the streaming tag remover; both twins (``scan.py``, ``_scan.pyx``) read these tables.

HTML's categories (``preprocess.html.vocabulary``) decide where an element ends; the
extractor's classes are what resiliparse 2.0.1's ``extract_plain_text`` does with ``tags.py``'s options
(measured element by element): which elements start a line, which are never read.
"""
from __future__ import annotations

from preprocess.html import vocabulary as V
from preprocess.html.dom import NOISE_TAGS

SPECIAL = V.SPECIAL
FORMATTING = V.FORMATTING
VOID = V.VOID | {"image"}  # (<image>, which the tree builder turns into <img>)
SCOPE = V.SCOPE
# every start tag of "in body" that closes an open <p>, not only its first rule's (table: only outside quirks mode;
# an open <p> holding a table changes no text)
CLOSES_P = V.CLOSES_P | V.HEADINGS | frozenset("pre listing form plaintext li dd dt xmp hr table".split())
# end tags that close their element in scope, whatever is open above it ("in body"); others stop at special elements
BLOCK_END = frozenset("""address article aside blockquote button center details dialog dir div dl fieldset figcaption
figure footer header hgroup listing main menu nav ol pre search section summary ul form applet marquee object""".split())
HEADINGS = V.HEADINGS
BREAKOUT = V.BREAKOUT
HEAD_OK = V.HEAD_TAGS | frozenset("template noscript head html".split())  # what "in head" reads or passes
TABLE_STOP = V.TABLE_SCOPE
# the extractor
SKIP = frozenset(NOISE_TAGS) | frozenset("figure figcaption label option video audio".split())
BLOCK = frozenset("""address article aside blockquote center dd details div dl dt fieldset footer form h1 h2 h3 h4 h5 h6
header hgroup li main nav ol p pre section table ul tr caption""".split())
CELL = frozenset(("td", "th"))
# elements whose content the tokenizer reads as text up to their end tag: shown (as is), or not
RAW_SHOWN = frozenset(("xmp", "noembed", "noframes"))
RAW_HIDDEN = V.RAWTEXT - RAW_SHOWN
RCDATA = V.RCDATA
FOREIGN = V.FOREIGN
