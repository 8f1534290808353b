"""Hostile payloads: HTTP heads with odd line ends, content encodings cut short, lying charsets, binary bytes
served as HTML, and markup that makes the parser superlinear. Each gets its counter or its reason; none costs
its page's text silently, and none ties up a worker."""
import gzip
import time
import zlib

import pytest

from preprocess.core.document import Document
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from preprocess.readers.http import payload
from preprocess.core.stats import Stats
from tests.hostile import page, pack, read, warc_record

TITLE = "Page 3"


def http_payload(block: bytes) -> tuple[bytes, Stats]:
    stats = Stats()
    _, _, body = payload(block, stats.update)
    return body, stats


@pytest.mark.parametrize("head_end", [b"\r\n\r\n", b"\n\n", b"\n\r\n", b"\r\n\n"])
def test_the_http_head_ends_at_its_first_empty_line_whatever_the_line_ends(head_end):
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html"
    body = page(3) + b"\r\n\r\n<p>second part after a blank line</p>"
    got, stats = http_payload(head + head_end + body)
    assert got == body
    assert stats.counts["read.http_head_bare_line_ends"] == (head_end != b"\r\n\r\n")


def test_a_gzip_body_cut_short_is_kept_and_counted():
    body = gzip.compress(page(3) * 20, mtime=0)
    got, stats = http_payload(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + body[:len(body) // 2])
    assert (page(3) * 20).startswith(got) and 0 < len(got) < len(page(3) * 20)
    assert stats.counts["read.content_encoding_cut_short"] == 1


def test_a_deflate_body_cut_short_is_kept_and_counted():
    body = zlib.compress(page(3) * 20)
    got, stats = http_payload(b"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n" + body[:len(body) // 2])
    assert (page(3) * 20).startswith(got) and stats.counts["read.content_encoding_cut_short"] == 1


def test_a_gzip_body_of_two_members_is_decoded_whole():
    first, second = page(3)[:100], page(3)[100:]
    body = gzip.compress(first, mtime=0) + gzip.compress(second, mtime=0)
    got, stats = http_payload(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + body)
    assert got == page(3) and not stats.counts["read.content_encoding_cut_short"]


def test_a_gzip_body_without_its_content_encoding_is_inflated_and_counted():
    got, stats = http_payload(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + gzip.compress(page(3), mtime=0))
    assert got == page(3) and stats.counts["read.undeclared_gzip_body"] == 1


def test_a_zstd_body_is_decoded_whole_and_one_cut_short_is_kept_and_counted():
    import zstandard

    body = zstandard.ZstdCompressor().compress(page(3) * 20)
    got, stats = http_payload(b"HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n" + body)
    assert got == page(3) * 20 and not stats.counts["read.bad_content_encoding_kept_raw"]
    got, stats = http_payload(b"HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n" + body[:len(body) // 2])
    assert (page(3) * 20).startswith(got) and stats.counts["read.content_encoding_cut_short"] == 1


def test_a_zstd_bomb_is_cut_at_max_bytes():
    import zstandard

    bomb = zstandard.ZstdCompressor().compress(b"<p>" + b"a" * (64 << 20))
    stats = Stats()
    _, _, got = payload(b"HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n" + bomb, stats.update, 1 << 20)
    assert len(got) == 1 << 20 and stats.counts["read.content_encoding_cut_short"] == 1


@pytest.mark.parametrize("codings", [["gzip", "gzip"], ["gzip", "zstd"], ["deflate", "gzip"], ["identity", "gzip"]])
def test_several_content_encodings_are_undone_last_first(codings):
    import zstandard

    body = page(3)
    for c in codings:  # applied in the order they are listed
        body = {"gzip": lambda b: gzip.compress(b, mtime=0), "zstd": zstandard.ZstdCompressor().compress,
                "deflate": zlib.compress, "identity": lambda b: b}[c](body)
    got, stats = http_payload(f"HTTP/1.1 200 OK\r\nContent-Encoding: {', '.join(codings)}\r\n\r\n".encode() + body)
    assert got == page(3) and not stats.counts["read.bad_content_encoding_kept_raw"]


def test_a_gzip_bomb_is_cut_at_max_bytes_not_inflated_whole():
    bomb = gzip.compress(b"<p>" + b"a" * (64 << 20), mtime=0)  # 64 MB from 64 KB
    stats = Stats()
    _, _, got = payload(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + bomb, stats.update, 1 << 20)
    assert len(got) == 1 << 20 and stats.counts["read.content_encoding_cut_short"] == 1


def run_pages(pages: dict[str, tuple[bytes, str]], **opts):
    pipe = Pipeline(CleanOptions(**({"cleaner": "tags"} | opts)))  # tag removal, unless a test says otherwise
    docs = [Document(id=k, url=f"http://x.org/{k}", content_type=ctype, raw=raw) for k, (raw, ctype) in pages.items()]
    out, stats = pipe.process(docs)
    return {o["id"]: o for o in out}, stats


def test_charsets_that_lie_about_utf16_are_read_as_what_the_bytes_are():
    text = "<html><head><title>Café</title></head><body><p>Crème brûlée for everyone.</p></body></html>"
    utf8 = text.encode("utf-8")
    meta16 = text.replace("<head>", '<head><meta charset="utf-16">').encode("utf-8")
    real16 = text.encode("utf-16-le")
    out, stats = run_pages({"header": (utf8, "text/html; charset=utf-16"), "meta": (meta16, "text/html"),
                            "real": (real16, "text/html; charset=utf-16le"),
                            "bom": (b"\xff\xfe" + real16, "text/html")})
    for k in ("header", "meta", "real", "bom"):
        assert "Crème brûlée for everyone." in out[k]["contents"], (k, out[k]["contents"])
    assert stats.counts["decode.charset_label_ignored.utf-16"] == 1


@pytest.mark.parametrize("kind, raw", [("pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\n" * 50),
                                       ("png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20),
                                       ("zip", b"PK\x03\x04" + b"\x14\x00" * 500),
                                       ("jpeg", b"\xff\xd8\xff\xe0\x00\x10JFIF" + bytes(2000))])
def test_binary_bytes_served_as_html_are_skipped_with_their_kind(kind, raw):
    out, stats = run_pages({"x": (raw, "text/html")})
    assert out == {} and stats.group("skipped") == {"binary": 1}
    assert stats.counts[f"decode.binary.{kind}"] == 1 and kind in stats.examples["skipped.binary"][0]


def test_binary_records_in_a_warc_are_counted_not_indexed():
    pdf = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n%PDF-1.4\n" + bytes(range(256)) * 10
    docs, stats = read(pack([warc_record(0), warc_record(1, block=pdf), warc_record(2)], "plain"), "t.warc")
    out, pstats = Pipeline(CleanOptions()).process(docs)
    assert [o["id"] for o in out] == ["urn:uuid:00000000", "urn:uuid:00000002"]
    assert pstats.group("skipped") == {"binary": 1}


COSTLY = {
    "distinct_attribute_names": lambda: "<html><body>" + "".join(f'<p a{i}="x">t</p>' for i in range(300_000)),
    "attributes_on_one_element": lambda: "<html><body><p " + " ".join(f"a{i}=x" for i in range(80_000)) + ">t",
    "unclosed_options": lambda: "<html><body><select>" + "<option>x" * 80_000 + "</select>",
    "distinct_tag_names": lambda: "<html><body>" + "".join(f"<x{i}>t</x{i}>" for i in range(250_000)),
}
_PARA = "<p>Some words of a page, <a href='/x'>a link</a> and <b>bold</b> text.</p>\n"
ORDINARY_NEAR_MAX_BYTES = {  # 15.4-16.0 MiB, under the default --max-bytes (16 MiB); lexbor parses each in ~0.5 s
    "text": lambda: "<html><body>" + _PARA * 215_000 + "</body></html>",
    "table": lambda: "<html><body><table>" + "<tr><td>cell</td><td class=c>more</td></tr>" * 380_000 + "</table>",
    "nested_blocks": lambda: "<html><body>" + "<div class=a><span>x</span><ul><li>one</li><li>two</li></ul></div>\n"
                             * 250_000,
}


@pytest.mark.parametrize("name", sorted(COSTLY))
def test_markup_the_parser_handles_in_superlinear_time_is_skipped_in_bounded_time(name):
    html = COSTLY[name]() + "<p>" + "real words " * 200 + "</p></body></html>"
    t0 = time.process_time()  # line features need lexbor's tree (plain tags streams the page: next test)
    out, stats = run_pages({name: (html.encode(), "text/html")}, max_parse_seconds=5.0, max_link_density=0.5)
    assert time.process_time() - t0 < 10  # each of these takes lexbor 9-56 s to parse whole (results/parse/)
    assert out == {} and stats.group("skipped") == {"too_complex": 1}
    assert "superlinear" in stats.examples["skipped.too_complex"][0]


@pytest.mark.parametrize("name", sorted(COSTLY))
def test_the_probe_refuses_those_pages_at_the_default_budget_too(name):
    """At the default --max-parse-seconds (10) the last two probes' growth of two of these pages (distinct tag or
    attribute names) predicted them within the budget and let them through, while lexbor took 13-29 s on them
    whole: their growth climbs past the quarter (scripts/studies/costly_markup.py)."""
    from resiliparse.parse.html import HTMLTree

    from preprocess.config.options import CleanOptions
    from preprocess.steps.parse import predicted_cost

    html = COSTLY[name]() + "<p>" + "real words " * 200 + "</p></body></html>"
    t0 = time.process_time()
    budget = CleanOptions().max_parse_seconds
    cost = predicted_cost(HTMLTree.parse, html, budget)
    assert cost is not None and cost > budget
    assert time.process_time() - t0 < budget  # probing took at most 5.7 s of a 10 s budget (results/parse/)


@pytest.mark.parametrize("name", sorted(ORDINARY_NEAR_MAX_BYTES))
def test_ordinary_pages_near_the_size_limit_are_parsed_at_a_tight_budget(name):
    """Between 1 and 4 MiB the growth of an ordinary page's probes can jump above 1.3 for one probe (the caches),
    and a probe assuming cubic growth from there refused such pages at --max-parse-seconds 5 while they took
    0.5 s whole; a refusal at the quarter is checked at the half when half the budget affords that probe."""
    from resiliparse.parse.html import HTMLTree

    from preprocess.config.options import CleanOptions
    from preprocess.steps.parse import predicted_cost

    html = ORDINARY_NEAR_MAX_BYTES[name]()
    assert len(html.encode()) <= CleanOptions().max_bytes
    for budget in (5.0, 5.0, 10.0):
        assert predicted_cost(HTMLTree.parse, html, budget) is None


@pytest.mark.parametrize("name", sorted(COSTLY))
def test_the_streaming_tag_remover_reads_those_pages_in_linear_time(name):
    html = COSTLY[name]() + "<p>" + "real words " * 200 + "</p></body></html>"
    t0 = time.process_time()
    out, stats = run_pages({name: (html.encode(), "text/html")}, max_parse_seconds=5.0)
    assert time.process_time() - t0 < 10
    assert stats.counts["parse.streamed"] == 1 and not stats.group("skipped")
    assert out[name]["contents"].endswith("real words " * 199 + "real words")


def test_large_ordinary_pages_are_parsed_not_mistaken_for_cost_attacks():
    para = "<p>Some words of a page, <a href='/x'>a link</a> and <b>bold</b> text.</p>\n"
    pages = {"text_8mb": ("<html><body>" + para * 110_000 + "</body></html>").encode(),
             "table_4mb": ("<html><body><table>" + "<tr><td>cell</td><td class=c>more</td></tr>" * 100_000 +
                           "</table></body></html>").encode(),
             "many_classes": ("<html><body>" + "".join(f"<div class='c{i}' id='i{i}'>w{i}</div>"
                                                        for i in range(60_000)) + "</body></html>").encode()}
    out, stats = run_pages({k: (v, "text/html") for k, v in pages.items()})
    assert set(out) == set(pages), stats.group("skipped")


def test_the_parse_probe_goes_straight_to_a_quarter_of_an_ordinary_page_and_doubles_on_a_costly_one():
    """Prefixes parsed before a page over 128 KiB: 32 KiB, then the quarter itself when the growth assumed at
    worst keeps that probe within the budget; a slow start doubles instead, and predicts the cost from growth."""
    from resiliparse.parse.html import HTMLTree

    from preprocess.steps.parse import CLOSE, FIRST_PROBE, predicted_cost

    page = "<html><body>" + "<p>Some words of a page, <a href='/x'>a link</a>.</p>\n" * 6_000
    sizes = []

    def ordinary(p):
        sizes.append(len(p) - len(CLOSE))
        return HTMLTree.parse(p)

    assert predicted_cost(ordinary, page, 10.0) is None
    assert sizes == [FIRST_PROBE, -(-len(page) // 4)]

    sizes.clear()

    def cubic(p):  # CPU time growing with the cube of the prefix: 0.1 s for the first
        sizes.append(len(p) - len(CLOSE))
        deadline = time.thread_time() + 0.1 * (len(p) / FIRST_PROBE) ** 3
        while time.thread_time() < deadline:
            pass

    cost = predicted_cost(cubic, page, 1.0)
    assert sizes == [FIRST_PROBE, 2 * FIRST_PROBE] and cost > 10


class _Clock:
    """A thread_time that a fake parse advances: probes' times set exactly, no timing noise."""

    def __init__(self, cost):
        self.now, self.cost, self.sizes = 0.0, cost, []

    def thread_time(self):
        return self.now

    def parse(self, prefix):
        from preprocess.steps.parse import CLOSE

        self.sizes.append(len(prefix) - len(CLOSE))
        self.now += self.cost(self.sizes[-1])


@pytest.mark.parametrize("half_growth, parsed", [(1.0, True), (1.2, True), (3.0, False)])
def test_a_jump_in_growth_at_the_quarter_is_checked_at_the_half(monkeypatch, half_growth, parsed):
    """A 16 MiB page linear to 1 MiB whose quarter then took 1.8x its share (growth 1.42: the caches): cubic
    growth from there predicts 13 s, so the half is probed and judges the page."""
    import preprocess.steps.parse as parse_step

    n, mib = 16 << 20, 1 << 20
    quarter = n // 4

    def cost(size):  # 20 ms a MiB up to 1 MiB, then the quarter's jump, then the half's growth
        if size <= mib:
            return 0.02 * size / mib
        if size <= quarter:
            return 0.02 * 4 * 1.8
        return 0.02 * 4 * 1.8 * 2 ** half_growth

    clock = _Clock(cost)
    monkeypatch.setattr(parse_step, "time", clock)
    verdict = parse_step.predicted_cost(clock.parse, "x" * n, 5.0)
    assert clock.sizes[-2:] == [quarter, n // 2]
    assert (verdict is None) == parsed


def test_the_half_is_not_probed_when_half_the_budget_cannot_afford_it(monkeypatch):
    import preprocess.steps.parse as parse_step

    n = 16 << 20
    clock = _Clock(lambda size: 0.4 * (size / (n // 4)) ** 1.5)  # the quarter at 0.4 s: the half at worst 3.2
    monkeypatch.setattr(parse_step, "time", clock)
    assert parse_step.predicted_cost(clock.parse, "x" * n, 5.0) > 5.0
    assert clock.sizes[-1] == n // 4


def test_a_probe_cut_anywhere_inside_a_tag_still_parses_the_tag_with_its_attributes():
    """Every cut of a start tag, closed by the probe's CLOSE, parses to that element with the attributes it had
    whole before the cut (a cut just after "=" once left the tag open, and lexbor drops an open tag: the probe
    of a 100,000-attribute page then took 0.03 s and predicted nothing)."""
    from resiliparse.parse.html import HTMLTree

    from preprocess.steps.parse import CLOSE

    tag = """<p a1=x b2='y z' c3="w v" d4 e5 = u f6=>t"""
    for cut in range(len("<p "), len(tag) - 1):
        p = HTMLTree.parse("<html><body>" + tag[:cut] + CLOSE).body.query_selector("p")
        assert p is not None, tag[:cut]
        whole = [a[:2] for a in ("a1=x", "b2='y z'", 'c3="w v"', "d4", "e5 = u") if cut > tag.index(a) + len(a)]
        assert all(p.hasattr(a) for a in whole), (tag[:cut], whole)


def test_an_attribute_storm_cut_right_after_an_equals_sign_by_the_last_probe_is_still_predicted_costly():
    """A one-element storm whose quarter probe is cut right after an "=" (the page the fuzz run met): the probes
    before it are too quick to time, so the quarter's cost decides; with the tag parsed it predicts ~14 s (the
    page takes ~6), with the tag dropped ~0.3 s, and the page was parsed whole."""
    from preprocess.steps.parse import predicted_cost
    from resiliparse.parse.html import HTMLTree

    storm = " ".join(f"a{i}=x" for i in range(60_000))
    filler = "<p>Some words of a page.</p>\n" * 2_200  # 64 KiB: the first two probes too quick to time
    for pad in range(12):  # the page grows by one character a time until its quarter falls right after "="
        page = "<html><body>" + filler + " " * pad + "<p " + storm + ">t</p>"
        if page[:-(-len(page) // 4)].endswith("="):
            break
    else:
        raise AssertionError("no padding puts the quarter after an =")
    assert predicted_cost(HTMLTree.parse, page, 3.0) is not None
