"""Per-element counts of ``density`` (visible characters, structural start tags) from ONE serialisation
of ``<body>``.

The counts are defined on lexbor's serialisation of a subtree (``_stats_of_markup``, which
``density.subtree_stats`` applies to one node: script/style/... blocks and comments dropped, tags
replaced by spaces, the remaining non-blank characters counted; structural start tags counted).
``_Shadow`` computes the same counts for every element from one string: its code
points go into numpy, every ``<`` is classified from the 8 characters after it
(packed into a uint64), the noise blocks are the regex's own matches, and a mask
of counted characters plus the sorted structural-tag positions give any
element's counts by ``count_nonzero`` and bisection.

This is no second parser: it tokenises lexbor's own, well-formed output, where
``<`` and ``>`` are escaped in text and attribute values, every non-void element
has an end tag, and only comments and raw-text contents (script, style, ...) can
hold unescaped markup (those are skipped whole), so the k-th element child in
the serialisation is the k-th element child in the DOM. Whatever the shadow does
not model exactly (a ``<plaintext>``, a script whose content holds ``</script>``,
a tag name followed by a non-ASCII character, a noise block that would start
inside an element and end outside it, ...) raises ``_Unsupported`` (the page goes
to the per-node path) or, for one element, is counted by the regexes, so the
counts are always the ones ``subtree_stats`` gives.
"""
from __future__ import annotations

import bisect
import re

import numpy as np

from preprocess.cleaners.density_bytes import (_B5F, _B7F, _B80, _BLOCKQUO, _CODES, _F_BLOB, _F_NOISE, _F_PLAIN,
                                               _F_RAW, _F_STRUCT, _F_VOID, _FLAGS, _LENS, _MASKS, _MULT, _NAME_FLAGS,
                                               _NAMES, _PLAINTEX, _SHIFT, _SLOTS, _STRUCT_END, STRUCTURAL_TAGS, _ge,
                                               _stretches, _tags, _units, _window)
from preprocess.html.dom import NOISE_TAGS, TAG_RE

_NOISE_BLOCK = re.compile(r"<!--.*?-->|<(" + "|".join(NOISE_TAGS) + r")\b.*?</\1\s*>", re.S | re.I)
_WS = (" ", "\n", "\t", "\r", "\u00a0")
# Counted on lexbor's serialisation of a subtree: a CSS query would wrap every match in a Python object.
_STRUCTURAL_OPEN = re.compile(r"<(?:" + "|".join(STRUCTURAL_TAGS) + r")[\s>/]", re.I)


def _stats_of_markup(html: str) -> tuple[int, int]:
    markup = _NOISE_BLOCK.sub(" ", html)
    text = TAG_RE.sub(" ", markup)
    return len(text) - sum(text.count(ws) for ws in _WS), len(_STRUCTURAL_OPEN.findall(markup))


# ----------------------------------------------------------------------------------------------------------------
# The shadow of lexbor's serialisation of <body>: the same counts for every element from one string
# (its byte-level machinery: density_bytes).

_WORD_RUN = re.compile(r"[A-Za-z0-9_]*")


def _letter(c: str) -> str:
    """What ``\\1`` matches for the letter ``c`` under IGNORECASE: characters whose simple lower case is c's."""
    alts = [x for x in {c, c.upper(), "\u0130", "\u0131", "\u017f", "\u212a"}
            if re.fullmatch(f"({re.escape(c)})x\\1", f"{c}x{x}", re.I)]
    return "[" + "".join(sorted(alts)) + "]"


# the end of a noise block, ``</\1\s*>``, for each name the block may start with
_NOISE_END = {n: re.compile("</" + "".join(_letter(c) for c in n) + r"\s*>") for n in NOISE_TAGS}
_NOISE_START = re.compile(r"<(?:!--|(" + "|".join(NOISE_TAGS) + r")\b)", re.I)
_LEXBOR_NAME = re.compile(r"[^ >]*")


class _Unsupported(Exception):
    """The shadow does not model this page exactly: use the per-node path."""


