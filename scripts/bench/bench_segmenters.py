"""Benchmark sentence segmenters for webprune's per-line sentence scoring.

Run:  .venv/bin/python scripts/bench/bench_segmenters.py [--files 600]

Candidates: blingfire, sentencex, nupunkt, pysbd, syntok and a regex baseline.
Segmentation is applied PER LINE of resiliparse's extract_plain_text output
(a line is a block: paragraph, menu item, list item), so a menu item is never
glued to a paragraph.

Measures, per tool:
  * offline: runs in a child with no network namespace (``unshare -n`` when
    available), HF_HUB_OFFLINE=1 and an empty HOME / XDG dirs; it must segment
    and must not write anything (no download, no cache) there;
  * speed: lines/s and sentences/s per core, CPU time (time.process_time);
  * substrings: share of real lines whose output sentences (stripped) are exact
    substrings of the line, in order, covering all its non-space text;
  * accuracy on a hand-written gold set: exact-match per line and boundary F1
    (boundaries counted in non-whitespace characters, so tools that trim or
    collapse whitespace are not penalised for that);
  * robustness: a 1 MB line of minified JS (no spaces) and a 1 MB line of random
    words (no punctuation), each in a child with a 20 s timeout.

Prints a Markdown table.
"""
from __future__ import annotations

import argparse
import glob
import importlib.metadata as md
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROBUST_TIMEOUT = 20.0
TOOLS = ["regex", "blingfire", "blingfire+offsets", "sentencex", "sentencex+merge", "nupunkt", "pysbd",
         "syntok"]
PKG = {"regex": None, "blingfire": "blingfire", "blingfire+offsets": "blingfire",
       "sentencex": "sentencex", "sentencex+merge": "sentencex", "nupunkt": "nupunkt", "pysbd": "pysbd", "syntok": "syntok"}
# Where each package keeps its rules / model (checked to exist in the installed wheel).
RULES = {
    "blingfire": ("libblingfiretokdll.so", "built into native .so"),
    "sentencex": ("sentencex.cpython-*.so", "compiled into Rust .so"),
    "nupunkt": ("models/default_model.json.gz", "Punkt model .json.gz"),
    "pysbd": ("lang/english.py", "Python regex rules"),
    "syntok": ("_segmentation_states.py", "Python rules"),
}

# --------------------------------------------------------------------------- regex baseline

_ABBR = frozenset("""
dr mr mrs ms prof sr sra jr st mt lt col gen capt sgt rev gov sen rep hon
e.g i.e cf vs approx no nos fig figs tel vol pp ca ed eds dept est
jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k u.n
""".split())
_UPPER = "A-Z0-9À-ÖØ-ÞĀ-ſА-ЯЁΑ-Ω"
_CAND = re.compile(
    r"[.!?…]+[\"'”’»)\]]*(?=\s+[\"'“‘«(\[¿¡]*[" + _UPPER + r"])"  # Latin/Cyrillic/Greek
    r"|[。！？]+[」』”’）)]*(?=\S)"  # CJK: no space needed
)
_LAST_TOKEN = re.compile(r"(\S+)$")
_ENUM = re.compile(r"^(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,5})$")


def regex_split(line: str) -> list[str]:
    """Split after [.!?…。！？] (+ closing quotes/brackets) followed by whitespace and an
    uppercase letter, digit or opening quote; not after a listed abbreviation, a single
    letter (initials), or a list enumerator at the start of the line ("1. ", "b. ")."""
    out, start = [], 0
    for m in _CAND.finditer(line):
        punct = m.group().rstrip("\"'”’»)]」』）")
        if punct == ".":
            head = line[start:m.start()]
            t = _LAST_TOKEN.search(head)
            if t:
                tok = t.group(1).lstrip("\"'“‘«([").lower()
                if tok in _ABBR or (len(tok) == 1 and tok.isalpha()):
                    continue
                if t.start() == len(head) - len(head.lstrip()) and _ENUM.match(tok):
                    continue  # "1. Preheat the oven." at the start of the line
        s = line[start:m.end()].strip()
        if s:
            out.append(s)
        start = m.end()
    s = line[start:].strip()
    if s:
        out.append(s)
    return out


from preprocess.core.segment import _CJK_END, merge_pieces  # noqa: E402  (webprune's own segmenter repair)
from webprune.benchdata import cleaning_pages  # noqa: E402


# --------------------------------------------------------------------------- tool wrappers

