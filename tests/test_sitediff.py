"""The sitediff cleaner (Baisa's multiple-file mode): template text removed per host, Ray host routing."""
import collections
import json

import pytest

from eval.cleaning_gold import gold_pages, page_url
from eval.cleaning_score import word_prf
from preprocess.cleaners.sitediff import template_lines
from preprocess.document import Document
from preprocess.pipeline import CleanOptions, Pipeline
from preprocess.run import run_preprocess
from tests.conftest import shared
from webprune.warcpack import pack_pages

NAV = '<div id="nav"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>'
FOOT = '<div id="foot"><p>Copyright 2024 Daily Example. All rights reserved.</p><p>Contact us: desk@example.org</p></div>'
RELATED = '<div id="rel"><h3>Most read</h3><p>Council approves new budget</p><p>Storm closes schools</p></div>'


def story(n: int, words: int = 40) -> bytes:
    body = " ".join(f"story{n} sentence{i} about topic{n}." for i in range(words))
    return (f"<html><head><title>Story {n}</title></head><body>{NAV}<h1>Headline number {n}</h1>"
            f"<p>{body}</p><p>Second paragraph of story {n} with more words.</p>{RELATED}{FOOT}</body></html>").encode()


def docs(pages):
    return [Document(id=f"d{i}", url=url, content_type="text/html", raw=raw) for i, (url, raw) in enumerate(pages)]


def lines_of(out):
    return {o["id"]: o["contents"].split("\n") for o in out}


def test_template_lines_align_in_order():
    page = ["Home", "Headline A", "text a", "Most read", "Copyright"]
    ref = ["Home", "Headline B", "text b", "Most read", "Copyright"]
    assert template_lines(page, ref) == {0, 3, 4}
    # an identical line out of order does not align with everything around it
    assert template_lines(["Copyright", "x", "Home"], ["Home", "y", "Copyright"]) in ({0}, {2})
    assert template_lines([], ref) == set()


def test_template_text_is_removed_and_content_kept():
    pages = [(f"http://news.example.org/{n}", story(n, words=10 + 10 * n)) for n in range(5)]
    out, stats = Pipeline(CleanOptions(cleaner="sitediff")).process(docs(pages))
    assert len(out) == 5
    for n, lines in enumerate(lines_of(out).values()):
        assert lines[0] == f"Story {n}" and f"Headline number {n}." in lines  # Kitten ends every block
        assert any(l.startswith(f"story{n} sentence0") for l in lines)
        for template in ("Home News Sport", "Most read", "Storm closes schools", "Contact us: desk@example.org"):
            assert not any(template in l for l in lines), (n, template, lines)
    assert stats.counts["sitediff.template_lines_removed"] == 5 * 6
    assert stats.counts["sitediff.hosts"] == 1
    tags, _ = Pipeline(CleanOptions(cleaner="tags")).process(docs(pages))
    assert "Most read" in tags[0]["contents"]  # tag removal alone keeps the template


def test_lone_pages_other_templates_and_no_host_fall_back_to_density():
    other = (b"<html><body><div class=menu><ul><li><a href=/>Start</a></li><li><a href=/x>Shop</a></li></ul></div>"
             b"<div class=content><p>" + b"A page in a completely different layout with its own long text. " * 20 +
             b"</p></div></body></html>")
    pages = [(f"http://news.example.org/{n}", story(n)) for n in range(3)]
    pages += [("http://news.example.org/shop", other), ("http://lone.example.com/a", story(9)), ("", story(8))]
    out, stats = Pipeline(CleanOptions(cleaner="sitediff")).process(docs(pages))
    assert stats.counts["sitediff.fallback.structure_differs"] == 1
    assert stats.counts["sitediff.fallback.first_page"] == 1
    assert stats.counts["sitediff.fallback.no_host"] == 1
    assert len(out) == 6 and not stats.group("failed")
    shop = lines_of(out)["d3"]
    assert "Start" not in shop and any("completely different layout" in l for l in shop)  # density took the content


def test_reference_persists_across_batches_per_host():
    pipe = Pipeline(CleanOptions(cleaner="sitediff"))
    pipe.process(docs([(f"http://a.example/{n}", story(n)) for n in range(3)]))
    out, stats = pipe.process(docs([("http://a.example/later", story(7))]))  # alone now, but the host is known
    assert "Most read" not in out[0]["contents"] and stats.counts["sitediff.template_lines_removed"] == 6
    assert "sitediff.fallback.first_page" not in stats.counts
    pipe.reset()  # references forgotten: the host's next lone page is its first again
    out, stats = pipe.process(docs([("http://a.example/again", story(8))]))
    assert stats.counts["sitediff.fallback.first_page"] == 1


@pytest.mark.slow
def test_ray_routes_hosts_to_one_worker_and_matches_local(tmp_path):
    pages = []
    for n in range(12):  # two hosts interleaved, as in a crawl
        host = "a.example.org" if n % 2 else "b.example.net"
        pages.append((f"doc-{n}", f"http://{host}/p{n}", story(n)))
    warc = tmp_path / "in.warc.gz"
    pack_pages(pages, warc)
    opts = dict(opts=CleanOptions(cleaner="sitediff"), progress=False, batch_size=4, host_window=5)
    local = run_preprocess([str(warc)], tmp_path / "local", executor="local", **opts)
    ray_ = run_preprocess([str(warc)], tmp_path / "ray", workers=2, **opts)

    def lines(out):
        return sorted(l for f in sorted((out / "collection").glob("*.jsonl")) for l in f.read_text().splitlines())

    assert lines(tmp_path / "local") == lines(tmp_path / "ray")
    assert local["written"] == ray_["written"] == 12 and not ray_["unaccounted"]
    texts = [json.loads(l)["contents"] for l in lines(tmp_path / "ray")]
    assert not any("Most read" in t for t in texts[2:])
    # windows of 5 records: each host's reference is made once and reused by its worker later
    assert ray_["counters"]["sitediff.hosts"] == local["counters"]["sitediff.hosts"] == 2, ray_["counters"]


def test_sitediff_beats_tags_and_density_on_real_news_portals():
    pages = list(gold_pages(shared(), ["cleanportaleval"]))  # 71 pages from 4 hosts
    groups = collections.defaultdict(list)
    for p in pages:
        groups[page_url(p.input.read_bytes())].append(p)
    f1 = {}
    for cleaner in ("tags", "density", "sitediff"):
        pipe, scores = Pipeline(CleanOptions(cleaner=cleaner)), []
        by_host = collections.defaultdict(list)
        for p in pages:
            raw = p.input.read_bytes()
            by_host[Document(id="", url=page_url(raw)).host].append(
                (p, Document(id=p.name, url=page_url(raw), content_type="text/html", raw=raw)))
        for group in by_host.values():
            out = lines_of(pipe.process([d for _, d in group])[0])
            scores += [word_prf("\n".join(out.get(p.name, [])), p.gold_text())["f1"] for p, _ in group]
        f1[cleaner] = sum(scores) / len(scores)
    assert f1["sitediff"] > f1["density"] + 0.03 and f1["sitediff"] > f1["tags"] + 0.1, f1
