"""What a payload is, by its first bytes: a PDF, an image or an archive served as ``text/html`` is not a page.

Magic numbers as the WHATWG MIME sniffing standard and file(1) list them; a format is named only when its
signature stands at the start of the payload (PDF: after leading white space, as readers allow).
"""
from __future__ import annotations

_MAGIC = (
    (b"%PDF-", "pdf"), (b"\x1f\x8b\x08", "gzip"), (b"PK\x03\x04", "zip"), (b"\x89PNG\r\n\x1a\n", "png"),
    (b"GIF87a", "gif"), (b"GIF89a", "gif"), (b"\xff\xd8\xff", "jpeg"), (b"OggS\x00", "ogg"), (b"ID3", "mp3"),
    (b"%!PS", "postscript"), (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ms-office"), (b"{\\rtf", "rtf"),
    (b"\x7fELF", "elf"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"Rar!\x1a\x07", "rar"), (b"wOFF", "woff"), (b"wOF2", "woff2"), (b"\x00\x01\x00\x00\x00", "ttf"),
    (b"OTTO", "otf"), (b"FWS", "swf"), (b"CWS", "swf"), (b"ZWS", "swf"), (b"\x1aE\xdf\xa3", "matroska"),
    (b"fLaC", "flac"), (b"\xca\xfe\xba\xbe", "java-class"), (b"(\xb5/\xfd", "zstd"), (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"), (b"\x00\x00\x01\x00", "ico"), (b"\x00asm", "wasm"), (b"SQLite format 3\x00", "sqlite"),
)

_MAGICS = tuple(magic for magic, _ in _MAGIC)


def binary_kind(payload: bytes) -> str | None:
    """The binary format the payload starts with, or None."""
    head = payload[:64]
    if head.startswith(_MAGICS):  # (one test for the table; the loop names the first that matches)
        for magic, kind in _MAGIC:
            if head.startswith(magic):
                return kind
    if head[4:8] == b"ftyp":
        return "mp4"
    if head[:4] == b"RIFF" and head[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return head[8:12].decode().strip().lower()
    if head[:2] == b"MZ" and b"\x00" in head:
        return "exe"
    if head.lstrip(b" \t\r\n\x0c").startswith(b"%PDF-"):
        return "pdf"
    return None


def looks_utf16(payload: bytes) -> bool:
    """Whether bytes without a byte-order mark can be UTF-16: markup is ASCII, so every other byte is NUL."""
    head = payload[:4096]
    return len(head) >= 2 and head.count(b"\x00") >= len(head) // 5
