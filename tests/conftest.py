import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("WEBPRUNE_SHARED", ROOT.parent / "shared" / "data"))
EXAMPLE = ROOT / "webprune" / "example"


def shared(*parts) -> Path:
    """A path under ../shared/data (the folder itself with no parts); skips the test when it is missing."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"shared real data missing: {p} (it sits beside the project as ../shared/data in CI)")
    return p


def local_run(**kw):
    """RunOptions of a run in this process writing plain .jsonl shards (what most tests read)."""
    from preprocess.options import RunOptions

    return RunOptions(**({"executor": "local", "compress": False} | kw))
