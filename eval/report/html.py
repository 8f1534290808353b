"""Markdown to one self-contained HTML page: markdown-it with tables, plots embedded as data URIs."""
from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from markdown_it import MarkdownIt

CSS = """
body { font: 15px/1.45 "DejaVu Sans", system-ui, sans-serif; color: #1d232b; max-width: 1320px;
       margin: 24px auto; padding: 0 24px; }
h1 { font-size: 1.6em; border-bottom: 2px solid #3b6ea8; padding-bottom: .2em; }
h2 { font-size: 1.3em; margin-top: 1.8em; border-bottom: 1px solid #d4d9e0; padding-bottom: .15em; }
h3 { font-size: 1.08em; margin-top: 1.4em; }
table { border-collapse: collapse; margin: .8em 0; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #d4d9e0; padding: 4px 9px; white-space: nowrap; }
th { background: #eef2f7; }
tr:nth-child(even) td { background: #f8f9fb; }
.table { overflow-x: auto; }
p { max-width: 1100px; }
img { max-width: 100%; display: block; margin: 1em 0; border: 1px solid #e3e6ea; }
code { background: #f1f3f5; padding: 0 3px; border-radius: 3px; font-size: .92em; }
"""


def _embed(body: str, base: Path) -> str:
    def sub(m):
        path = base / html.unescape(m.group(1))
        if not path.is_file():
            return m.group(0)
        return f'src="data:image/png;base64,{base64.b64encode(path.read_bytes()).decode()}"'

    return re.sub(r'src="([^"]+\.png)"', sub, body)


def to_html(markdown: str, base: Path, title: str) -> str:
    body = MarkdownIt("commonmark").enable("table").render(markdown)
    body = body.replace("<table>", '<div class="table"><table>').replace("</table>", "</table></div>")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{CSS}</style></head><body>\n{_embed(body, base)}</body></html>\n")
