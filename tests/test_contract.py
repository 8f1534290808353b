"""The typed contract: options declared once (CLI, configs, specs), the registry, units and batches without Ray."""
import dataclasses
import textwrap

import pytest

from preprocess.config import options
from preprocess.core.document import Document
from preprocess.config.options import CleanOptions, RunOptions
from preprocess.config.spec import format_spec, parse_spec
from webprune.cli import build_parser
from webprune.config import load_config


# -- options -> CLI -----------------------------------------------------------------------------------------------
def test_every_option_is_a_flag_and_the_cli_maps_to_the_same_options():
    parser = build_parser()
    a = parser.parse_args(["preprocess", "in.warc.gz", "-o", "out"])
    assert options.from_args(a) == CleanOptions() and options.from_args(a, RunOptions) == RunOptions()
    a = parser.parse_args(["preprocess", "in.warc.gz", "-o", "out", "--cleaner", "density", "--drop-hinted",
                           "--max-link-density", "0.4", "--no-kitten", "--prune-model", "m.bin", "--prune-score",
                           "adjusted", "--prune-percentile", "30", "--max-bytes", "1000", "--workers", "3",
                           "--no-compress", "--executor", "local"])
    assert options.from_args(a) == CleanOptions(cleaner="density", drop_hinted=True, max_link_density=0.4,
                                                kitten=False, prune_model="m.bin", prune_score="adjusted",
                                                prune_percentile=30.0, max_bytes=1000)
    assert options.from_args(a, RunOptions) == RunOptions(workers=3, compress=False, executor="local")
    help_text = parser._subparsers._group_actions[0].choices["preprocess"].format_help()
    for f in dataclasses.fields(CleanOptions) + dataclasses.fields(RunOptions):
        assert options.flag(f.name) in help_text, f.name
    with pytest.raises(SystemExit):
        parser.parse_args(["preprocess", "x", "-o", "y", "--cleaner", "nonsense"])


def test_bad_combinations_say_what_to_do():
    for bad, msg in [(dict(prune_model="m"), "--max-perplexity N or --prune-percentile"),
                     (dict(max_perplexity=5.0), "need --prune-model"),
                     (dict(max_link_density=2.0), r"\[0, 1\]"),
                     (dict(prune_model="m", max_perplexity=1.0, prune_percentile=5.0), "one of"),
                     (dict(cleaner="nope"), "choose one of")]:
        with pytest.raises(ValueError, match=msg):
            CleanOptions(**bad).check()


@pytest.mark.parametrize("spec", ["density+hints+links(0.5)+prune(adjusted,p=25,model=m.bin)", "tags",
                                  "sitediff+nokitten+max_bytes(1000)", "blog+links(0.33)+prune(perplexity,t=8000,"
                                  "n=50,model=x/y+z.bin)"])
def test_specs_round_trip(spec):
    opts = parse_spec(spec)
    assert format_spec(opts) == spec and parse_spec(format_spec(opts)) == opts


def test_specs_take_what_they_leave_open_from_the_defaults_and_refuse_typos():
    opts = parse_spec("density+hints+links+prune", {"prune_model": "m.bin", "prune_percentile": 25,
                                                    "prune_score": "adjusted", "max_link_density": 0.4})
    assert opts == CleanOptions(cleaner="density", drop_hinted=True, max_link_density=0.4, prune_model="m.bin",
                                prune_score="adjusted", prune_percentile=25.0)
    assert format_spec(opts, with_model=False) == "density+hints+links(0.4)+prune(adjusted,p=25)"
    with pytest.raises(ValueError, match="did you mean 'hints'"):
        parse_spec("density+hint")
    with pytest.raises(ValueError, match="needs a model"):
        parse_spec("tags+prune(p=5)")


# -- configs ------------------------------------------------------------------------------------------------------
BASE = """
name = "t"
[collection]
inputs = ["x.warc.gz"]
[topics]
path = "topics.txt"
[qrels]
path = "qrels.txt"
[[variants]]
name = "tags"
cleaner = "tags"
"""


