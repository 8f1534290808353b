"""``feeds``: Adaptive Post Recognition (seed "Adaptive Post Recognition"): per-host post templates
induced from the blog's own RSS/Atom feeds.

A feed item names a post page (its link) and repeats that post's title, author
and text (full ``content:encoded``/Atom content, or a summary). Learning, a
separate pass over the crawl (:func:`learn_templates`):

1. every feed record is parsed with ``feedparser`` into :class:`FeedItem`
   (absolute, normalised link; plain-text title, content and author);
2. every crawled page that a feed item links to is parsed and the item's text
   is looked up in it (:func:`match_item`): the feed text is shortened word by
   word from its end until what is left occurs in the page's text (a truncated
   ``[...]`` description, a ``The post ... appeared first on`` tail or a later
   edit of the post all stop the match only where they begin); the deepest
   element whose text holds it is the content node (climbing out of a single
   paragraph to its container), and the title and author are found the same way;
3. the element paths (:class:`Path`: tag plus id or class, a position only
   where neither exists) of one host's pages are merged into a
   :class:`HostTemplate`: paths of the same shape are grouped, the largest group
   wins, and attribute values that differ between pages are generalised to their
   common prefix plus ``*`` (``article[@id=post-12]`` + ``article[@id=post-37]``
   -> ``article[@id=post-*]``).

Cleaning (:class:`FeedsCleaner`) needs no feed: the host's content path is
applied to the page's tree. Where it matches, the page is a post, and everything
but the matched content node(s) is removed (the post title and author found by
their paths go to ``doc.meta``); where it does not (about pages, archives, tag
listings) the page falls back to the ``density`` cleaner, as do hosts without a
template. So a post the feed never listed (older posts, posts crawled later)
is still cut by its host's template.

Distributed, learning ships digests, never feed text: a feed's worker hashes its items
(:class:`~preprocess.cleaners.feeds.digest.ItemDigest`: per word boundary an offset and a prefix hash),
the driver keeps the first item per page key and sends it only to the units that hold that page, and
there :func:`match_item` finds it by rolling hashes exactly where the text would be found.

Modules: ``items`` (feeds and their items, URL keys), ``paths`` (element paths and their merging),
``match`` (an item's text found in its page), ``digest`` (items as hashes, pages as hashed windows),
``learn`` (templates per host; the learning pass), ``cleaner`` (:class:`FeedsCleaner`, and feeds that
reach the cleaner).
"""
from preprocess.cleaners.feeds.cleaner import FeedsCleaner
from preprocess.cleaners.feeds.items import FeedItem, feed_items, feed_text, host_key, is_feed, normalize_url, url_key
from preprocess.cleaners.feeds.learn import HostTemplate, induce_template, learn_templates, parse_page
from preprocess.cleaners.feeds.match import MatchResult, longest_prefix, match_item
from preprocess.cleaners.feeds.paths import Path, PathStep, merge_paths, merge_steps, path_of

__all__ = ["FeedItem", "FeedsCleaner", "HostTemplate", "MatchResult", "Path", "PathStep", "feed_items", "feed_text",
           "host_key", "induce_template", "is_feed", "learn_templates", "longest_prefix", "match_item",
           "merge_paths", "merge_steps", "normalize_url", "parse_page", "path_of", "url_key"]
