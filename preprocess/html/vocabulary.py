"""HTML's element vocabulary: the categories of WHATWG HTML's tokenizer and tree construction rules (13.2).

The one copy the markup readers share: the streaming tag remover (``steps/stream/names.py``) and the learned
cleaner's raw reader (``cleaners/learned/raw/elements.py``) take these sets, and their compiled twins build their
flag tables from those modules. What a reader adds or leaves out is said where it does so.
"""
from __future__ import annotations


def _set(names: str) -> frozenset:
    return frozenset(names.split())


# "special" elements of the HTML namespace (13.2.4.3)
SPECIAL = _set("""address applet area article aside base basefont bgsound blockquote body br button caption center
col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6
head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes
noscript object ol p param plaintext pre script search section select source style summary table tbody td template
textarea tfoot th thead title tr track ul wbr xmp""")
FORMATTING = _set("a b big code em font i nobr s small strike strong tt u")
VOID = _set("area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr")
# elements that hold no others: the void ones and those the tree builder closes for the next of their kind (the decode
# step's nesting estimate, steps/decode.py and its compiled twin steps/_markup.pyx)
NOT_NESTING = VOID | _set("p li dt dd option tr td th")
SCOPE = _set("applet caption html table td th marquee object template svg math")  # "has an element in scope"
TABLE_SCOPE = _set("html table template")
HEADINGS = _set("h1 h2 h3 h4 h5 h6")
# the start tags of "in body"'s first rule that close an open <p> (headings, pre, form, li, ... have rules of their own)
CLOSES_P = _set("""address article aside blockquote center details dialog dir div dl fieldset figcaption figure
footer header hgroup main menu nav ol p search section summary ul""")
# start tags that break out of foreign content (svg, math) in the HTML namespace
BREAKOUT = _set("""b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li
listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var""")
FOREIGN = _set("svg math")
# the tokenizer: elements whose content is text up to their end tag; RCDATA ones still decode character references
RAWTEXT = _set("script style xmp iframe noembed noframes")
RCDATA = _set("title textarea")
# "in head": void elements, and all the elements read there
HEAD_VOID = _set("base basefont bgsound link meta")
HEAD_TAGS = HEAD_VOID | _set("title style noframes script")
