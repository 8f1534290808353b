"""``density``: Baisa's WC Cleaner, single-file mode (seed "Web Content Cleaning").

Per node: characters of visible text and structural tags below it;
density = characters / structural tags. From ``<body>``, descend into the
densest child element while that child holds more than half of the current
node's characters. The node where the descent stops is the content: everything
outside it is removed from the tree, and tag removal then writes its
paragraphs, headings and list items as separate blocks (CleanEval's
``<p>/<h>/<l>``).

The counts are defined on lexbor's serialisation of a subtree (``subtree_stats``:
script/style/... blocks and comments dropped, tags replaced by spaces, the
remaining non-blank characters counted; structural start tags counted). Asking
lexbor for each child's ``html`` at every level and running regexes over it cost
~10 ms a page, so ``content_node`` serialises ``<body>`` ONCE and computes the
same counts for every element from that one string (``_Shadow``): the UTF-8
bytes go into numpy, every ``<`` is classified from the dozen bytes after it,
and prefix counts give any element's characters and structural tags in O(1).
This is not a second parser: it reads lexbor's own, well-formed output, where
``<`` and ``>`` are escaped in text and attribute values, every non-void element
has an end tag, and only comments and the contents of raw-text elements
(script, style, ...) can hold unescaped markup; those are skipped as whole
tokens. The descent runs on that shadow structure (the k-th element in the
serialisation is the k-th element child in the DOM) and then follows the same
child indices in the real tree, checking tag names and child counts on the way.
Anything the shadow does not model exactly (a ``<plaintext>``, unbalanced
markup, a tag name with characters that case-fold onto ASCII, a regex match that
would cross an element's boundary, a descent into ``<svg>``/``<template>``) makes
that element, or the page, fall back to the per-node ``subtree_stats`` path, so
the chosen node is the same one ``subtree_stats`` would choose.
"""
from __future__ import annotations

import bisect
import re

import numpy as np

from preprocess.document import Document
from preprocess.steps.base import Step

NOISE_TAGS = ("script", "style", "noscript", "template", "svg", "math", "iframe", "object", "select", "textarea",
              "button")
