"""The output folder: the files webprune owns there, its lock, files and shards written whole.

May import: core.
"""
