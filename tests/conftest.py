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