def make_splitter(tool: str, lang: str = "en"):
    """Return f(line) -> list[str] for a tool (models/segmenters built once here)."""
    if tool == "regex":
        return regex_split
    if tool == "blingfire":
        import blingfire

        def f(line):
            return blingfire.text_to_sentences(line).split("\n")
        return f
    if tool == "blingfire+offsets":
        import blingfire

        def f(line):
            _, spans = blingfire.text_to_sentences_and_offsets(line)
            return [line[a:b] for a, b in spans]
        return f
    if tool == "sentencex":
        import sentencex

        def f(line):
            return list(sentencex.segment(lang, line))
        return f
    if tool == "sentencex+merge":
        import sentencex

        def f(line):
            return merge_pieces(sentencex.segment(lang, line))
        return f
    if tool == "nupunkt":
        import nupunkt
        tok = nupunkt.load("default")
        return tok.tokenize
    if tool == "pysbd":
        import pysbd
        seg = pysbd.Segmenter(language=lang, clean=False)
        return seg.segment
    if tool == "syntok":
        import syntok.segmenter as ss

        def f(line):
            res = []
            for para in ss.analyze(line):
                for sent in para:
                    a = sent[0].offset
                    b = sent[-1].offset + len(sent[-1].value)
                    res.append(line[a:b])
            return res
        return f
    raise ValueError(tool)


def version(tool: str) -> str:
    if PKG[tool] is None:
        return "-"
    return md.version(PKG[tool])


# --------------------------------------------------------------------------- gold set

_LONG = " ".join(
    ("the quick brown fox jumps over the lazy dog while our team of experts reviews every "
     "product in the catalogue and selects the best deals for you and your family every "
     "single day of the year").split() * 4)