def config(tmp_path, text: str):
    p = tmp_path / "c.toml"
    p.write_text(textwrap.dedent(text))
    return load_config(p)


def test_a_valid_config_is_typed(tmp_path):
    exp = config(tmp_path, BASE + '[[variants]]\nname = "d"\ncleaner = "density"\nmax_link_density = 0.5\n'
                                  'expect = { AP = 0.3 }\n[search]\nmu = 1000\n[preprocess]\nworkers = 2\n')
    assert exp.variants[1].clean == CleanOptions(cleaner="density", max_link_density=0.5)
    assert exp.search.mu == 1000.0 and exp.preprocess == RunOptions(workers=2) and exp.baseline == "tags"
    assert exp.variants[1].expect == {"AP": 0.3} and exp.path("x.warc.gz") == tmp_path / "x.warc.gz"


def test_a_variants_block_model_path_is_relative_to_the_config(tmp_path):
    from webprune.experiment import plan

    from preprocess.cleaners.learned.model import DEFAULT_MODEL

    exp = config(tmp_path, BASE + '[[variants]]\nname = "l"\ncleaner = "learned"\nlearned_model = "m/x.json"\n')
    with pytest.raises(ValueError, match="'l': no block model at"):  # refused before anything runs
        plan(exp, tmp_path / "out", ["in.warc.gz"])
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "x.json").write_bytes(DEFAULT_MODEL.read_bytes())
    steps = plan(exp, tmp_path / "out", ["in.warc.gz"])
    assert steps[1].opts.learned_model == str(tmp_path / "m" / "x.json")


@pytest.mark.parametrize("change, message", [
    ('[serach]\nmu = 1', "unknown section or key 'serach' .did you mean 'search'"),
    ('[search]\nmux = 1', r"\[search\]: unknown key 'mux' .did you mean 'mu'"),
    ('[[variants]]\nname = "x"\nclener = "tags"', "unknown key 'clener' .did you mean 'cleaner'"),
    ('[[variants]]\nname = "x"\ncleaner = "tagz"', "choose one of"),
    ('[[variants]]\nname = "x"\nmax_link_density = "high"', "must be a number"),
    ('[[variants]]\nname = "tags"', "unique name"),
    ('[[variants]]\nname = "x"\nmodel = "nope"', r"add a \[models.nope\] section"),
    ('[eval]\nmetrics = ["p@10"]', "did you mean 'P@10'"),
    ('[eval]\nbaseline = "tagz"', "is not a variant"),
    ('[preprocess]\nworkerz = 2', "did you mean 'workers'"),
    ('[index]\nthreads = "two"', "must be a whole number"),
    ('[search]\nmodel = "bm52"', r"\[search\] model 'bm52' is not a retrieval model .did you mean 'bm25'"),
    ('[[variants]]\nname = "x"\nretrieval = "qdl"', r"'x': retrieval 'qdl' .* .did you mean 'qld'"),
    ('[[variants]]\nname = "x"\nretrieval = "bm25"\nb = 1.5', "0 <= b <= 1"),
    ('[search]\nrm3 = true\nfb_docs = 0', "fb_docs >= 1"),
    ('[search]\nrm3 = "yes"', "must be true or false"),
])
def test_config_mistakes_are_refused_with_the_closest_valid_name(tmp_path, change, message):
    with pytest.raises(ValueError, match=message):
        config(tmp_path, BASE + change + "\n")


