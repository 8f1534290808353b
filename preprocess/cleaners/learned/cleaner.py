"""``learned``: keep the blocks a model trained on the human gold standards calls content.

The page's ``<body>`` is serialised once and split into blocks (``blocks.py``:
the text between block-level tags, what tag removal writes as lines); each block
gets a feature row (``features.py``: text, link density, position, structure,
neighbours, readability's and Baisa's page-level evidence, tag path, class/id
tokens) and the gradient-boosted trees of ``model.py`` score it. ``<body>`` is
then replaced by one ``<p>`` per kept block, so tag removal writes exactly those
blocks and every later filter works as after any other cleaner. Where tag removal comes right after this step
(it declares ``provides = ("handed",)``, tag removal ``accepts`` it; ``pipeline.build_steps`` calls ``hand_to``),
the kept blocks go to it as lines instead (``Document.handed``): the lines it would write from those paragraphs,
without re-parsing them into the tree and extracting them again. A ``<title>`` inside ``<body>`` (raw CleanEval
pages) is moved to ``<head>`` first, so either way tag removal writes the title it writes without this cleaner.
With ``--drop-hinted`` the hint rule has
pruned the page before, and kept blocks under a comment thread's name are dropped after the model. Trained by
``scripts/tools/train_learned.py``; measured leave-one-set-out (README, Results).
"""
from __future__ import annotations

import html as htmllib

import numpy as np

from preprocess.cleaners.learned import compiled, raw
from preprocess.cleaners.learned.anchor import HeadReader, PageHead
from preprocess.cleaners.learned.blocks import split_body
from preprocess.cleaners.learned.context import thread_blocks
from preprocess.cleaners.learned.features import LATEST, TokenVocab, feature_names, page_features
from preprocess.cleaners.learned.model import BlockModel, load_model
from preprocess.core.document import Document, Line
from preprocess.steps.base import BuildContext, Step


class LearnedCleaner(Step):
    name = "learned"
    uses = ("hints",)  # --drop-hinted's step: its rule is applied here by the compiled scan
    provides = ("handed",)  # the kept blocks as lines, for tag removal right after it (hand_to)

    def __init__(self, model: BlockModel, drop_comments: bool = False, hints=None):
        super().__init__()
        self.model = model
        self.vocab = TokenVocab(model.vocab)
        self.names = names = feature_names(self.vocab)
        # a model trained before the heading columns still runs: they are left out of its rows (and not computed)
        self.columns = len(names) if model.features == names else len(names) - len(LATEST)
        if model.features != names[:self.columns]:
            raise ValueError("block model was trained on other features: retrain with scripts/tools/train_learned.py")
        # --drop-hinted asks for the article convention: comment threads are boilerplate. The hint rule spares a
        # thread holding over half the page or named like content too ('comment-body'); here no kept block under
        # a thread's name (context.thread_blocks: comment*, reply/replies, respond, disqus*, talkback as tokens)
        # stays, unless every kept block is under one (a body class or a wrapper around the whole page).
        self.drop_comments = drop_comments
        self.hints = hints  # a deferred HintFilter whose rule split_body applies (None: none, or done on the tree)
        self.hand_off = False  # tag removal comes next and takes the kept blocks as lines (hand_to)
        self.line_features = False  # ... with their link density (tag removal's line_features)
        self.parse = None  # the parse step, deferred: the page is read raw, and parsed only where it must be

    def hand_to(self, after: Step) -> None:
        self.hand_off, self.line_features = True, after.line_features

    @classmethod
    def build(cls, ctx: BuildContext) -> "LearnedCleaner":
        hints = ctx.steps.get("hints")
        if hints is not None and compiled.ON:  # the compiled scan takes the hint rule over from the tree step
            hints.deferred = True
        return cls(load_model(ctx.opts.learned_model), drop_comments=ctx.opts.drop_hinted,
                   hints=hints if hints is not None and hints.deferred else None)

    def process(self, doc: Document) -> Document | None:
        if doc.tree is None:  # (the parse step deferred: build_steps, raw.ON)
            if self._read_raw(doc):
                return doc
            doc = self.parse.parse_now(doc)
            if doc is None:
                return None
        body = doc.tree.body
        if body is None:  # framesets, fragments without a body: tag removal takes the page as is
            self.stat_update("no_body")
            return doc
        latest = self.columns == len(self.names)
        # the page's names: read when the heading columns need them (no or several <h1>: 20% of WCXB's pages, half
        # the classic ones), or before split_body prunes the tree (the Python path; the compiled one's fallbacks);
        # from <head> alone when the body the compiled scan read cannot hold any (anchor.page_head)
        head = HeadReader(doc.tree) if latest else None
        page = split_body(doc.tree, hints=self.hints, before_pruning=head,  # --drop-hinted: the compiled scan's
                          scanned=head.saw_body if head is not None else None)
        if not page.texts:
            self.stat_update("no_blocks")  # (split_body left the tree pruned for tag removal)
            return doc
        kept = self._kept(page, doc.tree.title or "", head, latest)
        if self.hand_off:  # (the body stays as it is: no title to move)
            lines = kept_lines(page, kept, self.line_features)
            if lines is not None:
                doc.handed = lines
                return doc
        keep_title(doc.tree)
        body.html = "".join(_block_html(page.texts[i], page.link_chars[i]) for i in kept)
        return doc

    def _read_raw(self, doc: Document) -> bool:
        """The page read off its markup (``raw.read_raw``: the blocks, hint drops, title and names the tree's way
        gives) and its kept blocks handed to tag removal; False (counted as ``raw_given_up``) where the tree must
        be built: the reader gave up, no block is left (tag removal writes the tree), or a text is not printable
        (``kept_lines`` would send it through the tree)."""
        page, _, info = raw.read_raw(doc.html, hints=self.hints)
        if page is None or not page.texts or not "".join(page.texts).isprintable():  # (every text printable)
            self.stat_update("raw_given_up")
            return False
        latest = self.columns == len(self.names)
        kept = self._kept(page, info["title"] or "", PageHead(info["names"]) if latest else None, latest)
        if self.hints is not None:
            self.hints.count(info["dropped"], info["kept_large"])
        self.stat_update("raw_read")
        doc.handed = kept_lines(page, kept, self.line_features, printable=True)
        doc.title, doc.html = info["title"] or "", None
        doc.meta.pop("noscript", None)  # (Decode's answer for the parse step, which this page skipped)
        return True

    def _kept(self, page, title: str, head, latest: bool) -> list[int]:
        """The blocks the model keeps (and ``--drop-hinted``'s comment rule leaves), counted."""
        features = page_features(page, title, self.vocab, head, latest)
        keep = self.model.keep(features[:, :self.columns])
        if self.drop_comments:
            keep = self._drop_comments(keep, thread_blocks(page))
        kept = [i for i, k in enumerate(keep) if k]
        self.stat_update("blocks_kept", len(kept))
        self.stat_update("blocks_dropped", len(page.texts) - len(kept))
        return kept

    def _drop_comments(self, keep: np.ndarray, named: np.ndarray) -> np.ndarray:
        thread = keep & named
        if not thread.any():
            return keep
        if (thread == keep).all():  # everything kept is under the name: it wraps the page, not a thread
            self.stat_update("comment_pages_kept")
            return keep
        self.stat_update("comment_blocks_dropped", int(thread.sum()))
        return keep & ~thread


