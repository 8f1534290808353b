"""A learning pass's spool (preprocess/learning/spool.py) reads back the rows it wrote, whatever their text holds:
U+2028, U+2029 and U+0085 stay raw in its JSON lines (ensure_ascii=False), where str.splitlines would split."""
from preprocess.folder.output import OutputDir
from preprocess.learning.spool import read_spool, write_spool


def test_rows_with_unicode_line_separators_come_back_as_written(tmp_path):
    out = OutputDir(str(tmp_path))
    rows = [["a line\u2028still the same line", "x\x85y", "p\u2029q"], [], ["\u000bv\u000cf\x1c\x1d\x1e"], ["plain"]]
    write_spool(out, "pass", "unit-00000-r0-tall.jsonl.gz", rows, {"rows": len(rows)})
    assert read_spool(out, "pass", "unit-00000-r0-tall.jsonl.gz") == rows
