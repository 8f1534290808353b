import pytest

from preprocess.core.document import Document
from preprocess.steps import decode
from preprocess.steps.decode import Decode, decode_payload
from tests.conftest import EXAMPLE


def run(step, docs):
    return list(step.run(docs))


def test_header_charset_wins_over_meta_and_detector():
    html = '<html><head><meta charset="utf-8"></head><body>caf\u00e9 cr\u00e8me</body></html>'.encode("cp1252")
    text, codec, source = decode_payload(html, "text/html; charset=windows-1252")
    assert source == "header" and codec == "cp1252" and "café crème" in text


def test_meta_charset_used_when_header_has_none():
    raw = (EXAMPLE / "pages" / "ex-11.html").read_bytes()  # ISO-8859-1 declared by http-equiv
    text, codec, source = decode_payload(raw, "text/html")
    assert source == "meta" and "café" in text and "naïve" in text and "\ufffd" not in text
    # iso-8859-1 is read as windows-1252, as browsers do (WHATWG)
    assert codec == "cp1252"


def test_mislabelled_header_falls_back_to_meta_then_detector():
    body = "<html><head><meta charset='shift_jis'></head><body>日本語のテキストです。これは長い文章です。</body></html>"
    raw = body.encode("shift_jis")
    text, codec, source = decode_payload(raw, "text/html; charset=utf-8")  # header lies
    assert source == "meta" and "日本語のテキスト" in text
    text, codec, source = decode_payload(body.replace("shift_jis", "utf-8").encode("shift_jis"), "text/html")
    assert source == "detector" and "日本語のテキスト" in text


def test_unknown_label_is_ignored():
    text, codec, source = decode_payload("<p>hello wörld</p>".encode("utf-8"), "text/html; charset=x-bogus-42")
    assert "wörld" in text and source == "valid-utf-8"


def test_undeclared_utf8_is_read_as_utf8_when_its_first_64_kib_are_ascii():
    # no charset anywhere, 70 KB of script first: the detector sees ASCII only and guessed windows-1252 ("fÃ¼r")
    raw = ("<html><head><script>" + "var a = 1;\n" * 7000 + "</script></head>"
           "<body><p>Kupplungssatz für Iveco – 355,58 €</p></body></html>").encode("utf-8")
    text, codec, source = decode_payload(raw, "text/html")
    assert (codec, source) == ("utf-8", "valid-utf-8") and "für Iveco – 355,58 €" in text


def test_a_declared_charset_that_fails_falls_to_the_utf8_check():
    raw = "<html><head><meta charset='shift_jis'></head><body>für</body></html>".encode("utf-8")
    assert decode_payload(raw, "text/html")[1:] == ("shift_jis", "meta")  # it decodes: the declaration wins
    raw = "<html><head><meta charset='iso-2022-jp'></head><body>für</body></html>".encode("utf-8")
    text, codec, source = decode_payload(raw, "text/html")  # a 7-bit charset cannot read the UTF-8 bytes
    assert (codec, source) == ("utf-8", "valid-utf-8") and "für" in text


def test_pure_ascii_without_a_charset_is_utf8_and_its_page_keeps_the_noscript_answer():
    raw = b"<html><body><noscript><p>Enable scripts.</p></noscript><p>plain ascii</p></body></html>"
    assert decode_payload(raw, "text/html")[1:] == ("utf-8", "valid-utf-8")
    step = Decode()
    doc = run(step, [Document(id="a", content_type="text/html", raw=raw)])[0]
    assert doc.encoding == "utf-8" and doc.meta["noscript"] is True and doc.raw is None
    assert step.stats.counts["decode.charset_from.valid-utf-8"] == 1


def test_not_utf8_still_goes_to_the_detector_and_its_fallback():
    body = "<html><body><p>" + "Größe und Qualität der Straße. " * 40 + "</p></body></html>"
    text, codec, source = decode_payload(body.encode("cp1252"), "text/html")
    assert source == "detector" and "Größe" in text
    # nothing decodes strictly: the replacement fallback is the detector's charset, never the failed probe's
    text, codec, source = decode_payload(body.encode("cp1252") + b"\x81\x8d", "text/html")
    assert source == "detector+replace" and codec != "utf-8" and "Größe" in text


def test_real_undeclared_utf8_page_keeps_its_umlauts():
    from eval.cleaning.gold import gold_pages
    from tests.conftest import shared

    # eBay (wcxb-dev 2991): no charset in the header or the first 4 KiB, 64 KiB of ASCII first
    page = next(p for p in gold_pages(shared(), ["wcxb-dev"]) if p.name == "2991")
    text, codec, source = decode_payload(page.raw(), "text/html")
    assert (codec, source) == ("utf-8", "valid-utf-8")
    assert "Kupplungsset für Iveco" in text and "fÃ¼r" not in text
    before = decode_payload(page.raw(), "text/html", utf8_check=False)  # the order before the check
    assert before[1:] == ("cp1252", "detector") and "Kupplungsset fÃ¼r Iveco" in before[0]


