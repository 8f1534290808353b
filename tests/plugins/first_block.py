"""A trivial cleaner added the way the README's "Adding a cleaner" says: one module, one registry line."""
from preprocess.html.dom import keep_only
from preprocess.config.registry import Cleaner, register
from preprocess.steps.base import Step


class FirstBlock(Step):
    """Keeps the first <p> of the page (everything else is removed from the tree)."""

    name = "first_block"

    def process(self, doc):
        body = doc.tree.body
        first = body.query_selector("p") if body is not None else None
        if first is None:
            self.stat_update("no_paragraph")
            return doc
        keep_only(first, body)
        return doc


register(Cleaner("first_block", "tests.plugins.first_block:FirstBlock", "keep the first paragraph"))
