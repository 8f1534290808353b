"""The raw reader's table modes (in table, in table body, in row, in cell, in caption, in column group): implied
``<tbody>`` and ``<tr>``, cells closing cells and rows. Content that HTML would foster-parent out of the table
gives up."""
from __future__ import annotations

from preprocess.cleaners.learned.raw.elements import BUTTON_SCOPE, TABLE_SCOPE
from preprocess.cleaners.learned.raw.modes import MARKER
from preprocess.cleaners.learned.raw.page import names_meta
from preprocess.cleaners.learned.raw.tokens import GiveUp


class Tables:
    """Mixed into the tree builder (``tree.Reader``)."""

    def table_start(self, mode, name, attrs, closing, p) -> int:
        if mode == "row" and name in ("td", "th"):
            self.clear_back(("tr",))
            self.push(name, attrs)
            self.active.append(MARKER)
            return p
        if mode == "row" and name in ("caption", "col", "colgroup", "tbody", "tfoot", "thead", "tr"):
            self.clear_back(("tr",))
            self.pop()
            return self.start_tag(name, attrs, closing, p)
        if mode == "tbody":
            if name == "tr":
                self.clear_back(("tbody", "thead", "tfoot"))
                self.push(name, attrs)
                return p
            if name in ("td", "th"):
                self.clear_back(("tbody", "thead", "tfoot"))
                self.push("tr", {})
                return self.start_tag(name, attrs, closing, p)
            if name in ("caption", "col", "colgroup", "tbody", "tfoot", "thead"):
                self.clear_back(("tbody", "thead", "tfoot"))
                self.pop()
                return self.start_tag(name, attrs, closing, p)
        # in table
        if name == "caption":
            self.clear_back(("table",))
            self.active.append(MARKER)
            self.push(name, attrs)
        elif name == "colgroup":
            self.clear_back(("table",))
            self.push(name, attrs)
        elif name == "col":
            self.clear_back(("table",))
            self.push("colgroup", {})
            self.void(name, attrs)
        elif name in ("tbody", "tfoot", "thead"):
            self.clear_back(("table",))
            self.push(name, attrs)
        elif name in ("td", "th", "tr"):
            self.clear_back(("table",))
            self.push("tbody", {})
            return self.start_tag(name, attrs, closing, p)
        elif name == "table":
            self.pop_until(("table",))
            return self.start_tag(name, attrs, closing, p)
        elif name in ("style", "script"):
            self.push(name, attrs)
            q = self.raw_content(name, p, attrs)
            self.pop()
            return q
        elif name == "input" and attrs.get("type", "").lower() == "hidden":
            self.void(name, attrs)
        elif name == "form":
            if self.form is None:
                self.form = self.push(name, attrs).uid
                self.pop()
        elif name in ("meta", "link"):
            if name == "meta" and names_meta(attrs):
                raise GiveUp("a page name's <meta> in a table (foster parenting)")
            self.void(name, attrs)
        else:
            raise GiveUp(f"<{name}> in a table (foster parenting)")
        return p

    def clear_back(self, names) -> None:
        while self.stack[-1].name not in names and self.stack[-1].name not in ("table", "template", "html"):
            self.pop()

    def close_cell(self) -> None:
        self.implied_ends()
        self.pop_until(("td", "th"))
        self.clear_to_marker()

    def close_caption(self) -> None:
        self.implied_ends()
        self.pop_until(("caption",))
        self.clear_to_marker()

    def table_end(self, mode, name) -> bool:
        """True when the table modes handled (or ignored) the end tag; False: the in-body rules apply."""
        if mode == "cell":
            if name in ("td", "th"):
                if self.in_scope((name,), TABLE_SCOPE):
                    self.close_cell()
                return True
            if name in ("table", "tbody", "tfoot", "thead", "tr"):
                if self.in_scope((name,), TABLE_SCOPE):
                    self.close_cell()
                    self.end_tag(name)
                return True
            return name in ("body", "caption", "col", "colgroup", "html")
        if mode == "caption":
            if name == "caption":
                if self.in_scope(("caption",), TABLE_SCOPE):
                    self.close_caption()
                return True
            if name == "table":
                self.close_caption()
                self.end_tag(name)
                return True
            return name in ("body", "col", "colgroup", "html", "tbody", "td", "tfoot", "th", "thead", "tr")
        if mode == "colgroup":
            if name == "colgroup":
                self.pop()
                return True
            raise GiveUp("colgroup content")
        if mode == "row":
            if name == "tr":
                self.clear_back(("tr",))
                self.pop()
                return True
            if name in ("table", "tbody", "tfoot", "thead"):
                if name != "table" and not self.in_scope((name,), TABLE_SCOPE):
                    return True
                self.clear_back(("tr",))
                self.pop()
                self.end_tag(name)
                return True
            if name in ("body", "caption", "col", "colgroup", "html", "td", "th"):
                return True
        if mode == "tbody":
            if name in ("tbody", "tfoot", "thead"):
                if self.in_scope((name,), TABLE_SCOPE):
                    self.clear_back(("tbody", "thead", "tfoot"))
                    self.pop()
                return True
            if name == "table":
                self.clear_back(("tbody", "thead", "tfoot"))
                self.pop()
                self.end_tag(name)
                return True
            if name in ("body", "caption", "col", "colgroup", "html", "td", "th", "tr"):
                return True
        # in table
        if name == "br":
            raise GiveUp("</br> in a table (foster parenting)")
        if name == "table":
            if self.in_scope(("table",), TABLE_SCOPE):
                self.pop_until(("table",))
            return True
        if name in ("body", "caption", "col", "colgroup", "html", "tbody", "td", "tfoot", "th", "thead", "tr"):
            return True
        if name == "p" and not self.in_scope(("p",), BUTTON_SCOPE):
            raise GiveUp("</p> without a p (in a table)")
        return False  # in-body rules; the table is special and a scope boundary: nothing past it is popped
