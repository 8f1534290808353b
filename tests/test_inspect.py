"""webprune inspect: a crawl's record types, statuses, MIME types, charsets, sizes, hosts and id headers."""
import json

from tests.conftest import shared
from webprune.cli import main


def test_inspect_counts_the_real_archives(tmp_path, capsys):
    out = tmp_path / "inspect.json"
    assert main(["inspect", str(shared("warc")), "--local", "--json", str(out)]) == 0
    table = capsys.readouterr().out
    assert "### records by type" in table and "| response | 52 |" in table
    data = json.loads(out.read_text())
    assert data["records"]["response"] == 52 and data["records"]["request"] == 25
    assert data["charset"]["euc-jp"] == 29  # the ClueWeb09 sample
    assert data["id_header"] == {"warc-trec-id": 29, "warc-record-id": 83, "offset": 6}  # ClueWeb09 ids; ARC offsets
    assert data["host"]["www.uraharajuku.st"] == 29 and sum(data["size"].values()) == 53
    assert main(["inspect", str(shared("warc", "clueweb09")), "--local", "--sample", "5", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["records"]["response"] == 5
