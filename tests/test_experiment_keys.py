"""Experiment collections are reused only when options, inputs, model and cleaning code are all the same."""
import pytest

from preprocess.run.pipeline import CleanOptions
from webprune import experiment


def test_collection_key_changes_with_options_and_cleaning_code(monkeypatch):
    a = experiment._key(CleanOptions(cleaner="density"), ["in.warc.gz"])
    assert a == experiment._key(CleanOptions(cleaner="density"), ["in.warc.gz"]) and a.startswith("density-")
    assert a != experiment._key(CleanOptions(cleaner="density", max_link_density=0.5), ["in.warc.gz"])
    monkeypatch.setattr(experiment, "code_id", lambda: "edited-cleaner")
    assert a != experiment._key(CleanOptions(cleaner="density"), ["in.warc.gz"])


def test_a_variant_with_its_own_inputs_gets_its_own_collection(tmp_path):
    from webprune.config import load_config

    for name in ("web.warc.gz", "clean.tar.gz", "t.txt", "q.txt"):
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "c.toml").write_text('[collection]\ninputs = ["web.warc.gz"]\n[topics]\npath = "t.txt"\n'
                                     '[qrels]\npath = "q.txt"\n[[variants]]\nname = "tags"\ncleaner = "tags"\n'
                                     '[[variants]]\nname = "ceiling"\ncleaner = "tags"\ninputs = ["clean.tar.gz"]\n')
    exp = load_config(tmp_path / "c.toml")
    tags, ceiling = experiment.plan(exp, tmp_path / "out", [str(tmp_path / "web.warc.gz")])
    assert tags.inputs == [str(tmp_path / "web.warc.gz")] and ceiling.inputs == [str(tmp_path / "clean.tar.gz")]
    assert tags.key != ceiling.key and tags.opts == ceiling.opts
    (tmp_path / "clean.tar.gz").unlink()
    with pytest.raises(ValueError, match=r"'ceiling': input 'clean.tar.gz' does not exist"):
        load_config(tmp_path / "c.toml")