# (line, expected sentences). English first, then non-English (marked by a lang code).
GOLD: list[tuple[str, list[str], str]] = [(a, b, "en") for a, b in [
    ("Dr. Smith arrived at noon. He was late.", ["Dr. Smith arrived at noon.", "He was late."]),
    ("The price is $4.99 per item. That is cheap.", ["The price is $4.99 per item.", "That is cheap."]),
    ("Growth was 3.5 percent in 2004. Analysts expected more.",
     ["Growth was 3.5 percent in 2004.", "Analysts expected more."]),
    ("Use tools, e.g. hammers and saws, for this job. Be careful.",
     ["Use tools, e.g. hammers and saws, for this job.", "Be careful."]),
    ("The U.S. economy grew fast. Europe lagged behind.",
     ["The U.S. economy grew fast.", "Europe lagged behind."]),
    ("Apple Inc. reported record profits. Shares rose 5%.",
     ["Apple Inc. reported record profits.", "Shares rose 5%."]),
    ("The meeting is on Jan. 15 at the main office.", ["The meeting is on Jan. 15 at the main office."]),
    ("Visit www.example.com for details. Call us today!",
     ["Visit www.example.com for details.", "Call us today!"]),
    ("Email john.doe@example.org with questions. We reply fast.",
     ["Email john.doe@example.org with questions.", "We reply fast."]),
    ("See https://example.com/docs/index.html?id=3.2 for more.",
     ["See https://example.com/docs/index.html?id=3.2 for more."]),
    ("Wait for it... The results are in.", ["Wait for it...", "The results are in."]),
    ('He said "Stop." Then he left.', ['He said "Stop."', "Then he left."]),
    ("(This is a bracketed sentence.) This one is not.",
     ["(This is a bracketed sentence.)", "This one is not."]),
    ("1. Preheat the oven to 180 degrees.", ["1. Preheat the oven to 180 degrees."]),
    ("2. Mix the flour and sugar. Add the eggs slowly.",
     ["2. Mix the flour and sugar.", "Add the eggs slowly."]),
    ("Contact Us", ["Contact Us"]),
    ("Home About Products Contact", ["Home About Products Contact"]),
    ("Posted by admin on March 3, 2005 at 10:45 am", ["Posted by admin on March 3, 2005 at 10:45 am"]),
    ("WELCOME TO OUR WEBSITE. PLEASE SIGN IN.", ["WELCOME TO OUR WEBSITE.", "PLEASE SIGN IN."]),
    ("This is the first sentence. This is the second. And this is the third.",
     ["This is the first sentence.", "This is the second.", "And this is the third."]),
    ("Is it working? Yes! It works.", ["Is it working?", "Yes!", "It works."]),
    (_LONG, [_LONG]),
    ("Mr. and Mrs. Jones live on Baker St. near the park.",
     ["Mr. and Mrs. Jones live on Baker St. near the park."]),
    ("Prof. Brown teaches at MIT. She joined in 1999.", ["Prof. Brown teaches at MIT.", "She joined in 1999."]),
    ("The temperature dropped to -2.5 degrees overnight.", ["The temperature dropped to -2.5 degrees overnight."]),
    ("Version 2.0.1 was released yesterday. Please upgrade.",
     ["Version 2.0.1 was released yesterday.", "Please upgrade."]),
    ("It costs approx. 20 dollars, i.e. a bargain.", ["It costs approx. 20 dollars, i.e. a bargain."]),
    ("J. R. R. Tolkien wrote The Hobbit. It was published in 1937.",
     ["J. R. R. Tolkien wrote The Hobbit.", "It was published in 1937."]),
    ("Copyright © 2005 Example Corp. All rights reserved.",
     ["Copyright © 2005 Example Corp.", "All rights reserved."]),
    ("Read more »", ["Read more »"]),
    ("The vote was 52 vs. 48 in favor.", ["The vote was 52 vs. 48 in favor."]),
    ("She works at Acme Co. in Boston.", ["She works at Acme Co. in Boston."]),
    ("He arrived at 5 p.m. and left at 9 p.m. on Friday.", ["He arrived at 5 p.m. and left at 9 p.m. on Friday."]),
    ("Sales rose 12% in Q3. Profits fell.", ["Sales rose 12% in Q3.", "Profits fell."]),
    ("What a day! We won the game.", ["What a day!", "We won the game."]),
    ("Click here to download the file (PDF, 2.3 MB).", ["Click here to download the file (PDF, 2.3 MB)."]),
    ("The file is named report.final.v2.docx and is ready.",
     ["The file is named report.final.v2.docx and is ready."]),
    ("As Fig. 3 shows, the results are stable.", ["As Fig. 3 shows, the results are stable."]),
    ("No. 5 is my favorite number.", ["No. 5 is my favorite number."]),
    ('"Where are you going?" she asked.', ['"Where are you going?" she asked.']),
    ("I love it… Don't you?", ["I love it…", "Don't you?"]),
    ("The U.S. Army base is located in Germany.", ["The U.S. Army base is located in Germany."]),
    ("Tel. 555-1234 or fax 555-5678.", ["Tel. 555-1234 or fax 555-5678."]),
    ("The quick brown fox ran. 2005 was a good year.", ["The quick brown fox ran.", "2005 was a good year."]),
    ("Results: see Table 2. The data are clear.", ["Results: see Table 2.", "The data are clear."]),
    ("Lt. Col. Davis led the troops.", ["Lt. Col. Davis led the troops."]),
    ("Born Sept. 9, 1941, he grew up in Ohio. He died in 2011.",
     ["Born Sept. 9, 1941, he grew up in Ohio.", "He died in 2011."]),
    ("LATEST NEWS", ["LATEST NEWS"]),
    ("Last updated: 12.03.2005", ["Last updated: 12.03.2005"]),
    ("St. Louis is a city in Missouri. It is on the Mississippi.",
     ["St. Louis is a city in Missouri.", "It is on the Mississippi."]),
    # added after the regex baseline was written (not tuned for):
    ("He moved to the U.S. He liked it there.", ["He moved to the U.S.", "He liked it there."]),
    ("Apple Inc. CEO Tim Cook spoke on Monday.", ["Apple Inc. CEO Tim Cook spoke on Monday."]),
    ("It was great!!! See you next year.", ["It was great!!!", "See you next year."]),
    ("Terms of Use | Privacy Policy | Site Map", ["Terms of Use | Privacy Policy | Site Map"]),
    ("Price: $4.99. Free shipping on orders over $50.",
     ["Price: $4.99.", "Free shipping on orders over $50."]),
    ("Call 1-800-555-0199 today. Offer ends Dec. 31.", ["Call 1-800-555-0199 today.", "Offer ends Dec. 31."]),
    ("A. Introduction", ["A. Introduction"]),
    ("The score was 3-1. Fans cheered.", ["The score was 3-1.", "Fans cheered."]),
    ('She said, "It is done." Then she left.', ['She said, "It is done."', "Then she left."]),
    ("See section 4.2. It explains everything.", ["See section 4.2.", "It explains everything."]),
    ("He earned a Ph.D. in physics. Then he taught.", ["He earned a Ph.D. in physics.", "Then he taught."]),
    ("They met at 10 a.m. The talks lasted hours.", ["They met at 10 a.m.", "The talks lasted hours."]),
    ("Download it from http://www.Example.com/Files/Setup.exe today.",
     ["Download it from http://www.Example.com/Files/Setup.exe today."]),
    ("What?! No way.", ["What?!", "No way."]),
]] + [
    ("Herr Dr. Müller kam um 10 Uhr an. Er war z. B. sehr pünktlich.",
     ["Herr Dr. Müller kam um 10 Uhr an.", "Er war z. B. sehr pünktlich."], "de"),
    ("Le prix est de 3,50 €. C'est très cher ! Pourquoi ?",
     ["Le prix est de 3,50 €.", "C'est très cher !", "Pourquoi ?"], "fr"),
    ("¿Dónde está el Sr. García? No lo sé. ¡Qué pena!",
     ["¿Dónde está el Sr. García?", "No lo sé.", "¡Qué pena!"], "es"),
    ("今日は晴れです。明日は雨が降るでしょう。", ["今日は晴れです。", "明日は雨が降るでしょう。"], "ja"),
    ("我们今天去公园。你想一起去吗？好的！", ["我们今天去公园。", "你想一起去吗？", "好的！"], "zh"),
    ("Он живёт в США. Его зовут Иван Петрович.", ["Он живёт в США.", "Его зовут Иван Петрович."], "ru"),
]


