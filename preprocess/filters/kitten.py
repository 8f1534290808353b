"""``kitten``: HTML normalisation for text output (seed paper "Kitten").

Two steps. :class:`KittenNormalise` rewrites the parsed tree (after Parse and any
DOM cleaner, before TagRemoval) so that tag removal writes sentences rather
than fragments; :class:`KittenPunctuate` then ends every text block with
sentence-final punctuation, so a sentence splitter never glues two blocks.

What the normaliser does:

* ``<abbr>``/``<acronym>`` with a ``title``: the expansion goes in brackets
  after the text, ``WHO (World Health Organization)`` (not when the text
  already holds it).
* Tables, innermost first (reverse document order):

  - **data table** -- no nested table, >= 2 rows, >= 2 columns, no block
    content (p, div, lists, headings, ...) in its cells and no cell over
    ``MAX_CELL_CHARS``: replaced by one ``<p>`` per row. With a header (the
    rows of ``<thead>``, else the leading rows made of ``<th>`` cells only;
    several header rows are combined per column) a row reads
    ``header ; data / header ; data.`` -- header i paired with cell i,
    colspans expanded, an empty header gives the bare cell, an empty cell is
    left out. Without a header a row reads ``cell ; cell ; cell.``: the same
    ``;`` that joins header and data, so a headerless two-column table (nearly
    always key/value) reads ``Born ; 1950.``. A caption is its own ``<p>``
    first. Rowspans are not expanded; markup inside the cells (links) is lost.
  - **layout table** -- anything else (nested tables, one column, one row,
    block content, long cells). Tag removal already ends a line at every
    ``<tr>`` and at block elements inside cells, but glues the inline text of
    the cells of one row (``<td>a</td><td>b</td>`` -> ``a b``). So every cell
    that is not the last of its row gets a ``<br>`` at its end: each cell its
    own block, nothing else changes.

* Lists (``ul``/``ol``), innermost first:

  - **link list** -- every ``<li>`` with text has fewer than
    ``LINK_ITEM_MAX_WORDS`` words, all of them inside ``<a>``: removed
    (``kitten.link_lists_removed``).
  - **list with block items** (an item holds p/div/table/ul/...): left as it
    is; tag removal writes each block, KittenPunctuate ends it.
  - **short items** (median item text < ``SHORT_ITEM_CHARS`` characters):
    one ``<p>``, items joined with ", " and ended with ".". The items' markup
    is kept (links stay links for TagRemoval's ``line_features``). A short
    list nested in an ``<li>`` becomes inline ``(a, b)`` after the item's
    text instead, so the outer list is judged on ``blue (navy, sky)``.
  - **long items**: one ``<p>`` per item, ``<br>`` inside it turned into a
    space, "." added where the item has no final full stop.

List items joined with ", " get no comma after an item that already ends
in a separator (``,;:|/·•-``) or a full stop.

Speed: no Python walk over the tree. One CSS query finds the tables, lists and
abbreviations, one more (after the data tables are gone) the layout cells to
split. Each list and each leaf table is serialised once (``.html``) and read
with regexes (lexbor's serialisation is well-formed: every element closed,
attributes double-quoted, tags lower case); a rewritten list or table is
replaced by one element whose content is set as HTML in one call. Each node
wrapper resiliparse makes costs a Python weakref, so as few are made as
possible. Bounds for pathological pages: serialisation is capped per page
(``MAX_SERIALISED_CHARS``; deeply nested lists would otherwise be serialised
once per level; past the cap the rest is left to tag removal,
``kitten.budget_exhausted``) and so are the ``<br>`` insertions
(``MAX_SPLIT_CELLS``; lexbor checks the ancestors on every insertion).

Counters (``kitten.*``): abbr_expanded, tables_data, tables_headerless,
table_rows, tables_empty_removed, tables_layout, cells_split, cells_not_split,
link_lists_removed, lists_flattened, lists_flattened_inline, lists_split,
lists_block_items_kept, budget_exhausted, no_tree; ``kitten_punct.lines_punctuated``.
"""
from __future__ import annotations

