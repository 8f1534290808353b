from pathlib import Path

import pytest

from eval.cleaning.gold import shared_root

ROOT = Path(__file__).resolve().parent.parent
SHARED = shared_root()
EXAMPLE = ROOT / "webprune" / "example"


def shared(*parts) -> Path:
    """A path under ../shared/data (the folder itself with no parts); skips the test when it is missing."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"shared real data missing: {p} (it sits beside the project as ../shared/data in CI)")
    return p


def local_run(**kw):
    """RunOptions of a run in this process writing plain .jsonl shards (what most tests read)."""
    from preprocess.config.options import RunOptions

    return RunOptions(**({"executor": "local", "compress": False} | kw))


def pytest_collection_modifyitems(config, items):
    """Tests marked ``multihost_long`` run only when a ``-m`` expression names them (by hand: minutes each)."""
    if "multihost_long" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="long multi-host seeds: run by hand with -m multihost_long")
    for item in items:
        if "multihost_long" in item.keywords:
            item.add_marker(skip)
