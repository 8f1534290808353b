"""Text blocks of a page and the elements around them, from ONE serialisation of ``<body>``.

A block is the text between two block-level tags (p, div, li, td, h1-h6, br, ...):
what tag removal writes as one line. Lexbor's serialisation is well-formed
(every element closed, ``<`` and ``>`` escaped in text and attribute values), so
after the raw-text elements (script, style, ...) are removed from the tree and
comments from the string, one ``re.split`` on the block-level tags (and ``<a>``)
gives the tag sequence, and a stack of those elements gives each block its
enclosing element, that element's ancestors and their class/id attributes.
Inline markup (span, b, img, ...) is never looked at one by one: it is cut out
of a block's text in one regex pass. No Python object is made per DOM node.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from preprocess.cleaners.learned import compiled
from preprocess.html.dom import fragment_text

# removed from the tree before serialising: never text (tag removal skips them too); the last three
# are raw text in lexbor's serialisation
NOISE = ("script", "style", "noscript", "template", "svg", "math", "iframe", "object", "embed", "select",
         "textarea", "button", "xmp", "noembed", "noframes")
_NOISE_SELECTOR = ",".join(NOISE)
BLOCK_TAGS = ("body", "p", "div", "br", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
              "table", "caption", "tr", "td", "th", "thead", "tbody", "tfoot", "section", "article", "aside", "nav",
              "header", "footer", "main", "blockquote", "pre", "form", "fieldset", "legend", "center", "address",
              "hr", "figure", "figcaption", "details", "summary", "option", "dialog", "menu", "frameset", "frame")
VOID = frozenset(("br", "hr", "frame"))
TAG_INDEX = {t: i for i, t in enumerate(BLOCK_TAGS)}
# lexbor writes a space or ">" after a tag name
_SPLIT = re.compile(r"<(/?)(" + "|".join(sorted(BLOCK_TAGS + ("a",), key=len, reverse=True)) + r")(?=[ >])([^>]*)>")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_CLASS_ID = re.compile(r'\b(?:class|id)="([^"]*)"')
if compiled.BUILT:
    compiled._scan.set_tags({**TAG_INDEX, "a": -1}, frozenset(TAG_INDEX[t] for t in VOID))
    compiled._scan.set_noise(NOISE)


@dataclass
class Page:
    """Blocks (``texts``, ``link_chars``, ``owner``: the enclosing element, ``start``: characters before it)
    and elements in document order (``el_*``: tag index, parent, depth, class/id values, and the block
    characters before the element starts and where it ends: its text is ``el_end - el_start``)."""

    texts: list = field(default_factory=list)
    link_chars: list = field(default_factory=list)
    owner: list = field(default_factory=list)
    start: list = field(default_factory=list)
    el_tag: list = field(default_factory=list)
    el_parent: list = field(default_factory=list)
    el_depth: list = field(default_factory=list)
    el_names: list = field(default_factory=list)
    el_start: list = field(default_factory=list)
    el_end: list = field(default_factory=list)
    chars: int = 0


def body_markup(tree) -> str:
    """Lexbor's serialisation of ``<body>`` without raw-text elements and comments ('' without a body).

    The raw-text elements are removed from the tree itself (the text is written from this markup).
    """
    body = tree.body if tree is not None else None
    if body is None:
        return ""
    last = None
    # .values(): one call; indexing resiliparse's node lists costs milliseconds per item.
    for el in body.query_selector_all(_NOISE_SELECTOR).values():
        if last is not None and last.contains(el):
            continue
        el.decompose()
        last = el
    s = body.html
    if "<!--" in s:
        s = _COMMENT.sub("", s)
    return s


def _add_block(page: Page, buf: list[str], lbuf: list[str], owner: int, chars: int) -> int:
    """The text gathered in ``buf`` (its linked part in ``lbuf``) as a block of ``owner``, unless it is only
    markup or space; both buffers emptied. Returns the page's characters so far."""
    t = fragment_text("".join(buf))
    if t:
        page.texts.append(t)
        page.link_chars.append(len(fragment_text("".join(lbuf))) if lbuf else 0)
        page.owner.append(owner)
        page.start.append(chars)
        chars += len(t)
    buf.clear()
    lbuf.clear()
    return chars