def test_retrieval_model_per_variant_over_the_config_wide_one(tmp_path):
    exp = config(tmp_path, BASE + '[search]\nmodel = "bm25"\nk1 = 1.2\n[[variants]]\nname = "qld"\n'
                                  'retrieval = "qld"\nmu = 1000\n[[variants]]\nname = "rm3"\nrm3 = true\nb = 0.75\n')
    tags, qld, rm3 = (exp.retrieval(v) for v in exp.variants)
    assert tags.label() == "BM25 k1=1.2 b=0.4" and qld.label() == "QLD μ=1000"
    assert rm3.label() == "BM25 k1=1.2 b=0.75 +RM3(10 terms, 10 docs, 0.5)"
    assert exp.variants[2].clean == CleanOptions()  # retrieval keys are not cleaning options


def test_inputs_must_be_a_list_and_sections_must_exist(tmp_path):
    with pytest.raises(ValueError, match=r"inputs must be a list"):
        config(tmp_path, BASE.replace('inputs = ["x.warc.gz"]', 'inputs = "x.warc.gz"'))
    with pytest.raises(ValueError, match=r"the \[qrels\] section is missing"):
        config(tmp_path, BASE.replace('[qrels]\npath = "qrels.txt"\n', ""))
    with pytest.raises(ValueError, match="needs 'path'"):
        config(tmp_path, BASE.replace('path = "topics.txt"', ""))
    with pytest.raises(ValueError, match="not valid TOML"):
        config(tmp_path, BASE + "[[[")


# -- the registry: adding a cleaner -------------------------------------------------------------------------------
def test_adding_a_cleaner_takes_one_module_and_one_registry_line(tmp_path):
    """tests/plugins/first_block.py is the module; its last line is the registry line (README: Adding a cleaner)."""
    import tests.plugins.first_block  # noqa: F401 -- the one registry line runs on import
    from preprocess.run.pipeline import Pipeline
    from preprocess.config.registry import CLEANERS

    assert "first_block" in CLEANERS
    a = build_parser().parse_args(["preprocess", "x.warc.gz", "-o", "o", "--cleaner", "first_block"])
    assert options.from_args(a).cleaner == "first_block"                      # the CLI knows it
    assert parse_spec("first_block+links(0.5)").cleaner == "first_block"     # so does eval-cleaning
    assert config(tmp_path, BASE.replace('cleaner = "tags"', 'cleaner = "first_block"')).variants[0].clean.cleaner \
        == "first_block"                                                      # and the configs
    html = b"<html><body><div>menu</div><p>The first paragraph.</p><p>The second.</p></body></html>"
    out, stats = Pipeline(CleanOptions(cleaner="first_block")).process(
        [Document(id="d", content_type="text/html", raw=html)])
    assert out[0]["contents"] == "The first paragraph."  # Kitten's punctuation already there
    assert stats.times["first_block"]["cpu_s"] >= 0


# -- units and batches, without Ray -------------------------------------------------------------------------------
def test_units_are_one_per_file_with_keys_that_follow_options_and_inputs(tmp_path):
    from preprocess.readers.sources import Source
    from preprocess.run.units import Job, plan

    sources = [Source("warc", f"/in/{n}.warc.gz", 10 + i, 1) for i, n in enumerate("ab")]
    units = plan(sources, Job(CleanOptions(), "out"))
    assert [u.shard for u in units] == ["00000-a.jsonl.gz", "00001-b.jsonl.gz"]
    assert units == plan(sources, Job(CleanOptions(), "out"))  # stable
    other = plan(sources, Job(CleanOptions(cleaner="density"), "out"))
    assert all(u.key != o.key for u, o in zip(units, other))
    touched = plan([sources[0], dataclasses.replace(sources[1], mtime_ns=2)], Job(CleanOptions(), "out"))
    assert touched[0].key == units[0].key and touched[1].key != units[1].key  # only the changed file is redone


def test_a_model_retrained_at_the_same_path_makes_new_unit_and_collection_keys(tmp_path):
    import os

    from preprocess.run.units import Job
    from webprune.experiment import _key

    model = tmp_path / "model.json"
    model.write_text("{}")
    opts = CleanOptions(cleaner="learned", learned_model=str(model))
    before = Job(opts, "out").key, _key(opts, ["in.warc.gz"])
    assert before == (Job(opts, "out").key, _key(opts, ["in.warc.gz"]))
    model.write_text('{"retrained": 1}')
    os.utime(model, ns=(1, 1))
    after = Job(opts, "out").key, _key(opts, ["in.warc.gz"])
    assert after[0] != before[0] and after[1] != before[1]


