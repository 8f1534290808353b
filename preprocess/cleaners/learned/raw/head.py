"""The raw reader before ``<body>``: HTML's head insertion modes (initial, before html, before head, in head, in head
noscript, after head), and where the body starts."""
from __future__ import annotations

from preprocess.cleaners.learned.raw.elements import HEAD_TAGS, HEAD_VOID
from preprocess.cleaners.learned.raw.tokens import GiveUp


class Head:
    """Mixed into the tree builder (``tree.Reader``): ``phase`` is the insertion mode until the body starts."""

    def start_body(self, attrs=None) -> None:
        if self.template:  # (text in a template's svg before <body>: the stack would empty under the body)
            raise GiveUp("the body starting inside a template")
        if not self.stack:
            self.push("html", {})
        self.phase = "body"
        self.push("body", attrs or {})

    def head_start(self, name, attrs) -> bool:
        """A start tag before ``<body>`` by the head's insertion modes: False when it stays in the head (a
        ``HEAD_TAGS`` one is then read there), True when the body starts (it is then the body's)."""
        if name == "html":
            if not self.stack:
                self.push("html", {})
            return False
        if self.phase in ("initial", "before html", "before head"):
            if not self.stack:
                self.push("html", {})
            self.phase = "in head"
            if name == "head":
                return False
        if self.phase == "in head noscript":
            if name in ("basefont", "bgsound", "link", "meta", "noframes", "style", "head", "noscript"):
                return False  # (head and noscript ignored; the others read in the noscript)
            self.phase = "in head"  # (anything else ends the noscript)
        if self.phase == "in head":
            if name == "noscript":
                self.phase = "in head noscript"
                return False
            if name in HEAD_TAGS or name == "head":
                return False
            self.phase = "after head"
        if name in HEAD_TAGS or name == "head":
            return False
        if name == "frameset":
            raise GiveUp("<frameset>")
        self.start_body(attrs if name == "body" else None)
        return name != "body"

    def head_end(self, name) -> None:
        """An end tag before ``<body>``: most are ignored; ``</br>`` (and ``</body>``, ``</html>`` after the head)
        starts the body."""
        ph = self.phase
        if ph == "in head noscript":
            if name == "noscript":
                self.phase = "in head"
            elif name == "br":
                self.start_body()
                self.body_end(name)
            return
        if name == "head" and ph in ("initial", "before html", "before head", "in head"):
            self.phase = "after head"
        elif name in ("body", "html", "br"):
            self.start_body()
            if name == "br":
                self.body_end(name)

    def head_tag(self, name, attrs, p) -> int:
        """``<meta>``, ``<title>``, ``<script>`` ... by the in-head rules, before ``<body>`` or in it."""
        in_body = self.phase == "body"
        if name in HEAD_VOID:
            self.seen(name, attrs)
            if in_body:
                self.void(name, attrs)
            return p
        if name in ("title", "style", "noframes", "script"):
            if not in_body:
                return self.raw_content(name, p, attrs)
            self.push(name, attrs)  # (a <title> in the body: its text is the block's)
            q = self.raw_content(name, p, attrs)
            self.pop()
            return q
        raise GiveUp(f"<{name}> in the head")