def keep_title(tree) -> None:
    """A ``<title>`` that sits in ``<body>`` (and none in ``<head>``) moved into ``<head>``, where replacing the
    body leaves it: ``tree.title`` (the first ``<title>`` of the page, what tag removal writes) is unchanged."""
    head = tree.head
    if head is None or head.query_selector("title") is not None:
        return
    title = tree.body.query_selector("title")
    if title is not None:
        title.parent.remove_child(title)
        head.append_child(title)


def kept_lines(page, kept: list[int], link_density: bool, printable: bool = False) -> list[Line] | None:
    """The lines tag removal writes from the kept blocks' paragraphs (:func:`_block_html`): each block's text as
    it is (single-spaced, stripped) and, with ``link_density``, its linked characters' share; None when a text
    holds a character other than printable ones and the space (what the tree's extraction might write
    otherwise), so the paragraphs go through the tree (``printable``: every text is known to be). Equal to the
    tree's lines on every shared page (``tests/test_learned_compiled.py``)."""
    texts, link_chars = page.texts, page.link_chars
    lines = []
    for i in kept:
        text = texts[i]
        if not printable and not text.isprintable():
            return None
        if not link_density:
            lines.append(Line(text))
        elif link_chars[i]:
            lines.append(Line(text, min(len(" ".join(text[:link_chars[i]].split())) / len(text), 1.0)))
        else:
            lines.append(Line(text, 0.0))
    return lines


def _block_html(text: str, linked: int) -> str:
    """One kept block as a paragraph; its first ``linked`` characters inside ``<a>``, so the line's link density
    (``--max-link-density``, ``--prune-score adjusted``) stays what it was on the page."""
    if not linked:
        return f"<p>{htmllib.escape(text, quote=False)}</p>"
    return f"<p><a>{htmllib.escape(text[:linked], quote=False)}</a>{htmllib.escape(text[linked:], quote=False)}</p>"
