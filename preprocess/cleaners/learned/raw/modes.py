"""The raw reader's rarer rules: the adoption agency, ``<template>``, svg/math and ``<select>``. Only what decides
the page's blocks is followed; anything that would move text elsewhere (links or blocks moved by the adoption
agency, HTML breaking out of svg, markup that closes elements around a select) gives up."""
from __future__ import annotations

from preprocess.cleaners.learned.raw.elements import (BLOCK, BREAKOUT, BUTTON_SCOPE, CLOSES_P, FORMATTING,
                                                      FOSTER_TARGETS, HEADINGS, INTEGRATION, RAW_ELEMENTS, SCOPE,
                                                      SPECIAL, TABLE_PARTS, VOID)
from preprocess.cleaners.learned.raw.page import LD_JSON, El
from preprocess.cleaners.learned.raw.tokens import GiveUp, ascii_lower

MARKER = None  # a marker in the list of active formatting elements


class Modes:
    """Mixed into the tree builder (``tree.Reader``), whose stacks and page side these methods use."""

    # ------------------------------------------------------------------ the adoption agency (misnested formatting)
    def adoption(self, name: str) -> None:
        """HTML's adoption agency algorithm for the end tag of formatting element ``name``. Moving a furthest
        block out of inline formatting elements changes no block's text, order or block parent, so that case is
        followed on the stacks; where a block or a link in between would move, a table would foster-parent it or
        the hint rule measures an element whose text it moves, give up."""
        cur = self.stack[-1]
        if cur.name == name and not any(x is not MARKER and x[0] == cur.uid for x in self.active):
            self.pop()
            return
        for outer in range(8):
            fe = None
            for i in range(len(self.active) - 1, -1, -1):
                x = self.active[i]
                if x is MARKER:
                    break
                if x[1] == name:
                    fe = i
                    break
            if fe is None:
                if outer == 0:
                    self.other_end(name)
                return
            uid = self.active[fe][0]
            pos = next((k for k in range(len(self.stack) - 1, -1, -1) if self.stack[k].uid == uid), None)
            if pos is None:
                del self.active[fe]
                return
            if any(e.name in SCOPE for e in self.stack[pos + 1:]):
                return  # not in scope: ignored
            fb = next((k for k in range(pos + 1, len(self.stack)) if self.stack[k].name in SPECIAL), None)
            if fb is None:
                while len(self.stack) > pos:
                    self.pop()
                del self.active[fe]
                return
            if any(e.name in BLOCK or e.name == "a" for e in self.stack[pos + 1:fb]):
                raise GiveUp("a link or a block moved by the adoption agency")
            if self.stack[pos - 1].name in FOSTER_TARGETS:
                raise GiveUp("the adoption agency into a table (foster parenting)")
            if any(e.uid in self.candidates for e in self.stack[pos:fb]):  # (their text would change)
                raise GiveUp("the adoption agency moves elements the hint rule measures")
            if name == "a" and not self.stack[pos].noise and self.stack[pos].links != self.links:
                raise GiveUp("a link moved by the adoption agency after other links")
            self._adopt(name, fe, uid, self.stack[fb].uid, fb)

    def _adopt(self, name, fe, uid, fb_uid, k) -> None:
        """One round of the algorithm's furthest-block case, on the stack and the list only."""
        bookmark, last_is_fb, inner = fe, True, 0
        while True:
            inner += 1
            k -= 1
            node = self.stack[k]
            if node.uid == uid:
                break
            li = next((i for i, x in enumerate(self.active) if x is not MARKER and x[0] == node.uid), None)
            if inner > 3 and li is not None:
                del self.active[li]
                bookmark -= li < bookmark
                fe -= li < fe
                li = None
            if li is None:
                if self.detached:
                    raise GiveUp("the adoption agency with a form left open")
                del self.stack[k]  # (it stays in the tree; it leaves the stack)
                continue
            self.uid += 1
            self.active[li] = [self.uid, node.name, node.attrs]
            self.stack[k] = El(node.name, -1, node.noise, False, self.uid, node.attrs, node.total, node.seq)
            if last_is_fb:
                bookmark = li + 1
            last_is_fb = False
        if self.detached:
            raise GiveUp("the adoption agency with a form left open")
        fe_attrs = self.active[fe][2]
        fe_noise = next(e.noise for e in self.stack if e.uid == uid)
        del self.active[fe]
        bookmark -= fe < bookmark
        self.uid += 1
        self.active.insert(bookmark, [self.uid, name, fe_attrs])
        del self.stack[next(k for k, e in enumerate(self.stack) if e.uid == uid)]
        fbk = next(k for k, e in enumerate(self.stack) if e.uid == fb_uid)
        fbe = self.stack[fbk]
        clone = El(name, -1, fbe.noise, False, self.uid, fe_attrs, self.total, self.seq)
        clone.links = self.links
        self.stack.insert(fbk + 1, clone)
        if name == "a" and fbe.noise and not fe_noise:  # (the link ends before the furthest block: noise)
            self.in_a = False

    # ------------------------------------------------------------------ <template>, svg/math
    def template_start(self, name, attrs, closing, p) -> int:
        """Inside a ``<template>`` (its content is a fragment outside the page) what matters is where it ends, and
        the formatting elements it leaves active: ``</template>`` clears the list only to the last marker, so one
        opened before an ``<applet>``, ``<marquee>`` or ``<object>`` in it is reopened after it (HTML's rule).
        The tokenizer's states are followed and elements stacked; table parts give up (the template's own modes).
        Reopening inside the template is left out: it changes which elements are stacked there, not the list."""
        if name == "template":
            self.push(name, attrs)
            self.active.append(MARKER)
            self.template += 1
        elif name in RAW_ELEMENTS or name == "script":
            return self.raw_content(name, p, attrs)
        elif name in ("svg", "math"):
            self.foreign_root(name, attrs, closing)
        elif name == "plaintext" or name in TABLE_PARTS:
            raise GiveUp(f"<{name}> in a template")
        elif name in FORMATTING:
            after = self.active[self.last_marker() + 1:]
            if name == "a" and any(x[1] == "a" for x in after) or name == "nobr" and self.in_scope(("nobr",)):
                raise GiveUp(f"<{name}> in <{name}> in a template")
            self.push_formatting(name, attrs)
        elif name in ("applet", "marquee", "object"):
            self.push(name, attrs)
            self.active.append(MARKER)
        elif name not in VOID and name != "image":
            self.push(name, attrs)
        return p

    def template_end(self, name) -> None:
        cur = self.stack[-1]
        if name == "template":
            while self.pop() != "template":
                pass
            self.clear_to_marker()
            self.template -= 1
        elif name in FORMATTING:
            entry = next((x for x in reversed(self.active[self.last_marker() + 1:]) if x[1] == name), None)
            if entry is None and cur.name == name:
                self.pop()
            elif entry is not None and cur.uid == entry[0]:
                self.pop()
                self.active.remove(entry)
            elif entry is not None and not self.on_stack(entry[0]):
                self.active.remove(entry)
            elif entry is not None or any(e.name == name for e in self.stack):
                raise GiveUp(f"</{name}> misnested in a template")
        elif name in ("applet", "marquee", "object"):
            if cur.name != name:
                raise GiveUp(f"</{name}> misnested in a template")
            self.pop()
            self.clear_to_marker()
        elif cur.name == name:
            self.pop()

    def last_marker(self) -> int:
        return max((i for i, x in enumerate(self.active) if x is MARKER), default=-1)

    def foreign_root(self, name, attrs, closing) -> None:
        el = self.push(name, attrs)
        if closing:
            self.pop()
        else:
            self.foreign.append(el)

    def foreign_start(self, name, attrs, closing, p) -> int:
        if name in BREAKOUT or name == "font" and any(k in attrs for k in ("color", "face", "size")):
            raise GiveUp("HTML breaking out of svg/math")
        if self.foreign[-1].name in INTEGRATION:
            raise GiveUp("markup in an svg/math integration point")
        if name == "script" and ascii_lower(attrs.get("type", "")) == LD_JSON:
            raise GiveUp("JSON-LD in svg/math")
        el = self.new_el(name, attrs)
        if closing:
            self.end_el(el)
        else:
            self.foreign.append(el)
        return p

    def foreign_end(self, name) -> None:
        """An end tag in svg/math closes up to the innermost element of that name (the elements it holds too)."""
        i = next((i for i in range(len(self.foreign) - 1, -1, -1) if self.foreign[i].name == name), None)
        if i is None:
            raise GiveUp("an HTML end tag inside svg/math")
        while len(self.foreign) > i:
            el = self.foreign.pop()
            if self.foreign:
                self.end_el(el)
            else:
                self.pop()  # (the svg/math itself)

    # ------------------------------------------------------------------ <select>
    def select_start(self, name, attrs, p) -> int:
        """In a ``<select>`` (noise) lexbor follows the in-body rules (the customizable select); only where the
        select ends matters, so anything that could close elements outside it gives up."""
        if name in ("option", "optgroup"):
            self.implied_ends("optgroup" if name == "option" else None)
            if self.in_scope(("option", "optgroup") if name == "optgroup" else ("option",)):
                raise GiveUp(f"<{name}> with an option open")
            self.reconstruct()
            self.push(name, attrs)
        elif name == "select":
            if not self.in_scope(("select",)):
                raise GiveUp("<select> in a select out of scope")
            self.pop_until(("select",))
        elif name in ("input", "keygen", "textarea", "plaintext", "form", "button", "a", "nobr", "hr", "li", "dd",
                      "dt", "table") or name in TABLE_PARTS:  # (a table part ends a select in a table)
            raise GiveUp(f"<{name}> in a select")
        elif (name in CLOSES_P or name in HEADINGS or name in ("pre", "listing", "xmp")) \
                and self.in_scope(("p",), BUTTON_SCOPE):
            raise GiveUp(f"<{name}> in a select")
        else:
            return self.body_start(name, attrs, False, p)
        return p

    def select_end(self, name) -> None:
        if name == "select":
            if not self.in_scope(("select",)):
                raise GiveUp("</select> out of scope")
            self.pop_until(("select",))
            return
        k = max(i for i, e in enumerate(self.stack) if e.name == "select")
        targets = HEADINGS if name in HEADINGS else (name,)
        mine = max((i for i, e in enumerate(self.stack) if e.name in targets), default=-1)
        if -1 < mine < k or name in ("p", "br", "form", "table") or name in FORMATTING or name in TABLE_PARTS:
            raise GiveUp(f"</{name}> in a select")  # (it would close the select)
        if name in ("option", "optgroup"):
            self.other_end(name)
        else:
            self.body_end(name)
