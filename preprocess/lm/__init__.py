"""KenLM n-gram language models: one text normaliser for training and scoring, lmplz training, scoring.

May import: core.
"""
