"""The page side of the raw reader: what ``blocks.split_python`` reads off lexbor's serialisation, built as the
tree builder opens and closes elements (blocks, their elements and class/id values, link text), and what the
class/id hint rule (``filters.hints.HintFilter.drop_from``) measures: every candidate's text in the tree."""
from __future__ import annotations

from preprocess.cleaners.learned.blocks import TAG_INDEX, Page
from preprocess.cleaners.learned.raw.elements import BLOCK, NEVER_HINTED, NOISE_SET
from preprocess.cleaners.learned.raw.tokens import GiveUp, ascii_lower, names_of, serial_attrs

LD_JSON = "application/ld+json"
MAX_OPEN = 1000  # elements open at once (unclosed <font>s by the thousand: the tree's way, with its cost budget)


def names_meta(attrs: dict) -> bool:
    """``anchor._HEAD_ELEMENTS``'s metas: ``meta[content][name$=":title" i], meta[content][property$=":title" i]``."""
    return "content" in attrs and (ascii_lower(attrs.get("name", "")).endswith(":title")
                                   or ascii_lower(attrs.get("property", "")).endswith(":title"))


class El:
    """An open element: ``e`` its page element (-1: none), ``noise`` inside (or being) a noise element or a hinted
    one, ``root`` one itself, ``total``/``seq`` the body's text characters and elements before it."""

    __slots__ = ("name", "e", "noise", "root", "uid", "attrs", "total", "seq", "links")

    def __init__(self, name, e, noise, root, uid, attrs, total, seq):
        self.name, self.e, self.noise, self.root, self.uid = name, e, noise, root, uid
        self.attrs, self.total, self.seq = attrs, total, seq
        self.links = 0  # the page's link starts and ends so far, for an <a> (what its state depends on)


def _has_word(value: str, words: tuple) -> bool:  # (_hints.pxi's: CSS's ASCII case-insensitive substring)
    low = ascii_lower(value)
    return any(w in low for w in words)


def verdict(cls, ident, hints):
    """The hint rule on an element's class and id values (None when absent): None, no candidate; True, an
    exempt one (named like content too); False, a candidate."""
    if (cls and _has_word(cls, hints.unlikely)) or (ident and _has_word(ident, hints.unlikely)):
        return bool(hints.maybe.search(f"{cls or ''} {ident or ''}"))
    return None


def hint_drops(candidates: dict, total: int, max_share: float) -> tuple[set, int]:
    """``HintFilter.drop_from``'s decisions over a reading's candidates (uid -> [seq, last seq inside, text
    characters, exempt]) and the body's text characters: (uids dropped, candidates kept for their size)."""
    limit = max_share * total
    drop, last_end, kept_large = set(), 0, 0
    for uid, (seq, end, chars, exempt) in sorted(candidates.items(), key=lambda kv: kv[1][0]):
        if seq <= last_end or exempt:  # (inside the last element dropped)
            continue
        if chars > limit:
            kept_large += 1
            continue
        drop.add(uid)
        last_end = end
    return drop, kept_large