def _norm(sents: list[str]) -> list[str]:
    return [" ".join(s.split()) for s in sents if s.strip()]


def _bounds(sents: list[str]) -> set[int]:
    """Sentence ends (except the last) in non-whitespace characters from line start."""
    out, n = set(), 0
    for s in sents[:-1]:
        n += len("".join(s.split()))
        out.add(n)
    return out


def eval_gold(split, cases) -> tuple[int, int, float, list]:
    exact, tp, fp, fn, errs = 0, 0, 0, 0, []
    for line, gold, _ in cases:
        try:
            got = _norm(split(line))
        except Exception as e:  # noqa: BLE001
            got = [f"<{type(e).__name__}>"]
        if got == _norm(gold):
            exact += 1
        else:
            errs.append((line, got))
        g, p = _bounds(_norm(gold)), _bounds(got)
        tp += len(g & p)
        fp += len(p - g)
        fn += len(g - p)
    prec = tp / (tp + fp) if tp + fp else 1.0
    rec = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return exact, len(cases), f1, errs


# --------------------------------------------------------------------------- corpus

def load_lines(n_files: int) -> tuple[list[str], int]:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    from resiliparse.parse.html import HTMLTree

    files = [str(p) for p in cleaning_pages()][:n_files]
    lines: list[str] = []
    for path in files:
        with open(path, "rb") as fh:
            b = fh.read()
        text = extract_plain_text(
            HTMLTree.parse(bytes_to_str(b, detect_encoding(b))), preserve_formatting=True,
            list_bullets=False, alt_texts=False, links=False, form_fields=False, noscript=False)
        lines.extend(ln for ln in text.split("\n") if ln.strip())
    return lines, len(files)


def is_exact_substring_split(line: str, sents: list[str]) -> bool:
    """Every stripped sentence occurs in `line` in order, and together they keep all the
    line's non-whitespace characters (nothing changed, dropped or added)."""
    pos, kept = 0, 0
    for s in sents:
        s = s.strip()
        if not s:
            continue
        i = line.find(s, pos)
        if i < 0:
            return False
        pos = i + len(s)
        kept += len("".join(s.split()))
    return kept == len("".join(line.split()))


def count_nospace_splits(line: str, sents: list[str]) -> int:
    """Boundaries where the next sentence starts right after a non-space character
    ("www.Example.com", "hi.There"), excluding CJK sentence punctuation."""
    n, pos = 0, 0
    sents = [s.strip() for s in sents if s.strip()]
    for s in sents[1:]:
        i = line.find(s, pos)
        if i < 0:
            continue
        if i > 0 and not line[i - 1].isspace() and line[i - 1] not in _CJK_END:
            n += 1
        pos = i
    return n


def bench_speed(split, lines: list[str]) -> tuple[float, int, list]:
    """CPU seconds (best of up to 3 passes for fast tools), sentence count, outputs."""
    best, outs = None, None
    for _ in range(3):
        t0 = time.process_time()
        res = [split(ln) for ln in lines]
        dt = time.process_time() - t0
        if best is None or dt < best:
            best, outs = dt, res
        if dt > 3.0:
            break
    n_sent = sum(1 for r in outs for s in r if s.strip())
    return best, n_sent, outs


