"""The HTML the readers of markup share: element tags, tree walking and pruning on lexbor trees.

May import: core.
"""
