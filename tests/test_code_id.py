"""code_id: the hash in every unit key covers the plugin cleaners the registry loads, not only preprocess/."""
import sys

import pytest

from preprocess.config import registry
from preprocess.run import units
from preprocess.config.options import CleanOptions
from preprocess.run.units import Job, code_id

PLUGIN = '''from preprocess.config.registry import Cleaner, register
from preprocess.steps.base import Step
from {pkg}.helper import WORD


class Shout(Step):
    name = "shout"

    def process(self, doc):
        return doc


register(Cleaner("shout", "{pkg}.clean:Shout", "a plugin cleaner " + WORD))
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    pkg = tmp_path / "shoutplug"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helper.py").write_text('WORD = "v1"\n')
    (pkg / "clean.py").write_text(PLUGIN.format(pkg="shoutplug"))
    (tmp_path / "unrelated.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "CLEANERS", dict(registry.CLEANERS))
    units._code_id.cache_clear()
    yield pkg
    for name in [m for m in sys.modules if m.startswith("shoutplug")]:
        del sys.modules[name]
    units._code_id.cache_clear()


def fresh_id() -> str:
    units._code_id.cache_clear()
    return code_id()


def test_a_plugin_and_its_helpers_are_in_the_code_id(plugin, tmp_path):
    before = fresh_id()
    __import__("shoutplug.clean")
    assert "shoutplug.clean" in registry.component_modules()
    registered = fresh_id()
    assert registered != before
    key = Job(CleanOptions(cleaner="shout"), "out").key
    (plugin / "helper.py").write_text('WORD = "v2"\n')  # the helper the plugin imports, edited
    edited = fresh_id()
    assert edited != registered
    assert Job(CleanOptions(cleaner="shout"), "out").key != key
    (plugin / "clean.py").write_text(PLUGIN.format(pkg="shoutplug") + "# edited\n")
    assert fresh_id() != edited
    changed = fresh_id()
    (tmp_path / "unrelated.py").write_text("X = 2\n")  # not loaded by the registry: no effect
    assert fresh_id() == changed


def test_plugins_named_in_the_environment_count(plugin, monkeypatch):
    before = fresh_id()
    monkeypatch.setenv("WEBPRUNE_PLUGINS", "shoutplug.helper")
    assert "shoutplug.helper" in registry.component_modules()
    assert fresh_id() != before


def test_a_missing_module_is_one_clear_error(monkeypatch):
    monkeypatch.setenv("WEBPRUNE_PLUGINS", "no_such_plugin_module")
    with pytest.raises(ValueError, match="no_such_plugin_module"):
        fresh_id()
    monkeypatch.delenv("WEBPRUNE_PLUGINS")
    units._code_id.cache_clear()
