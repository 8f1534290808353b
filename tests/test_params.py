"""Each component declares its parameters in the registry; flags, configs, specs, unit keys and model checks follow.

A plugin cleaner with a model parameter (``path=True``) is loaded through $WEBPRUNE_PLUGINS in a fresh
interpreter (the options are assembled when preprocess.config.options is first imported) and must show up
everywhere the built-in ``learned_model`` does, with no line of its own outside its module.
"""
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from preprocess.config import registry
from preprocess.config.options import OWNER, CleanOptions
from preprocess.config.params import option, path_fields

ROOT = Path(__file__).resolve().parent.parent

PLUGIN = '''from pathlib import Path

from preprocess.config.params import option
from preprocess.config.registry import Cleaner, register
from preprocess.steps.base import Step


class Stamp(Step):
    name = "stamp"

    def __init__(self, model):
        super().__init__()
        self.word = Path(model).read_text().strip()

    @classmethod
    def build(cls, ctx):
        return cls(ctx.opts.stamp_model)

    def process(self, doc):
        doc.tree.body.html = "<p>" + self.word + "</p>"
        return doc


def check_files(opts):
    if not Path(opts.stamp_model or "").is_file():
        raise ValueError(f"no stamp model at {opts.stamp_model}: give one with --stamp-model FILE")


register(Cleaner("stamp", "stampplug:Stamp", "writes its model's word", checks="stampplug", kitten=False,
                 params={"stamp_model": option(None, "the word file", type=str | None, metavar="FILE", path=True)}))
'''

PROBE = '''
import json, sys, io, contextlib
from preprocess.config.options import CleanOptions, from_mapping
from preprocess.config.params import path_fields
from preprocess.config.spec import format_spec, parse_spec
from preprocess.run.units import model_files
from eval.cleaning.harness import MODEL_KEYS
from webprune.cli import build_parser

out = {"path_fields": list(path_fields(CleanOptions)), "harness": list(MODEL_KEYS)}
buf = io.StringIO()
with contextlib.redirect_stdout(buf), contextlib.suppress(SystemExit):
    build_parser().parse_args(["preprocess", "--help"])
out["flag_in_help"] = "--stamp-model FILE" in buf.getvalue()
a = build_parser().parse_args(["preprocess", "x.warc", "-o", "o", "--cleaner", "stamp", "--stamp-model", sys.argv[1]])
from preprocess.config.options import from_args
opts = from_args(a)
out["from_args"] = opts.stamp_model
out["config"] = from_mapping({"cleaner": "stamp", "stamp_model": sys.argv[1]}, "[[variants]]").stamp_model
spec = parse_spec("stamp+stamp_model(" + sys.argv[1] + ")")
out["spec_round_trip"] = parse_spec(format_spec(spec)) == spec == opts
out["files"] = model_files(opts)
for bad, name in ((CleanOptions(cleaner="tags", stamp_model="m"), "other_cleaner"),
                  (CleanOptions(cleaner="stamp", stamp_model=sys.argv[1] + ".missing"), "missing")):
    try:
        bad.check_files()
        out[name] = None
    except ValueError as exc:
        out[name] = str(exc)
out["check_files_ok"] = opts.check_files() == opts
from preprocess.run.pipeline import Pipeline
from preprocess.core.document import Document
docs, _ = Pipeline(opts).process([Document(id="d", content_type="text/html",
                                           raw=b"<html><body><p>a</p><p>b</p></body></html>")])
out["cleaned"] = docs[0]["contents"]
print(json.dumps(out))
'''


def test_a_plugins_declared_model_parameter_reaches_every_consumer(tmp_path):
    (tmp_path / "stampplug.py").write_text(PLUGIN)
    model = tmp_path / "word.txt"
    model.write_text("hello\n")
    env = dict(os.environ, WEBPRUNE_PLUGINS="stampplug",
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-c", PROBE, str(model)], env=env, capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["path_fields"] == ["prune_model", "learned_model", "stamp_model"] == out["harness"]
    assert out["flag_in_help"] and out["from_args"] == out["config"] == str(model)
    assert out["spec_round_trip"]
    assert [f[0] for f in out["files"][2]] == ["word.txt"] and out["files"][2][0][1] == 6  # hashed into the key
    assert "--stamp-model is a parameter of --cleaner stamp" in out["other_cleaner"]
    assert "no stamp model at" in out["missing"] and out["check_files_ok"]
    assert out["cleaned"] == "hello"


def test_the_options_are_the_run_wide_fields_and_the_registrys_declarations():
    declared = {n for c in registry.components() for n in c.params}
    fields = [f.name for f in dataclasses.fields(CleanOptions)]
    assert declared == set(OWNER) and declared < set(fields)
    assert set(fields) - declared == {"cleaner", "max_bytes", "max_nodes", "max_depth", "max_parse_seconds"}
    assert OWNER["learned_model"].name == "learned" and OWNER["prune_model"].name == "prune"
    assert path_fields(CleanOptions) == ("prune_model", "learned_model")


def test_a_cleaner_with_parameters_registering_late_is_refused(monkeypatch):
    monkeypatch.setattr(registry, "CLEANERS", dict(registry.CLEANERS))
    late = registry.Cleaner("late", "x:Y", "too late", params={"late_x": option(None, "x", type=int | None)})
    with pytest.raises(ValueError, match="WEBPRUNE_PLUGINS"):
        registry.register(late)
    registry.register(registry.Cleaner("plain", "x:Y", "no parameters: fine at any time"))
    assert "plain" in registry.CLEANERS


class _SeesHints:
    """A cleaner declaring that it works with the hint step (records what the build gave it)."""

    uses = ("hints",)
    given: list = []

    @classmethod
    def build(cls, ctx):
        from preprocess.steps.base import Step

        cls.given.append(dict(ctx.steps))
        step = Step()
        step.process = lambda doc: doc
        return step


def test_a_step_gets_the_earlier_steps_it_declares_and_no_step_travels_in_meta(monkeypatch):
    from preprocess.core.document import Document
    from preprocess.filters.hints import HintFilter
    from preprocess.run.pipeline import Pipeline

    monkeypatch.setattr(registry, "CLEANERS", dict(registry.CLEANERS))
    monkeypatch.setattr(sys.modules[__name__], "_SeesHints", _SeesHints)
    registry.register(registry.Cleaner("sees_hints", f"{__name__}:_SeesHints", "test"))
    _SeesHints.given.clear()
    Pipeline(CleanOptions(cleaner="sees_hints", drop_hinted=True))
    Pipeline(CleanOptions(cleaner="sees_hints"))
    assert [list(g) for g in _SeesHints.given] == [["hints"], []]
    assert isinstance(_SeesHints.given[0]["hints"], HintFilter)
    from preprocess.cleaners.learned import compiled
    from preprocess.core.stats import Stats

    pipe = Pipeline(CleanOptions(cleaner="learned", drop_hinted=True))
    hints, learned = (next(s for s in pipe.steps if s.name == n) for n in ("hints", "learned"))
    assert hints.deferred == compiled.ON and learned.hints is (hints if compiled.ON else None)
    html = b'<html><body><div class="sidebar">menu</div><p>Text of the page, long enough.</p></body></html>'
    docs = [Document(id="d", content_type="text/html", raw=html)]
    assert [d.text for d in pipe.run(docs, Stats())] == ["Text of the page, long enough."]
    assert docs[0].meta == {}  # nothing handed from step to step through the document