@pytest.mark.parametrize("ctype,payload,reason", [
    ("image/png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "non_html"),
    ("text/plain", b"just some text", "non_html"),
    ("application/pdf", b"%PDF-1.4", "non_html"),
    ("text/html", b"   \n ", "empty_payload"),
    ("", b"\x00\x01\x02 binary with no markup", "non_html"),
    ("text/html", b"<html><body>" + bytes(range(128, 256)) * 2000 + b"\x00" * 50000, "decode_error"),
])
def test_non_html_empty_and_binary_payloads_are_counted_skips(ctype, payload, reason):
    step = Decode()
    out = run(step, [Document(id="d1", content_type=ctype, raw=payload)])
    assert out == []
    assert step.stats.counts[f"skipped.{reason}"] == 1
    assert step.stats.examples[f"skipped.{reason}"][0].startswith("d1")


def test_sniffed_html_without_content_type_is_kept():
    step = Decode()
    out = run(step, [Document(id="d", content_type="", raw=b"<!DOCTYPE html><html><body><p>x</p></body></html>")])
    assert len(out) == 1 and out[0].html.startswith("<!DOCTYPE")


def test_too_large_is_skipped_with_reason():
    step = Decode(max_bytes=1000)
    out = run(step, [Document(id="big", content_type="text/html", raw=b"<p>" + b"a" * 5000)])
    assert out == [] and step.stats.counts["skipped.too_large"] == 1


def test_an_ascii_payload_under_a_table_codec_is_decoded_by_the_ascii_codec_to_the_same_string():
    import random
    from encodings.aliases import aliases

    from preprocess.steps.decode import decode_as, decoding_table

    ascii_as_ascii = lambda n: (decoding_table(n) or "").startswith(bytes(range(128)).decode("ascii"))  # noqa: E731
    names = sorted(set(aliases.values()))
    taken = [n for n in names if ascii_as_ascii(n)]
    assert {"cp1252", "cp1250", "iso8859_2", "koi8_r"} <= set(taken)
    # not table codecs (stateful ISO-2022 reads ASCII escapes), or not ASCII in 0-127 (EBCDIC): the codec's decode
    assert not any(map(ascii_as_ascii, ("utf_8", "gbk", "shift_jis", "iso2022_jp", "cp037", "utf_16", "bogus")))
    rng = random.Random(5)
    every = bytes(range(128))
    pages = [every, b""] + [bytes(rng.randrange(128) for _ in range(rng.randrange(1, 300))) for _ in range(20)]
    for name in taken:
        for page in pages:
            assert decode_as(page, name) == page.decode(name)
    with pytest.raises(UnicodeDecodeError):
        decode_as(b"abc\x81", "cp1252")  # (undefined in cp1252: still strict)


@pytest.mark.skipif(decode.decode_table is None, reason="decode's compiled helpers are not built")
def test_the_compiled_table_decoder_gives_each_table_codecs_string_or_leaves_the_page_to_it():
    import random
    from encodings.aliases import aliases

    from preprocess.steps.decode import decode_as, decoding_table

    whatwg = ["ibm866", "koi8-r", "koi8-u", "macintosh", "x-mac-cyrillic", "windows-874"] + \
        [f"iso-8859-{i}" for i in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16)] + [f"windows-{i}" for i in range(1250, 1259)]
    labels = {decode._codec(label) for label in whatwg} - {None}  # (the single-byte labels a page can give)
    assert len(labels) >= 25
    names = sorted(n for n in set(aliases.values()) | labels if decoding_table(n))
    assert labels <= set(names) and decoding_table("utf_8") is None and decoding_table("gbk") is None
    rng = random.Random(7)
    pages = [bytes(range(256)), bytes(range(128, 256)), b"caf\xe9 \x80 \xff"] + \
        [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))) for _ in range(60)]
    for name in names:
        for page in pages:
            try:
                want = page.decode(name)
            except UnicodeDecodeError:  # an undefined byte: None, and decode_as raises as the codec does
                assert decode.decode_table(page, decoding_table(name)) is None
                with pytest.raises(UnicodeDecodeError):
                    decode_as(page, name)
                continue
            got = decode.decode_table(page, decoding_table(name))
            assert got == want and type(got) is str, name
            assert got.isascii() == want.isascii() and max(map(ord, got)) == max(map(ord, want))