def test_batches_number_records_and_leave_poison_out(tmp_path):
    from preprocess.runtime.attempts import AttemptGuard
    from preprocess.folder.output import OutputDir
    from preprocess.core.stats import Stats

    out = OutputDir(str(tmp_path))
    docs = [Document(id=str(i), source="s") for i in range(10)]
    guard = AttemptGuard(out, "k", "s", page_timeout=0)
    assert [[d.id for d in b] for b in guard.batches(iter(docs), 4, Stats())] == [
        ["0", "1", "2", "3"], ["4", "5", "6", "7"], ["8", "9"]]
    # a dead attempt had records 4..7 in flight: they run one at a time; then 6 alone: it is the poison
    out.write_json({"attempt": 1, "poison": {}, "suspect": None, "inflight": {"first": 4, "last": 7}}, "work", "k.json")
    guard = AttemptGuard(out, "k", "s", page_timeout=0)
    assert [[d.id for d in b] for b in guard.batches(iter(docs), 4, Stats())][:3] == [["0", "1", "2", "3"], ["4"], ["5"]]
    out.write_json({"attempt": 2, "poison": {}, "suspect": [4, 7], "inflight": {"first": 6, "last": 6}}, "work", "k.json")
    stats = Stats()
    guard = AttemptGuard(out, "k", "s", page_timeout=0)
    ids = [d.id for b in guard.batches(iter(docs), 4, stats) for d in b]
    assert "6" not in ids and len(ids) == 9 and stats.counts["failed.native_crash"] == 1 and guard.lost == 2


def test_local_executor_runs_items_in_order_and_turns_errors_into_failures():
    from preprocess.runtime.executor import Failure, LocalExecutor

    def fn(shared, item, progress):
        if item == 3:
            raise OSError("disk gone")
        progress.add(item)
        return shared * item

    got = list(LocalExecutor().map(fn, [1, 2, 3, 4], shared=10))
    assert [g[1] for g in got if not isinstance(g[1], Failure)] == [10, 20, 40]
    assert isinstance(got[2][1], Failure) and "disk gone" in got[2][1].message


def test_records_a_progress_counter_did_not_take_are_sent_with_the_next_report():
    from preprocess.core.stats import Stats
    from preprocess.runtime.progress import UnitProgress

    class Flaky:  # a progress counter that is not there for the first two sends
        def __init__(self):
            self.calls, self.got = 0, []

        def add(self, n):
            self.calls += 1
            if self.calls <= 2:
                return False
            self.got.append(n)
            return True

    stats, counter = Stats(), Flaky()
    report = UnitProgress(counter)
    for n in (3, 5, 4):
        stats.update("records", n)
        report(stats, force=True)
    stats.update("records", 2)
    report(stats, force=True)
    assert counter.got == [12, 2] and sum(counter.got) == stats.counts["records"]


def test_a_counter_not_there_yet_is_asked_again_only_after_a_pause_or_at_the_units_end():
    """Before the driver starts its progress actor each lookup is a round trip to Ray's GCS: a worker does not
    repeat it every half second."""
    from preprocess.core.stats import Stats
    from preprocess.runtime.progress import UnitProgress

    class Absent:
        def __init__(self):
            self.calls = 0

        def add(self, n):
            self.calls += 1
            return False

    stats, counter = Stats(), Absent()
    report = UnitProgress(counter)
    for _ in range(5):  # records keep coming, every report unforced and within RETRY_S of the first
        stats.update("records", 1)
        report(stats)
    assert counter.calls == 1
    report(stats, force=True)  # the unit's end
    assert counter.calls == 2
