"""The one line `webprune preprocess` ends with: counts by reason, and a resumed run whose every input file was
reused says so instead of a speed it did not measure ("None docs/s")."""
import re
import subprocess
import sys

from tests.conftest import ROOT, shared


def _preprocess(inputs, out) -> str:
    proc = subprocess.run([sys.executable, "-m", "webprune.cli", "preprocess", *map(str, inputs), "-o", str(out),
                           "--local"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip().splitlines()[-1]


def test_a_rerun_with_every_file_reused_says_so(tmp_path):
    inputs = [shared("warc", "commoncrawl", "CC-MAIN-2020-34-sample.warc.gz"),
              shared("warc", "edge-cases", "example.warc.gz")]
    first = _preprocess(inputs, tmp_path / "out")
    # 50 + 6 records: 16 + 1 responses written, the other 39 records skipped as non_response
    assert first.startswith("56 records: 17 written, skipped 39 (non_response 39), failed 0; "), first
    assert re.search(r"; \d+(\.\d+)? docs/s with 1 worker\(s\) -> ", first), first
    again = _preprocess(inputs, tmp_path / "out")
    assert "None" not in again and "docs/s" not in again, again
    assert "all 2 input file(s) reused from an earlier run, nothing cleaned again" in again, again
    assert again.startswith("56 records: 17 written, skipped 39 (non_response 39), failed 0; "), again


def test_preprocess_without_flags_writes_what_the_learned_cleaner_writes(tmp_path, capsys):
    """The recommended pipeline is the default: no flags and --cleaner learned give the same shard, byte for byte,
    and --help names the default."""
    from webprune.cli import main
    from webprune.example import pack_example

    warc = tmp_path / "example.warc.gz"
    pack_example(warc)
    assert main(["preprocess", str(warc), "-o", str(tmp_path / "plain"), "--local"]) == 0
    assert main(["preprocess", str(warc), "-o", str(tmp_path / "learned"), "--local", "--cleaner", "learned"]) == 0
    assert main(["preprocess", str(warc), "-o", str(tmp_path / "tags"), "--local", "--cleaner", "tags"]) == 0
    shard = lambda name: next((tmp_path / name / "collection").iterdir()).read_bytes()  # noqa: E731
    assert shard("plain") == shard("learned") != shard("tags")
    capsys.readouterr()
    assert main(["preprocess", "--help"]) == 0
    assert "(default: learned)" in " ".join(capsys.readouterr().out.split())