def split_body(tree, max_depth: int = 400, hints=None, before_pruning=None, scanned=None) -> Page:
    """The blocks and elements of a parsed page's ``<body>`` (none without one); elements nested deeper than
    ``max_depth`` share their ancestor's. ``hints``: a deferred ``filters.hints.HintFilter`` whose rule applies
    first, as if it had run on the tree.

    The compiled scanner (``_scan.scan``, see ``compiled.py``) reads lexbor's serialisation of the whole
    ``<body>`` and skips the noise elements, comments and hinted elements itself; without it, the hint filter
    and :func:`body_markup` prune the tree and :func:`split_python` splits. Both give the same Page
    (``tests/test_learned_compiled.py``). When no block is left, tag removal writes the tree, so both leave it
    pruned: hinted elements and noise out. ``before_pruning``: called (no arguments) before each change to the
    tree, if any (the learned cleaner reads the page's head there; else only when it needs it, afterwards);
    ``scanned``: called with the markup the compiled scanner split while it is the body as the tree stands (before
    ``before_pruning`` on the tree's way)."""
    body = tree.body if tree is not None else None
    if body is None:
        return Page()
    if not compiled.ON:
        if before_pruning is not None:
            before_pruning()
        if hints is not None:
            hints.count(*hints.drop_from(body))
        return split_python(body_markup(tree), max_depth)
    markup, drop, pruned = body.html, None, hints is None
    if hints is not None:
        drop = compiled._scan.hint_ranges(markup, hints.unlikely, hints.maybe, hints.max_share)
        if drop is None:  # something the serialisation leaves unsure: the tree filter decides
            if before_pruning is not None:
                before_pruning()
            hints.count(*hints.drop_from(body))
            markup, pruned = body.html, True
        else:
            hints.count(drop[2], drop[3])
    fields = compiled._scan.scan(markup, max_depth, True, *(drop[:2] if drop else ()))
    page = Page(*fields) if fields is not None else None
    if page is not None and page.texts:
        if scanned is not None:
            scanned(markup)
        return page
    # the tree's way: the markup left a noise element's end unsure, or no block is left (tag removal writes it)
    if before_pruning is not None:
        if scanned is not None:
            scanned(markup)  # (still the body as the tree stands)
        before_pruning()
    if not pruned:
        hints.drop_from(body)  # (counted above)
    markup = body_markup(tree)
    return page if page is not None else Page(*compiled._scan.scan(markup, max_depth, False))


def split_python(markup: str, max_depth: int = 400) -> Page:
    """:func:`split_body` in Python, on :func:`body_markup`'s output: a stack of elements over one ``re.split``
    on the block-level tags."""
    page = Page()
    el_tag, el_parent, el_depth = page.el_tag, page.el_parent, page.el_depth
    el_names, el_start, el_end = page.el_names, page.el_start, page.el_end
    parts = _SPLIT.split(markup)
    stack: list[int] = []  # element indices
    names_stack: list[str] = []
    buf: list[str] = []
    lbuf: list[str] = []
    in_a = False
    deep = 0
    chars = 0
    cur = -1  # the element text goes to
    tags = TAG_INDEX
    it = iter(parts)
    text = next(it, "")
    if text.strip():  # text before <body>: no body (fragments do get one from lexbor)
        buf.append(text)
    for slash, name, attrs, text in zip(it, it, it, it):
        if name == "a":  # a link is an <a> with an href (<a name=...> anchors are not); lexbor never nests them
            in_a = not slash and "href=" in attrs
        else:
            if buf:
                chars = _add_block(page, buf, lbuf, cur, chars)
            if slash:
                if deep:  # (well-formed markup: the innermost open elements are the deep ones)
                    deep -= 1
                elif names_stack and names_stack[-1] == name:
                    e = stack.pop()
                    names_stack.pop()
                    el_end[e] = chars
                    cur = stack[-1] if stack else -1
                elif name in names_stack:  # never in lexbor's output
                    while names_stack:
                        e = stack.pop()
                        el_end[e] = chars
                        if names_stack.pop() == name:
                            break
                    cur = stack[-1] if stack else -1
            elif name not in VOID:
                if len(stack) >= max_depth:
                    deep += 1
                else:
                    e = len(el_tag)
                    el_tag.append(tags[name])
                    el_parent.append(cur)
                    el_depth.append(len(stack))
                    el_names.append(" ".join(_CLASS_ID.findall(attrs)) if "=" in attrs else "")
                    el_start.append(chars)
                    el_end.append(-1)
                    stack.append(e)
                    names_stack.append(name)
                    cur = e
        if text and (buf or not text.isspace()):
            buf.append(text)
            if in_a:
                lbuf.append(text)
    if buf:
        chars = _add_block(page, buf, lbuf, cur, chars)
    for e in stack:
        el_end[e] = chars
    page.chars = chars
    return page