from statistics import median

from preprocess.core.document import Document
from preprocess.filters.kitten_markup import (
    BLOCK_OPEN, FINAL_PUNCT, JOINERS, LAYOUT_CELLS, LI_OPEN, LINK_ITEM_MAX_WORDS, LINK_RE, LIST_OPEN, MAX_CELL_CHARS,
    MAX_SERIALISED_CHARS, MAX_SPLIT_CELLS, QUERY, SHORT_ITEM_CHARS, WORD_RE, ends_sentence, escape, item_inner,
    parse_leaf_table, strip_markup, table_lines, visible_texts,
)
from preprocess.html.dom import element_children, nodes
from preprocess.steps.base import Step


class KittenNormalise(Step):
    """Rewrite tables, lists and abbreviations in ``doc.tree`` so tag removal writes sentences."""

    name = "kitten"

    def process(self, doc: Document) -> Document | None:
        tree = doc.tree
        root = tree.document if tree is not None else None
        if root is None:
            self.stat_update("no_tree")
            return doc
        self._tree, self._budget = tree, MAX_SERIALISED_CHARS
        # One query for all three kinds (each query is a pass over the whole tree); the order of
        # work: abbreviations first (their expansion belongs in the table and list text), then
        # tables, then lists, each innermost first (reverse document order).
        found = nodes(root.query_selector_all(QUERY))
        tables, lists = [], []
        for el in found:
            tag = el.tag
            if tag == "table":
                tables.append(el)
            elif tag in ("ul", "ol"):
                lists.append(el)
            else:
                self.expand_abbreviation(el)
        try:
            for table in reversed(tables):
                if self._budget <= 0:
                    self.stat_update("budget_exhausted")
                    break
                self.normalise_table(table)
            for lst in reversed(lists):
                if self._budget <= 0:
                    self.stat_update("budget_exhausted")
                    break
                self.normalise_list(lst)
            if tables:
                self.split_layout_cells(root)  # data tables are gone by now: every cell left is layout
        finally:
            self._tree = None
        return doc

    def _serialise(self, node) -> str:
        markup = node.html or ""
        self._budget -= len(markup)
        return markup

    def _block(self, tag: str, inner_html: str):
        el = self._tree.create_element(tag)
        el.html = inner_html
        return el

    # -- abbreviations -------------------------------------------------------
    def expand_abbreviation(self, el) -> None:
        title = " ".join((el.getattr("title") or "").split())
        text = " ".join((el.text or "").split())
        if title and text and title.lower() not in text.lower():
            el.after(self._tree.create_text_node(f" ({title})"))
            self.stat_update("abbr_expanded")

    # -- tables --------------------------------------------------------------
    def normalise_table(self, table) -> None:
        """Rewrite a data table; a layout table is only counted (its cells are split afterwards)."""
        if table.query_selector("table") is not None:
            self.stat_update("tables_layout")
            return
        markup = self._serialise(table)
        if markup.count("<tr") < 2 or BLOCK_OPEN.search(markup, markup.find(">") + 1):
            self.stat_update("tables_layout")
            return
        caption, rows = parse_leaf_table(markup)
        if not rows:
            return
        ncols = max(sum(span for _, span, _ in cells) for _, cells in rows)
        if len(rows) < 2 or ncols < 2:
            self.stat_update("tables_layout")
            return
        flat = [m for _, cells in rows for _, _, m in cells]
        flat_texts = visible_texts(flat + [caption] if caption else flat)
        if any(len(t) > MAX_CELL_CHARS for t in flat_texts):
            self.stat_update("tables_layout")
            return
        texts, i = [], 0
        for _, cells in rows:
            texts.append(flat_texts[i:i + len(cells)])
            i += len(cells)
        lines, has_header = table_lines(flat_texts[-1] if caption else "", rows, texts)
        if not lines:  # rows of empty cells (spacers, image grids without alt text): nothing to write
            table.decompose()
            self.stat_update("tables_empty_removed")
            return
        table.replace_with(self._block("div", "".join(f"<p>{escape(line)}</p>" for line in lines)))
        self.stat_update("tables_data" if has_header else "tables_headerless")
        self.stat_update("table_rows", len(lines))

    def split_layout_cells(self, root) -> None:
        """A ``<br>`` at the end of every cell that is not the last of its row (data tables are gone by now)."""
        cells = nodes(root.query_selector_all(LAYOUT_CELLS))
        if len(cells) > MAX_SPLIT_CELLS:
            self.stat_update("cells_not_split", len(cells) - MAX_SPLIT_CELLS)
            cells = cells[:MAX_SPLIT_CELLS]
        for cell in cells:
            cell.append_child(self._tree.create_element("br"))
        if cells:
            self.stat_update("cells_split", len(cells))

    # -- lists ---------------------------------------------------------------
    def normalise_list(self, lst) -> None:
        # One serialisation of the whole list, read with regexes; an <li> wrapper is made only for a
        # nested list whose every word is link text.
        whole = self._serialise(lst)
        start = whole.find(">") + 1
        body = whole[start:]
        nested = LIST_OPEN.search(body) is not None
        if "<a" in body and not WORD_RE.search(strip_markup(LINK_RE.sub(" ", body), exact=False)):
            # every word is link text: a link list if every item is short
            if nested:  # splitting at <li> would cut the nested lists' items out of their parent item
                markup = [self._serialise(li) for li in element_children(lst) if li.tag == "li"]
            else:
                markup = LI_OPEN.split(body)[1:]
            texts = visible_texts(markup, exact=False)
            if any(texts) and all(len(t.split()) < LINK_ITEM_MAX_WORDS for t in texts):
                lst.decompose()
                self.stat_update("link_lists_removed")
                return
        if nested or BLOCK_OPEN.search(body):
            self.stat_update("lists_block_items_kept")
            return
        markup = LI_OPEN.split(body)[1:]
        texts = visible_texts(markup, exact=False)
        items = [(item_inner(m), t) for m, t in zip(markup, texts) if t]
        if not items:
            return
        if median(len(t) for _, t in items) < SHORT_ITEM_CHARS:
            self.flatten_list(lst, items)
        else:
            lst.replace_with(self._block("div", "".join(f"<p>{m}{'' if ends_sentence(t) else '.'}</p>"
                                                        for m, t in items)))
            self.stat_update("lists_split")

    def flatten_list(self, lst, items: list[tuple[str, str]]) -> None:
        """One ``<p>``: the items' markup joined with ", ", ended with ".".

        A list nested in an item becomes an inline ``(a, b)`` instead, so the
        outer item still reads as one sentence: ``blue (navy, sky)``.
        """
        parent = lst.parent
        inline = parent is not None and parent.tag == "li"
        parts = []
        for i, (m, text) in enumerate(items):
            parts.append(m)
            if i < len(items) - 1:
                parts.append(" " if text[-1] in JOINERS or ends_sentence(text) else ", ")
            elif not inline and not ends_sentence(text):
                parts.append(".")
        sentence = "".join(parts)
        lst.replace_with(self._block("span", f" ({sentence})") if inline else self._block("p", sentence))
        self.stat_update("lists_flattened_inline" if inline else "lists_flattened")


class KittenPunctuate(Step):
    """End every line of ``doc.text`` with sentence-final punctuation ("." where there is none).

    Runs after TagRemoval; ``doc.title`` is left alone; each line keeps its features.
    """

    name = "kitten_punct"

    def process(self, doc: Document) -> Document | None:
        changed = 0
        for line in doc.lines:
            if line.text[-1] not in FINAL_PUNCT:
                line.text += "."
                changed += 1
        if changed:
            self.stat_update("lines_punctuated", changed)
        return doc