class PageSide:
    """Blocks and elements as ``split_python`` makes them. ``hints``: a ``HintFilter`` whose rule applies;
    ``drop``: the elements (uids) it drops, from a first reading; ``candidates``: uid -> [seq, last seq inside,
    text characters, exempt] of the elements whose class/id hold one of its words."""

    def init_page(self, max_depth: int, hints=None, drop=frozenset()):
        self.max_depth, self.hints, self.drop = max_depth, hints, drop
        self.page = Page()
        self.stack: list[El] = []
        self.noise = 0         # noise (or dropped) elements open
        self.uid = self.seq = self.total = 0
        self.cur = -1          # the page element text goes to
        self.blocks: list[int] = []  # the page elements open
        self.buf: list[str] = []
        self.lbuf: list[str] = []
        self.in_a = False
        self.links = 0         # non-noise <a> starts and ends so far
        self.chars = 0
        self.noscript_chars = self.hidden_chars = 0
        self.template = 0      # <template>s open (their content is not the page's)
        self.candidates: dict = {}
        self.title = None      # the first <title>'s text (the tree's title), in head or body
        self.named: list = []  # what anchor.page_head reads, in document order (anchor.head_names' elements)
        self.detached: dict = {}  # uid of the element above a form that left the stack -> the form

    def flush(self) -> None:
        if self.buf:
            t = " ".join("".join(self.buf).split())
            if t:
                p = self.page
                p.texts.append(t)
                p.link_chars.append(len(" ".join("".join(self.lbuf).split())) if self.lbuf else 0)
                p.owner.append(self.cur)
                p.start.append(self.chars)
                self.chars += len(t)
            self.buf.clear()
            self.lbuf.clear()

    def text(self, t: str) -> None:
        if not t or self.phase != "body" or self.template:
            return
        self.total += len(t)
        if self.noise:
            if any(e.name == "noscript" for e in self.stack):
                self.noscript_chars += len(t)
            return
        self.buf.append(t)
        if self.in_a:
            self.lbuf.append(t)

    def seen(self, name: str, attrs: dict, text: str = "") -> None:
        """A ``<title>``, ``<script>`` or ``<meta>`` of the document (not of a template's content): what the tree's
        title and ``anchor.page_head`` read."""
        if self.template:
            return
        if name == "title":
            if self.title is None:
                self.title = text
        elif name == "script":
            if ascii_lower(attrs.get("type", "")) == LD_JSON:
                self.named.append(("ld", text))
        elif name == "meta" and names_meta(attrs):
            self.named.append(("meta", attrs.get))

    def new_el(self, name: str, attrs: dict) -> El:
        """An element as it opens (a candidate of the hint rule noted); not yet on a stack."""
        self.uid += 1
        self.seq += 1
        root = name in NOISE_SET or self.uid in self.drop
        el = El(name, -1, self.noise > 0 or root, root, self.uid, attrs, self.total, self.seq)
        h = self.hints
        if h is not None and self.phase == "body" and not self.template and name not in NEVER_HINTED:
            v = verdict(attrs.get("class"), attrs.get("id"), h)
            if v is not None:
                self.candidates[el.uid] = [el.seq, None, None, v]
        return el

    def end_el(self, el: El) -> None:
        """An element closes (or leaves the stack: its text in the tree ends here)."""
        c = self.candidates.get(el.uid)
        if c is not None:
            c[1], c[2] = self.seq, self.total - el.total

    def push(self, name: str, attrs: dict) -> El:
        if len(self.stack) >= MAX_OPEN:  # (bounds every walk down the stack: the reading stays linear)
            raise GiveUp(f"more than {MAX_OPEN:,} elements open")
        el = self.new_el(name, attrs)
        if not el.noise:
            if name in BLOCK:
                self.flush()
                if len(self.blocks) >= self.max_depth:
                    raise GiveUp("elements deeper than max_depth")
                p = self.page
                el.e = len(p.el_tag)
                p.el_tag.append(TAG_INDEX[name])
                p.el_parent.append(self.cur)
                p.el_depth.append(len(self.blocks))
                p.el_names.append(names_of(attrs))
                p.el_start.append(self.chars)
                p.el_end.append(-1)
                self.blocks.append(el.e)
                self.cur = el.e
            elif name == "a":
                self.in_a = "href=" in serial_attrs(attrs)
                self.links += 1
                el.links = self.links
        if el.root:
            self.noise += 1
        self.stack.append(el)
        return el

    def pop(self) -> str:
        el = self.stack.pop()
        self.close(el)
        form = self.detached.pop(el.uid, None)
        if form is not None:  # (the last element open in a form that left the stack: the form ends too)
            self.close(form)
        return el.name

    def close(self, el: El) -> None:
        self.end_el(el)
        if el.root:
            self.noise -= 1
        if not el.noise:
            if el.e >= 0:
                self.flush()
                self.page.el_end[el.e] = self.chars
                self.blocks.pop()
                self.cur = self.blocks[-1] if self.blocks else -1
            elif el.name == "a":
                self.in_a = False
                self.links += 1

    def detach(self, k: int) -> None:
        """``</form>`` with elements still open in it: the form leaves the stack at ``k`` (HTML's rule), and ends
        in the tree when the element above it does."""
        form = self.stack.pop(k)
        self.detached[self.stack[k].uid] = form

    def void(self, name: str, attrs: dict) -> None:
        """A void element: ``<br>`` and ``<hr>`` end a block (unless the hint rule drops them)."""
        el = self.new_el(name, attrs)
        self.end_el(el)
        if name in ("br", "hr") and not el.noise:
            self.flush()

    def finish(self) -> Page:
        self.flush()
        for e in self.blocks:
            self.page.el_end[e] = self.chars
        for el in self.stack:
            self.end_el(el)
        for el in self.detached.values():
            self.end_el(el)
        self.page.chars = self.chars
        return self.page
