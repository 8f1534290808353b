"""Experiment collections are reused only when options, inputs, model and cleaning code are all the same."""
from preprocess.pipeline import CleanOptions
from webprune import experiment


def test_collection_key_changes_with_options_and_cleaning_code(monkeypatch):
    a = experiment._key(CleanOptions(cleaner="density"), ["in.warc.gz"])
    assert a == experiment._key(CleanOptions(cleaner="density"), ["in.warc.gz"]) and a.startswith("density-")
    assert a != experiment._key(CleanOptions(cleaner="density", max_link_density=0.5), ["in.warc.gz"])
    monkeypatch.setattr(experiment, "code_id", lambda: "edited-cleaner")
    assert a != experiment._key(CleanOptions(cleaner="density"), ["in.warc.gz"])
