"""The drivers of the commands that run units, preprocess and lm train-crawl: plan, lock, learn, clean,
merge.

May import: every room.
"""