_NOISE_BLOCK = re.compile(r"<!--.*?-->|<(" + "|".join(NOISE_TAGS) + r")\b.*?</\1\s*>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
MAX_DEPTH = 100  # descent steps; 10,000-level markup must not turn into 10,000 serialisations
_WS = (" ", "\n", "\t", "\r", "\u00a0")
STRUCTURAL_TAGS = ("div", "p", "table", "tbody", "thead", "tr", "td", "th", "ul", "ol", "li", "dl", "dt", "dd",
                   "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "aside", "nav", "header", "footer",
                   "main", "blockquote", "pre", "form", "fieldset", "center", "br")
# Counted on lexbor's serialisation of a subtree: a CSS query would wrap every match in a Python object.
_STRUCTURAL_OPEN = re.compile(r"<(?:" + "|".join(STRUCTURAL_TAGS) + r")[\s>/]", re.I)


def element_children(node):
    """Element children by sibling links (``children``/``child_nodes`` cost ~20x more in resiliparse)."""
    child = node.first_element_child
    while child is not None:
        yield child
        child = child.next_element_sibling


def _stats_of_markup(html: str) -> tuple[int, int]:
    markup = _NOISE_BLOCK.sub(" ", html)
    text = _TAG.sub(" ", markup)
    return len(text) - sum(text.count(ws) for ws in _WS), len(_STRUCTURAL_OPEN.findall(markup))


def subtree_stats(node) -> tuple[int, int]:
    """(visible characters, structural tags) of a subtree, from lexbor's serialisation of it.

    Script/style/... contents and comments do not count as characters; whitespace does not either.
    This is the definition; ``content_node`` computes the same numbers for all elements at once.
    """
    return _stats_of_markup(node.html)


# ----------------------------------------------------------------------------------------------------------------
# The shadow of lexbor's serialisation of <body>.

_VOID = ("area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen",
         "link", "meta", "param", "source", "track", "wbr")  # lexbor writes no end tag for these (HTML namespace)
_BLOB = ("svg", "math", "template")  # foreign content / template contents: not element children in the DOM
_RAW = ("script", "style", "iframe", "xmp", "noembed", "noframes")  # contents written unescaped
_F_VOID, _F_BLOB, _F_RAW, _F_NOISE, _F_STRUCT, _F_PLAIN = 1, 2, 4, 8, 16, 32
_WINDOW = 12  # bytes of a tag name looked at (the longest name of interest, blockquote, has 10)


def _pack(name: str) -> int:
    return int.from_bytes(name.encode()[:8].ljust(8, b"\0"), "big")


def _name_table():
    flags: dict[str, int] = {}
    for names, flag in ((_VOID, _F_VOID), (_BLOB, _F_BLOB), (_RAW, _F_RAW), (NOISE_TAGS, _F_NOISE),
                        (STRUCTURAL_TAGS, _F_STRUCT), (("plaintext",), _F_PLAIN)):
        for n in names:
            flags[n] = flags.get(n, 0) | flag
    names = sorted(flags, key=_pack)
    codes = np.array([_pack(n) for n in names], dtype=np.uint64)
    assert len(set(codes.tolist())) == len(codes), "two names share their first 8 bytes"
    return (names, codes, np.array([len(n) for n in names], dtype=np.int64),
            np.array([flags[n] for n in names] + [0], dtype=np.int64))


_NAMES, _CODES, _LENS, _FLAGS = _name_table()
_NAME_INDEX = {n: i for i, n in enumerate(_NAMES)}
_WORD = np.zeros(256, dtype=bool)  # bytes of a regex \w run in ASCII; non-ASCII bytes end a run (checked apart)
for _c in b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz":
    _WORD[_c] = True
_SPACE = np.zeros(256, dtype=bool)  # ASCII \s of a str pattern
for _c in (9, 10, 11, 12, 13, 28, 29, 30, 31, 32):
    _SPACE[_c] = True
_STRUCT_END = _SPACE.copy()  # what may follow a structural tag name: [\s>/]
_STRUCT_END[[ord(">"), ord("/")]] = True
_LEXBOR_END = np.zeros(256, dtype=bool)  # lexbor writes a space or ">" after a tag name
_LEXBOR_END[[ord(" "), ord(">")]] = True
_COUNTED = np.ones(256, dtype=bool)  # bytes that start a character which is not one of _WS (nbsp apart)
_COUNTED[0x80:0xC0] = False
_COUNTED[[ord(" "), ord("\n"), ord("\t"), ord("\r")]] = False
_OFFSETS = np.arange(1, _WINDOW + 2)
_COL8 = np.arange(8)
_NBSP = "\u00a0".encode()

# The noise regex's end, ``</\1\s*>`` with IGNORECASE, on bytes: a backreference matches a character whose
# simple lower case equals the group's (so Kelvin K for k, dotted I for i) and \s is Unicode whitespace.
_UNI_SPACE = b"|".join(re.escape(chr(c).encode()) for c in range(0x110000) if chr(c).isspace())


def _letter(c: str) -> bytes:
    alts = [x for x in {c, c.upper(), c.lower(), "\u0130", "\u0131", "\u017f", "\u212a"}
            if re.fullmatch(f"({re.escape(c)})x\\1", f"{c}x{x}", re.I)]
    return b"(?:" + b"|".join(re.escape(x.encode()) for x in sorted(alts)) + b")"


_NOISE_END = {n: re.compile(b"</" + b"".join(_letter(c) for c in n) + b"(?:" + _UNI_SPACE + b")*>")
              for n in NOISE_TAGS}
_NOISE_START_STR = re.compile(r"<(?:!--|(" + "|".join(NOISE_TAGS) + r")\b)", re.I)


_STRICT = False  # tests: let an error of the shadow path surface instead of falling back


class _Unsupported(Exception):
    """The shadow does not model this page exactly: use the per-node path."""


class _Shadow:
    """Per-element counts for the whole of ``<body>`` from one serialisation of it.

    Tokens are the ``<`` of start and end tags outside comments and raw-text contents; elements are start
    tokens. ``span(t)`` is the byte range of element ``t``'s serialisation, ``stats(t)`` its
    ``subtree_stats``, ``children(t)`` its element children.
    """

    def __init__(self, html: str):
        self.html = html
        b = self.b = html.encode("utf-8")
        a = np.frombuffer(b, dtype=np.uint8)
        n_bytes = len(b)
        lt = np.flatnonzero(a == 60)
        gt = np.flatnonzero(a == 62)
        if not len(lt) or not len(gt):
            raise _Unsupported("no markup")
        # the bytes after every "<"; for end tags, after "</"
        w = a[np.minimum(lt[:, None] + _OFFSETS, n_bytes - 1)]
        is_end = w[:, 0] == 47
        name = np.where(is_end[:, None], w[:, 1:], w[:, :-1])
        name |= ((name - 65) < 26).astype(np.uint8) << 5  # ASCII lower case
        word = _WORD[name]
        first_non_word = word.argmin(axis=1)
        rows = np.arange(len(lt))
        run = np.where(word[rows, first_non_word], _WINDOW, first_non_word)  # length of the \w run
        nxt = name[rows, np.minimum(run, _WINDOW - 1)]
        code = np.ascontiguousarray(name[:, :8] * (_COL8 < run[:, None])).view(">u8").ravel()
        pos = np.minimum(np.searchsorted(_CODES, code), len(_CODES) - 1)
        hit = (_CODES[pos] == code) & (_LENS[pos] == run)
        for r in np.flatnonzero(hit & (run > 8)).tolist():  # blockquote, plaintext: check the rest
            if name[r, :run[r]].tobytes().decode() != _NAMES[pos[r]]:
                hit[r] = False
        flags = _FLAGS[np.where(hit, pos, -1)]
        start = ~is_end
        comment = start & (w[:, 0] == 33) & (w[:, 1] == 45) & (w[:, 2] == 45)
        # A name followed by a non-ASCII character: \b, \s and case folding are Unicode matters. Decide with the
        # original str regexes; a noise block or structural tag there is left to the per-node path.
        for r in np.flatnonzero((nxt >= 128) & (run <= 10)).tolist():
            p = int(lt[r])
            piece = b[p:p + 48].decode("utf-8", "ignore")
            if _NOISE_START_STR.match(piece) or _STRUCTURAL_OPEN.match(piece):
                raise _Unsupported("non-ASCII after a tag name")
        if (flags & _F_PLAIN).any():
            raise _Unsupported("plaintext")
        lexbor_name = _LEXBOR_END[nxt]

        # noise blocks: exactly the regex's left-to-right matches over the whole string
        noise_start, noise_end = [], []
        cands = np.flatnonzero(comment | (start & ((flags & _F_NOISE) != 0) & (nxt < 128)))
        last = 0
        for r, p in zip(cands.tolist(), lt[cands].tolist()):
            if p < last:
                continue
            if comment[r]:
                e = b.find(b"-->", p + 4)
                if e < 0:
                    continue
                e += 3
            else:
                tag = _NAMES[pos[r]]
                m = _NOISE_END[tag].search(b, p + 1 + len(tag))
                if m is None:
                    continue
                e = m.end()
            noise_start.append(p)
            noise_end.append(e)
            last = e
        self.noise_start, self.noise_end = noise_start, noise_end

        # characters counted (outside tags and noise blocks, not blank) and structural tags, outside noise
        ns = np.array(noise_start, dtype=np.int64)
        ne = np.array(noise_end, dtype=np.int64)
        if len(ns):
            k = np.searchsorted(ns, lt, "right") - 1
            lt_out = (k < 0) | (lt >= ne[k])
            k = np.searchsorted(ns, gt, "right") - 1
            gt_keep = gt[(k < 0) | (gt >= ne[k])]
        else:
            lt_out = np.ones(len(lt), dtype=bool)
            gt_keep = gt
        lt_keep = lt[lt_out]
        # outside noise, "<" and ">" alternate: then ``<[^>]*>`` matches are exactly these pairs
        if len(lt_keep) != len(gt_keep) or not (lt_keep < gt_keep).all() or not (gt_keep[:-1] < lt_keep[1:]).all():
            raise _Unsupported("unbalanced angle brackets")
        cov_start = np.concatenate((lt_keep, ns))
        cov_end = np.concatenate((gt_keep + 1, ne))
        order = np.argsort(cov_start, kind="stable")
        cov_start, cov_end = cov_start[order], cov_end[order]
        if not (cov_start[1:] >= cov_end[:-1]).all():
            raise _Unsupported("overlapping tags and noise")
        bounds = np.empty(2 * len(cov_start) + 1, dtype=np.int64)
        bounds[0] = 0
        bounds[1::2] = cov_start
        bounds[2::2] = cov_end
        lengths = np.diff(bounds, append=n_bytes)
        covered = np.repeat(np.resize(np.array([False, True]), len(lengths)), lengths)
        counted = _COUNTED[a] & ~covered
        if _NBSP in b:
            nb = np.flatnonzero((a[:-1] == 0xC2) & (a[1:] == 0xA0))
            counted[nb] = False
        self.counted = counted
        struct = lt_out & start & ((flags & _F_STRUCT) != 0) & _STRUCT_END[nxt]
        self.struct_pos = lt[struct].tolist()

        # the element structure: tokens outside comments and raw-text contents
        opaque_start, opaque_end = [], []
        cands = np.flatnonzero(comment | (start & ((flags & _F_RAW) != 0) & lexbor_name))
        last = 0
        for r, p in zip(cands.tolist(), lt[cands].tolist()):
            if p < last:
                continue
            if comment[r]:
                e = b.find(b"-->", p + 4)
                if e < 0:
                    raise _Unsupported("open comment")
                opaque_start.append(p)
                opaque_end.append(e + 3)
                last = e + 3
            else:
                tag_end = b.find(b">", p)
                e = b.find(b"</" + _NAMES[pos[r]].encode() + b">", tag_end)
                if e < 0:
                    raise _Unsupported("open raw text")
                opaque_start.append(tag_end + 1)
                opaque_end.append(e)
                last = e
        if opaque_start:
            os_ = np.array(opaque_start, dtype=np.int64)
            k = np.searchsorted(os_, lt, "right") - 1
            tok = np.flatnonzero((k < 0) | (lt >= np.array(opaque_end, dtype=np.int64)[k]))
        else:
            tok = rows
        t_start = start[tok]
        first = name[tok, 0]
        if not ((first - 97) < 26).all():  # every token must be <letter... or </letter...
            raise _Unsupported("odd token")
        t_flags = np.where(lexbor_name[tok], flags[tok], 0)
        # svg/math/template: opaque blobs from their start tag to the matching end tag
        blob_tok = np.flatnonzero((t_flags & _F_BLOB) != 0)
        t_close = None
        if len(blob_tok):
            inside = np.zeros(len(tok) + 1, dtype=np.int64)
            t_close = {}
            open_i, open_name, depth = -1, -1, 0
            t_pos = pos[tok]
            for i in blob_tok.tolist():
                nm = int(t_pos[i])
                if open_i < 0:
                    if not t_start[i]:
                        raise _Unsupported("stray end tag")
                    open_i, open_name, depth = i, nm, 1
                elif nm == open_name:
                    depth += 1 if t_start[i] else -1
                    if depth == 0:
                        t_close[open_i] = i
                        inside[open_i + 1] += 1
                        inside[i + 1] -= 1
                        open_i = -1
            if open_i >= 0:
                raise _Unsupported("open blob")
            keep = np.cumsum(inside[:-1]) == 0
            old_index = np.flatnonzero(keep)
            t_close = {int(np.searchsorted(old_index, o)): c for o, c in t_close.items()}
            close_tok = {k: int(tok[c]) for k, c in t_close.items()}  # token -> row of its end tag
            tok, t_start, t_flags = tok[keep], t_start[keep], t_flags[keep]
        else:
            close_tok = {}
        void = (t_flags & _F_VOID) != 0
        blob = (t_flags & _F_BLOB) != 0
        delta = np.where(t_start, np.where(void | blob, 0, 1), -1)
        depth = np.cumsum(delta)
        if depth[-1] != 0 or (len(depth) > 1 and depth[:-1].min() < 1) or not t_start[0]:
            raise _Unsupported("unbalanced tags")
        # pair every start tag with its end tag: per level, starts and ends alternate
        nz = np.flatnonzero(delta)
        key = np.where(delta[nz] > 0, depth[nz] - 1, depth[nz])
        order = nz[np.argsort(key, kind="stable")]
        opens, closes = order[0::2], order[1::2]
        if not ((delta[opens] > 0).all() and (delta[closes] < 0).all() and (code[tok[opens]] == code[tok[closes]]).all()):
            raise _Unsupported("unpaired tags")
        t_lt = lt[tok]
        tag_end = gt[np.searchsorted(gt, t_lt)]  # the ">" closing each token (attribute values hold no ">")
        end_byte = tag_end + 1  # void: the start tag alone
        end_byte[opens] = tag_end[closes] + 1
        for t, c in close_tok.items():
            end_byte[t] = gt[np.searchsorted(gt, lt[c])] + 1
        self.t_lt, self.end_byte, self.blob = t_lt, end_byte, blob
        self.level = depth - delta  # a start token's parent depth
        self.depth = depth
        self.t_start = t_start
        self.last = np.searchsorted(t_lt, end_byte)  # first token after the element

    def children(self, t: int):
        """Token indices of element ``t``'s element children."""
        lo, hi = t + 1, int(self.last[t])
        sub = np.flatnonzero(self.t_start[lo:hi] & (self.level[lo:hi] == self.depth[t]))
        return (sub + lo).tolist()

    def stats(self, t: int) -> tuple[int, int]:
        p0, p1 = int(self.t_lt[t]), int(self.end_byte[t])
        ns = self.noise_start
        k = bisect.bisect_right(ns, p0) - 1
        inside = k >= 0 and ns[k] < p0 < self.noise_end[k]
        k = bisect.bisect_left(ns, p1) - 1
        crosses = k >= 0 and ns[k] >= p0 and self.noise_end[k] > p1
        if inside or crosses:  # a regex match would start or end outside this element: count its own markup
            return _stats_of_markup(self.b[p0:p1].decode("utf-8"))
        return (int(np.count_nonzero(self.counted[p0:p1])),
                bisect.bisect_left(self.struct_pos, p1) - bisect.bisect_left(self.struct_pos, p0))

    def tag(self, t: int) -> str:
        p = int(self.t_lt[t]) + 1
        return self.b[p:p + 64].split(b">", 1)[0].split(b" ", 1)[0].decode("utf-8", "replace")


def _content_node_slow(body):
    node, (chars, _), path = body, subtree_stats(body), ["body"]
    while len(path) <= MAX_DEPTH:
        best = None
        for child in element_children(node):
            n, struct = subtree_stats(child)
            if not n:
                continue
            density = n / max(struct, 1)
            if best is None or density > best[0]:
                best = (density, n, child)
        if best is None or best[1] * 2 <= chars:
            return node, path
        _, chars, node = best
        path.append(node.tag)
    return node, path  # pathological nesting: stop descending, keep what is below


def _content_node_fast(body):
    shadow = _Shadow(body.html)
    t, node, path = 0, body, ["body"]
    chars = shadow.stats(0)[0]
    while len(path) <= MAX_DEPTH:
        kids = shadow.children(t)
        if node.child_element_count != len(kids):
            raise _Unsupported("child count")
        best = None
        for i, c in enumerate(kids):
            n, struct = shadow.stats(c)
            if not n:
                continue
            density = n / max(struct, 1)
            if best is None or density > best[0]:
                best = (density, n, i)
        if best is None or best[1] * 2 <= chars:
            return node, path
        _, chars, i = best
        t = kids[i]
        if shadow.blob[t]:
            raise _Unsupported("descent into a blob")
        child = node.first_element_child
        for _ in range(i):
            child = child.next_element_sibling
        node = child
        if node.tag != shadow.tag(t):
            raise _Unsupported("tag mismatch")
        path.append(node.tag)
    return node, path


def content_node(body):
    """The node Baisa's descent stops at, and the path of tags to it (for the stats)."""
    try:
        return _content_node_fast(body)
    except _Unsupported:  # (any other error too: the per-node path is the definition)
        return _content_node_slow(body)
    except Exception:
        if _STRICT:
            raise
        return _content_node_slow(body)


def keep_only(node, root) -> int:
    """Remove every sibling along the path from ``node`` up to ``root``; returns nodes removed."""
    removed = 0
    while node is not None and node is not root:
        while node.previous_sibling is not None:
            node.previous_sibling.decompose()
            removed += 1
        while node.next_sibling is not None:
            node.next_sibling.decompose()
            removed += 1
        node = node.parent
    return removed


class DensityCleaner(Step):
    name = "density"

    def process(self, doc: Document) -> Document | None:
        body = doc.tree.body
        if body is None:  # framesets, fragments: nothing to descend into; tag removal takes the page as is
            self.stat_update("no_body")
            return doc
        target, path = content_node(body)
        if target.tag == "body":
            self.stat_update("kept_whole_body")
        else:
            self.stat_update("nodes_removed", keep_only(target, body))
            self.stat_update(f"depth.{min(len(path) - 1, 9)}")
        doc.meta["content_path"] = "/".join(path)
        return doc