# --------------------------------------------------------------------------- robustness (child)

def robust_text(kind: str, size: int = 1 << 20) -> str:
    rnd = random.Random(42)
    if kind == "minified":
        ids = ["a", "b", "e", "n", "t", "Math", "window", "document", "getElementById", "JSON",
               "prototype", "length", "push", "Object", "x1", "_0x3f", "$", "Array", "Date"]
        ops = [".", ".", ".", "(", ")", "{", "}", ";", "=", ",", "!", "?", ":", "+", "&&", "||",
               "[", "]", '"', "'", "0.5", "1e3", "/"]
        parts, n = [], 0
        while n < size:
            p = rnd.choice(ids) + rnd.choice(ops)
            parts.append(p)
            n += len(p)
        return "".join(parts)[:size]
    if kind == "words":
        vocab = ["the", "of", "and", "news", "home", "Contact", "Us", "login", "search", "page",
                 "London", "price", "free", "shipping", "more", "about", "Privacy", "Policy",
                 "archive", "comments", "share", "posted", "by", "admin", "January"]
        parts, n = [], 0
        while n < size:
            w = rnd.choice(vocab)
            parts.append(w)
            n += len(w) + 1
        return " ".join(parts)[:size]
    raise ValueError(kind)


def child_robust(tool: str, kind: str) -> None:
    split = make_splitter(tool)
    text = robust_text(kind)
    split("Warm up. Now.")
    t0 = time.process_time()
    out = split(text)
    dt = time.process_time() - t0
    kept = sum(len("".join(s.split())) for s in out)
    print(json.dumps({"cpu": dt, "n": len([s for s in out if s.strip()]),
                      "kept": kept / max(1, len("".join(text.split())))}))


def run_robust(tool: str, kind: str) -> str:
    cmd = [sys.executable, os.path.abspath(__file__), "--child-robust", tool, kind]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=ROBUST_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "TIMEOUT"
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["?"])[-1]
        return f"CRASH ({last[:40]})"
    r = json.loads(p.stdout.strip().splitlines()[-1])
    cell = f"{r['cpu']:.2f}"
    if abs(r["kept"] - 1.0) > 0.01:
        cell += f" (kept {r['kept']:.0%} of text!)"
    return cell


# --------------------------------------------------------------------------- offline (child)

def child_offline(tool: str) -> None:
    split = make_splitter(tool)
    out = split("Dr. Smith paid $4.99. He left.")
    assert len([s for s in out if s.strip()]) >= 1, out
    print("OK")


def run_offline(tool: str) -> str:
    home = tempfile.mkdtemp(prefix="segoffline-")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
           "XDG_CACHE_HOME": os.path.join(home, "cache"), "XDG_DATA_HOME": os.path.join(home, "data"),
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "NO_PROXY": "*", "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, os.path.abspath(__file__), "--child-offline", tool]
    nonet = shutil.which("unshare") and subprocess.run(
        ["unshare", "-n", "true"], capture_output=True).returncode == 0
    if nonet:
        cmd = ["unshare", "-n"] + cmd
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=home)
        written = [os.path.join(d, f) for d, _, fs in os.walk(home) for f in fs]
        ok = p.returncode == 0 and p.stdout.strip().endswith("OK") and not written
        res = ("yes" if ok else "NO") + ("" if nonet else " (net not cut)")
        if written:
            res += f" (wrote {written[0]})"
        return res
    finally:
        shutil.rmtree(home, ignore_errors=True)


def shipped(tool: str) -> str:
    name = PKG[tool]
    if name is None:
        return "in script"
    import importlib.util
    pkg_dir = os.path.dirname(importlib.util.find_spec(name).origin)
    pattern, what = RULES[name]
    hits = glob.glob(os.path.join(pkg_dir, pattern))
    if not hits:
        return f"NOT FOUND: {pattern}"
    kb = os.path.getsize(hits[0]) / 1024
    return f"{what} ({os.path.basename(hits[0])}, {kb:,.0f} KB)"


# --------------------------------------------------------------------------- main

