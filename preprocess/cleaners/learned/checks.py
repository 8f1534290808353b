"""The learned cleaner's parameter's driver-side check (the parameter is declared in the registry)."""
from __future__ import annotations


def check_files(opts) -> None:
    """The block model loads and matches the features (a missing, unreadable or mismatched model says so)."""
    from preprocess.cleaners.learned.cleaner import LearnedCleaner
    from preprocess.cleaners.learned.model import load_model

    LearnedCleaner(load_model(opts.learned_model))