class _Shadow:
    """``subtree_stats`` of any element of ``<body>``, from one serialisation of ``<body>``.

    Rows are all ``<`` of the string. Tokens are the rows that open a start or end tag: those outside
    comments and raw-text contents (script, style, ...); the token of a start tag is its element.
    ``svg``/``math``/``template`` are blobs: one token each, nothing inside them is looked at.
    """

    def __init__(self, html: str):
        s = self.s = html
        a = _units(html)
        size = len(a)
        brackets = ((a == 60) | (a == 62)).nonzero()[0]
        opening = a[brackets] == 60
        lt = brackets[opening]
        gt = brackets[~opening]
        n = len(lt)
        if n < 2 or len(gt) < 2:
            raise _Unsupported("no markup")

        # the name after every "<" (after "</" for end tags): ASCII lower case, its \w run, what follows it
        is_end = a[np.minimum(lt + 1, size - 1)] == 47
        start = ~is_end
        first = lt + 1 + is_end
        v = _window(a, first).view(">u8").ravel()  # 8 characters a row, packed big-endian: SWAR from here
        comment = start & ((v >> np.uint64(40)) == 0x212D2D)  # "<!--"
        ascii_ = ~v & _B80
        h = v & _B7F
        v |= (_ge(h, 0x41) & ~_ge(h, 0x5B) & ascii_) >> np.uint64(2)  # ASCII lower case
        h = v & _B7F
        word = ((_ge(h, 0x30) & ~_ge(h, 0x3A)) | (_ge(h, 0x61) & ~_ge(h, 0x7B)) | ~(((h ^ _B5F) + _B7F))) & ascii_
        # the \w run: leading word bytes, from the highest set bit of the non-word ones (none: frexp gives 0)
        run = ((64 - np.frexp((~word & _B80).astype(np.float64))[1]) >> 3).astype(np.int64)  # 8: 8 or more
        nxt = ((v >> (np.uint64(56) - (np.minimum(run, 7) << 3).astype(np.uint64))) & np.uint64(255)).astype(np.int64)
        code = v & _MASKS[run]
        ident = _SLOTS[(code * _MULT) >> _SHIFT]
        ident = np.where((_CODES[ident] != code) | (_LENS[ident] != run), len(_NAMES), ident)
        flags = _FLAGS[ident]
        # 8 characters or more: is it one of the names of 8 (noscript, ...) or 9-10 (plaintext, blockquote)?
        for r in ((run == 8) & ((ident < len(_NAMES)) | (code == _BLOCKQUO) | (code == _PLAINTEX))).nonzero()[0].tolist():
            p = int(first[r])
            e = _WORD_RUN.match(s, p).end()
            ch = ord(s[e]) if e < size else 0
            nxt[r] = 128 if ch >= 128 else ch | 32 if 65 <= ch <= 90 else ch
            run[r] = min(e - p, 99)
            flags[r] = _NAME_FLAGS.get(s[p:e].lower(), 0)
        # a non-ASCII character right after a short name: \b, \s and case folding are Unicode matters there.
        # Ask the original regexes; a noise block or structural tag starting there goes to the per-node path.
        for r in ((nxt >= 128) & (run <= 10)).nonzero()[0].tolist():
            p = int(lt[r])
            if _NOISE_START.match(s, p, p + 24) or _STRUCTURAL_OPEN.match(s, p, p + 24):
                raise _Unsupported("non-ASCII after a tag name")
        if (flags & _F_PLAIN).any():
            raise _Unsupported("plaintext")
        exact = (nxt == 32) | (nxt == 62)  # lexbor writes a space or ">" after a tag name
        # <script-x> is a noise block to the regex but no script to lexbor; \b needs an ASCII non-word character;
        # of end tags only blob names matter
        flags &= np.where(exact, np.where(is_end, _F_BLOB, -1), np.where(is_end, 0, _F_NOISE | _F_STRUCT)) \
            & np.where(nxt >= 128, ~_F_NOISE, -1)

        # noise blocks (the regex's matches, left to right) and comments / raw-text contents (no tokens inside)
        dashes = gt[(a[gt - 1] == 45) & (a[gt - 2] == 45)]  # the ">" of every "-->"
        comments = comment.nonzero()[0]
        cands = (comment | ((flags & (_F_NOISE | _F_RAW)) != 0)).nonzero()[0]
        cand_lt = lt[cands].tolist()
        cand_end = [0] * len(cands)  # noise block's end, or 0: none
        raw_end = [0] * len(cands)  # (start, end) of a raw-text content, or 0
        if len(comments):
            if not len(dashes):
                raise _Unsupported("open comment")
            at = np.searchsorted(dashes, lt[comments] + 6)  # the first "-->" after "<!--"
            if at[-1] >= len(dashes):
                raise _Unsupported("open comment")
            for i, e in zip(np.searchsorted(cands, comments).tolist(), (dashes[at] + 1).tolist()):
                cand_end[i] = raw_end[i] = e
        tagged = ((flags[cands] & (_F_NOISE | _F_RAW)) != 0).nonzero()[0]
        rows_t = cands[tagged]
        for i, f, ex, nm in zip(tagged.tolist(), flags[rows_t].tolist(), exact[rows_t].tolist(), ident[rows_t].tolist()):
            tag = _NAMES[nm]
            close = "</" + tag + ">"
            after = cand_lt[i] + 1 + len(tag)
            e = s.find(close, after)
            if f & _F_NOISE:  # the regex's first </tag\s*> (any case): this one, unless some "</" comes before it
                if e >= 0 and s.find("</", after, e) < 0:
                    cand_end[i] = e + len(close)
                else:
                    m = _NOISE_END[tag].search(s, after)
                    if m is not None:
                        cand_end[i] = m.end()
            if f & _F_RAW and ex:  # (the start tag holds no "<")
                raw_end[i] = (s.find(">", after) + 1, e)  # -1: open (fine if it is skipped)
        noise_start, noise_end, opaque_start, opaque_end = [], [], [], []
        last_noise = last_opaque = 0
        for p, e, o in zip(cand_lt, cand_end, raw_end):
            if e and p >= last_noise:
                noise_start.append(p)
                noise_end.append(e)
                last_noise = e
            if o and p >= last_opaque:
                if o.__class__ is tuple:
                    p, o = o
                    if o < 0:
                        raise _Unsupported("open raw text")
                opaque_start.append(p)
                opaque_end.append(o)
                last_opaque = o
        self.noise_start, self.noise_end = noise_start, noise_end

        # the tags: from a "<" to the next ">" (a "<" in between is part of the tag: lexbor writes attribute
        # names as they came, "<" included), outside comments and raw-text contents
        rows = np.cumsum(opening) - 1  # row of each "<" bracket
        if opaque_start:
            os_ = np.array(opaque_start, dtype=np.int64)
            oe = np.array(opaque_end, dtype=np.int64)
            k = np.searchsorted(os_, brackets, "right") - 1
            kept = ((k < 0) | (brackets >= oe[k])).nonzero()[0]
            at, tag_gt, stray = _tags(brackets[kept], opening[kept])
            before = np.searchsorted(brackets[kept], os_) - 1  # what precedes a comment must end a tag
            if (opening[kept[before[before >= 0]]]).any():
                raise _Unsupported("comment inside a tag")
            at = kept[at]
        else:
            at, tag_gt, stray = _tags(brackets, opening)
        if stray:
            raise _Unsupported("stray >")
        tag_lt = brackets[at]
        tok = rows[at]
        # ``<[^>]*>`` finds the same tags outside noise blocks, as long as comments and raw-text contents lie
        # inside noise blocks
        if noise_start:
            ns = np.array(noise_start, dtype=np.int64)
            ne = np.array(noise_end, dtype=np.int64)
            if opaque_start:
                k = np.searchsorted(ns, os_, "right") - 1
                if ((k < 0) | (ne[k] < oe)).any():
                    raise _Unsupported("raw text outside noise")
            j = np.searchsorted(tag_lt, ns) - 1
            if ((j >= 0) & (tag_gt[j] >= ns)).any():
                raise _Unsupported("noise block inside a tag")
            k = np.searchsorted(ns, lt, "right") - 1
            struct = ((k < 0) | (lt >= ne[k])) & ((flags & _F_STRUCT) != 0)
        else:
            if opaque_start:
                raise _Unsupported("raw text outside noise")
            struct = (flags & _F_STRUCT) != 0
        # characters counted: not blank, not inside a tag (from "<" to ">") nor a noise block
        counted = _stretches(tag_lt, tag_gt + 1, size)
        counted &= (a != 32) & (a != 10) & (a != 9) & (a != 13) & (a != 160)
        if noise_start:
            counted &= _stretches(ns, ne, size)
        self.counted = counted
        self.struct_pos = lt[struct & start & _STRUCT_END[nxt]].tolist()  # (the regex looks at every "<")

        # the elements: start and end tags
        lead = v[tok] >> np.uint64(56)
        if not ((lead - np.uint64(97)) < np.uint64(26)).all():  # <letter... or </letter...
            pi = lead == 63  # <?...>: a processing instruction (lexbor keeps "<?php ...>"), not an element
            if not (((lead - np.uint64(97)) < np.uint64(26)) | pi).all():
                raise _Unsupported("odd token")
            tok = tok[~pi]
        t_start = start[tok]
        t_flags = flags[tok]
        t_code = code[tok]
        t_lt = lt[tok]
        blob_end = {}
        blobs = (t_flags & _F_BLOB).nonzero()[0]
        if len(blobs):  # from the blob's start tag to its end tag, counting nested ones of the same name
            keep = np.ones(len(tok), dtype=bool)
            open_at, open_code, nested = -1, 0, 0
            for i, c, st in zip(blobs.tolist(), t_code[blobs].tolist(), t_start[blobs].tolist()):
                if open_at < 0:
                    if not st:
                        raise _Unsupported("stray end tag")
                    open_at, open_code, nested = i, c, 1
                elif c == open_code:
                    nested += 1 if st else -1
                    if not nested:
                        blob_end[open_at] = s.find(">", int(t_lt[i])) + 1
                        keep[open_at + 1:i + 1] = False
                        open_at = -1
            if open_at >= 0:
                raise _Unsupported("open blob")
            kept = keep.nonzero()[0]
            blob_end = {int(np.searchsorted(kept, i)): e for i, e in blob_end.items()}
            t_start, t_flags, t_code, t_lt = t_start[kept], t_flags[kept], t_code[kept], t_lt[kept]
        if (((t_flags & _F_RAW) != 0) & ((t_flags & _F_NOISE) == 0)).any():  # xmp, noembed, noframes
            raise _Unsupported("raw text outside noise")
        delta = t_start.astype(np.int64) * 2 - 1
        delta[(t_flags & (_F_VOID | _F_BLOB)) != 0] = 0
        depth = np.cumsum(delta)
        if len(depth) < 2 or depth[-1] != 0 or depth[:-1].min() < 1 or not t_start[0]:
            raise _Unsupported("unbalanced tags")
        # each start tag's end tag: per level, start and end tags alternate
        nz = delta.nonzero()[0]
        level = depth[nz] - (delta[nz] > 0)
        if level[-1] < 32767:  # (the deepest level is the first one's) radix sort
            level = level.astype(np.int16)
        order = nz[np.argsort(level, kind="stable")]
        opens, closes = order[0::2], order[1::2]
        if not (t_start[opens].all() and not t_start[closes].any() and (t_code[opens] == t_code[closes]).all()):
            raise _Unsupported("unpaired tags")
        end_of = np.arange(len(t_lt))  # void elements and blobs end with their start tag
        end_of[opens] = closes
        self.end_of = end_of
        self.t_lt = t_lt
        self.blob_end = blob_end

    def stats(self, p0: int, p1: int) -> tuple[int, int]:
        """(characters, structural tags) of s[p0:p1], an element's serialisation."""
        ns = self.noise_start
        if ns:
            k = bisect.bisect_right(ns, p0) - 1
            odd = k >= 0 and ns[k] < p0 < self.noise_end[k]  # inside a noise block that began before it
            k = bisect.bisect_left(ns, p1) - 1
            if odd or (k >= 0 and ns[k] >= p0 and self.noise_end[k] > p1):  # or one running past its end
                return _stats_of_markup(self.s[p0:p1])
        sp = self.struct_pos
        return int(np.count_nonzero(self.counted[p0:p1])), bisect.bisect_left(sp, p1) - bisect.bisect_left(sp, p0)

    def element(self, k: int) -> tuple[int, int]:
        """The span of token ``k``'s element."""
        e = self.blob_end.get(k)
        if e is None:  # after the ">" of its end tag (attribute values hold no ">")
            e = self.s.find(">", self.t_lt.item(self.end_of.item(k))) + 1
        return self.t_lt.item(k), e

    def children(self, k: int) -> list[int]:
        end, kids = self.end_of.item(k), []
        k += 1
        while k < end:
            kids.append(k)
            k = self.end_of.item(k) + 1
        return kids

    def tag(self, k: int) -> str:
        return _LEXBOR_NAME.match(self.s, self.t_lt.item(k) + 1).group()