def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=600)
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--child-robust", nargs=2, metavar=("TOOL", "KIND"))
    ap.add_argument("--child-offline", metavar="TOOL")
    ap.add_argument("--errors", action="store_true", help="print every gold-set miss")
    a = ap.parse_args()
    if a.child_robust:
        return child_robust(*a.child_robust)
    if a.child_offline:
        return child_offline(a.child_offline)

    tools = a.tools.split(",")
    t0 = time.process_time()
    lines, n_docs = load_lines(a.files)
    n_chars = sum(map(len, lines))
    print(f"input: {n_docs} pages -> {len(lines):,} non-empty lines ({len(lines) / n_docs:.0f}/page), "
          f"{n_chars / 1e6:.1f} M chars; extraction {time.process_time() - t0:.1f} s CPU", flush=True)
    en = [c for c in GOLD if c[2] == "en"]
    xx = [c for c in GOLD if c[2] != "en"]
    print(f"gold set: {len(en)} English + {len(xx)} non-English lines "
          f"({sum(len(c[1]) for c in GOLD)} sentences)\n", flush=True)

    rows, notes = [], []
    for tool in tools:
        split = make_splitter(tool)
        split("Warm up. Now.")
        cpu, n_sent, outs = bench_speed(split, lines)
        substr = sum(is_exact_substring_split(ln, o) for ln, o in zip(lines, outs)) / len(lines)
        nospace = sum(count_nospace_splits(ln, o) for ln, o in zip(lines, outs))
        bad = [(ln, o) for ln, o in zip(lines, outs) if not is_exact_substring_split(ln, o)][:2]
        ex, n, f1, errs = eval_gold(split, GOLD)
        ex_en, _, _, _ = eval_gold(split, en)
        ex_xx, _, _, _ = eval_gold(split, xx)
        lang_note = ""
        if tool in ("sentencex", "pysbd"):
            got = 0
            for c in xx:
                try:
                    got += eval_gold(make_splitter(tool, c[2]), [c])[0]
                except Exception:  # noqa: BLE001
                    pass
            lang_note = f" ({got}/{len(xx)} with lang code)"
        row = {
            "tool": tool, "version": version(tool), "offline": run_offline(tool),
            "lps": len(lines) / cpu, "sps": n_sent / cpu, "msdoc": 1000 * cpu / n_docs,
            "exact": 100 * ex / n, "exact_en": f"{ex_en}/{len(en)}", "exact_xx": f"{ex_xx}/{len(xx)}{lang_note}",
            "f1": f1, "substr": 100 * substr, "nospace": 10000 * nospace / len(lines),
            "min": run_robust(tool, "minified"), "words": run_robust(tool, "words"),
            "ships": shipped(tool),
        }
        rows.append(row)
        print(f"[{tool}] {cpu:.2f} s CPU, {n_sent:,} sentences, exact {ex}/{n}, F1 {f1:.3f}, "
              f"substr {100 * substr:.2f}%, 1MB min {row['min']}, 1MB words {row['words']}", flush=True)
        if bad:
            notes.append(f"- {tool}: non-substring example: {bad[0][0][:70]!r} -> {[s[:40] for s in bad[0][1]][:3]!r}")
        for line, got in (errs if a.errors else []):
            print(f"    miss: {line[:70]!r} -> {got!r}")

    print("\n| tool | version | offline-ok | lines/s/core | sentences/s/core | ms/page | exact-match % "
          "| EN exact | non-EN exact | boundary F1 | exact-substr % | no-space splits /10k lines | 1MB-minified s | 1MB-words s |")
    print("|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---|")
    for r in rows:
        print(f"| {r['tool']} | {r['version']} | {r['offline']} | {r['lps']:,.0f} | {r['sps']:,.0f} | "
              f"{r['msdoc']:.3f} | {r['exact']:.1f} | {r['exact_en']} | {r['exact_xx']} | {r['f1']:.3f} | "
              f"{r['substr']:.2f} | {r['nospace']:.0f} | {r['min']} | {r['words']} |")
    print("\n| tool | rules/model shipped in the wheel |\n|---|---|")
    for r in rows:
        print(f"| {r['tool']} | {r['ships']} |")
    print("\nexact-substr % = share of real lines whose sentences (stripped) are exact, in-order "
          "substrings of the line and keep all its non-space text. non-EN exact is with the "
          "default/English setting; no-space splits = boundaries not followed by whitespace "
          "(e.g. www.Example.com), per 10k real lines; robustness cells are CPU s of one call (child, 20 s wall cap).")
    if notes:
        print("\n" + "\n".join(notes))


if __name__ == "__main__":
    main()
