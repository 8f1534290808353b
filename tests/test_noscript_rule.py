"""The <noscript> rule (parse.unwrap_noscript) decided alike by the tree, the stream scan and the raw reader: a
<noscript> holding at least 1,000 characters and half the body's text, scripts and styles left out (in svg and
math a <style> is an ordinary element: its text counts)."""
import pytest
from resiliparse.parse.html import HTMLTree

from preprocess.cleaners.learned import raw
from preprocess.steps import stream
from preprocess.steps.parse import unwrap_noscript

NS = "<noscript><p>" + "copy of the page " * 100 + "</p></noscript>"  # 1,700 characters
CASES = {  # name: (page, unwrapped)
    "alone": (f"<body>{NS}<p>x</p>", True),
    "beside a bigger script": (f"<body><script>{'s' * 20000}</script>{NS}<p>x</p>", True),
    "beside a bigger style": (f"<body><style>{'c' * 20000}</style>{NS}<p>x</p>", True),
    "beside more text": (f"<body><p>{'t' * 4000}</p>{NS}", False),
    "beside more text and a script": (f"<body><script>{'s' * 20000}</script><p>{'t' * 4000}</p>{NS}", False),
    "beside a bigger style in svg": (f"<body><svg><style>{'c' * 20000}</style></svg>{NS}<p>x</p>", False),
    "holding only a style": (f"<body><noscript><style>{'c' * 2000}</style></noscript><p>{'t' * 3000}</p>", False),
    "holding a style and too little text": (f"<body><noscript><style>{'c' * 20000}</style><p>{'n' * 900}</p>"
                                            "</noscript><p>x</p>", False),
    "holding a script and the page": (f"<body><noscript><script>{'s' * 20000}</script><p>{'n' * 1100}</p>"
                                      f"</noscript><p>{'t' * 1000}</p>", True),
    "too small beside a script": (f"<body><script>{'s' * 20000}</script><noscript><p>n</p></noscript>", False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_tree_the_stream_scan_and_the_raw_reader_decide_alike(case):
    page, unwrapped = CASES[case]
    assert unwrap_noscript(HTMLTree.parse(page)) is unwrapped
    for compiled in (False, True):
        assert stream.page_text(page, stream.scanner(compiled))[2] is unwrapped
        got, why, _ = raw.read_raw(page, compiled=compiled)
        assert (got is None and "noscript" in why) is unwrapped
