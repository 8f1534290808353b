"""Class/id values as evidence: readability's negative/positive/comment names, comment threads, vocabulary tokens.

A page's class/id values repeat within a site and across pages of one crawl, so each function of a value is
computed once per distinct value (``ValueCache``, bounded). The compiled ``_names.Matcher`` (``matcher``) gives
the same for all of a page's values in one call.
"""
from __future__ import annotations

import re

from preprocess.cleaners.learned import compiled

_POSITIVE = re.compile(r"article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story", re.I)
_NEGATIVE = re.compile(r"-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|foot|footer|footnote|"
                       r"gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|"
                       r"sponsor|shopping|tags|tool|widget", re.I)
_COMMENT = re.compile(r"comment|reply|respond|discuss|disqus|talkback", re.I)


class ValueCache:
    """``fn`` of a class/id value, computed once per distinct value and bounded (class strings of a long crawl)."""

    def __init__(self, fn, limit: int = 50_000):
        self.fn, self.limit = fn, limit
        self.cache: dict[str, int] = {}

    def __call__(self, value: str) -> int:
        v = self.cache.get(value)
        if v is None:
            if len(self.cache) > self.limit:
                self.cache.clear()
            v = self.cache[value] = self.fn(value)
        return v

    def many(self, values: list[str]) -> list[int]:
        """Each value's result; the new values among them computed once each."""
        for value in set(values).difference(self.cache):
            self(value)
        get = self.cache.get
        return [r if r is not None else self(v) for v, r in zip(values, map(get, values))]


_POSITIVE_WORDS = ("article", "body", "content", "entry", "main", "page", "pagination", "post", "text", "blog", "story")
_NEGATIVE_WORDS = ("-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "foot", "gdpr", "masthead",
                   "media", "meta", "outbrain", "promo", "related", "scroll", "share", "shoutbox", "sidebar",
                   "skyscraper", "sponsor", "shopping", "tags", "tool", "widget")
_COMMENT_WORDS = ("comment", "reply", "respond", "discuss", "disqus", "talkback")
# "any word of the list is a substring" as one search of an alternation of the words taken literally
_HAS_NEGATIVE, _HAS_POSITIVE, _HAS_COMMENT = (re.compile("|".join(map(re.escape, words))).search
                                              for words in (_NEGATIVE_WORDS, _POSITIVE_WORDS, _COMMENT_WORDS))


def _flags(names: str) -> int:
    """Bits of a class/id value: 1 readability-negative, 2 readability-positive, 4 a comment section's name.

    The regexes' word lists as substring tests on the lower-cased value (4x faster; each list one search) when it
    is ASCII without a newline (where re.I and ``$`` agree with that); else the regexes."""
    if not names:
        return 0
    if not names.isascii() or "\n" in names:
        return (bool(_NEGATIVE.search(names)) | bool(_POSITIVE.search(names)) << 1
                | bool(_COMMENT.search(names)) << 2)
    low = names.lower()
    negative = (_HAS_NEGATIVE(low) is not None or low == "hid" or low.startswith("hid ")
                or low.endswith(" hid") or " hid " in low)
    return negative | (_HAS_POSITIVE(low) is not None) << 1 | (_HAS_COMMENT(low) is not None) << 2


class_flags = ValueCache(_flags)

# --drop-hinted's comment-thread rule (cleaner.py) names a thread by whole class/id tokens: a substring test
# would take an article in a "commentary" or "discussion-of-the-budget" wrapper for a thread
CLASS_TOKEN = re.compile(r"[a-z]+")  # class/id tokens: letter runs of the lower-cased value
_NOT_THREAD = frozenset(("commentary", "commentaries", "commentator", "commentators"))
_THREAD_TOKENS = frozenset(("reply", "replies", "respond", "talkback"))
_THREAD_PREFIXES = ("disqus", "comment")  # (every one of _NOT_THREAD starts with "comment")


def _thread_name(names: str) -> int:
    for tok in CLASS_TOKEN.findall(names.lower()):
        if tok in _THREAD_TOKENS or (tok.startswith(_THREAD_PREFIXES) and tok not in _NOT_THREAD):
            return 1
    return 0


thread_names = ValueCache(_thread_name)

if compiled.BUILT:  # the word lists as _flags' ASCII branch reads them; " hid " on the value padded with spaces
    compiled._names.set_words([(w, 1) for w in _NEGATIVE_WORDS + (" hid ",)] + [(w, 2) for w in _POSITIVE_WORDS]
                              + [(w, 4) for w in _COMMENT_WORDS], tuple(sorted(_THREAD_TOKENS)), _THREAD_PREFIXES,
                              tuple(sorted(_NOT_THREAD)))


def matcher(tokens: list[str], mask_fn=None):
    """The compiled matcher of a token vocabulary (``mask_fn``: its masks in Python, for the values the matcher
    leaves to Python), None where ``_names`` was not built."""
    return compiled._names.Matcher(list(tokens), class_flags, thread_names, mask_fn) if compiled.BUILT else None


_NO_VOCAB = matcher([])


def thread_many(values: list[str]) -> list[int] | object:
    """``thread_names`` of each value (compiled: an int64 array)."""
    return _NO_VOCAB.bits(values)[1] if compiled.ON else thread_names.many(values)
