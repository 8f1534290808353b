"""The HTML the readers of markup share: HTML's element vocabulary (``vocabulary.py``, the one copy of the
WHATWG categories both markup scanners and the raw reader build on), tree walking and pruning on lexbor trees.

May import: core.
"""
