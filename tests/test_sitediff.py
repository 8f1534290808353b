"""The sitediff cleaner (Baisa's multiple-file mode): template text removed per host, references learned."""
import collections
import json

import pytest

from eval.cleaning.gold import gold_pages, page_url
from eval.cleaning.score import word_prf
from preprocess.cleaners.sitediff import template_lines
from preprocess.core.document import Document
from preprocess.learning.engine import learn_in_process
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from preprocess.driver.preprocess import run_preprocess
from tests.conftest import local_run, shared
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


def clean(opts: CleanOptions, documents):
    """A host's pages cleaned as a run cleans them: the learning pass first, then the pipeline."""
    return Pipeline(opts, learn_in_process(opts, documents)).process(documents)


def test_template_text_is_removed_and_content_kept():
    pages = [(f"http://news.example.org/{n}", story(n, words=10 + 10 * n)) for n in range(5)]
    out, stats = clean(CleanOptions(cleaner="sitediff"), docs(pages))
    assert len(out) == 5
    for n, lines in enumerate(lines_of(out).values()):
        assert lines[0] == f"Story {n}" and f"Headline number {n}." in lines  # Kitten ends every block
        assert any(l.startswith(f"story{n} sentence0") for l in lines)
        for template in ("Home News Sport", "Most read", "Storm closes schools", "Contact us: desk@example.org"):
            assert not any(template in l for l in lines), (n, template, lines)
    assert stats.counts["sitediff.template_lines_removed"] == 5 * 6
    tags, _ = Pipeline(CleanOptions(cleaner="tags")).process(docs(pages))
    assert "Most read" in tags[0]["contents"]  # tag removal alone keeps the template


def test_lone_pages_other_templates_and_no_host_fall_back_to_density():
    other = (b"<html><body><div class=menu><ul><li><a href=/>Start</a></li><li><a href=/x>Shop</a></li></ul></div>"
             b"<div class=content><p>" + b"A page in a completely different layout with its own long text. " * 20 +
             b"</p></div></body></html>")
    pages = [(f"http://news.example.org/{n}", story(n)) for n in range(3)]
    pages += [("http://news.example.org/shop", other), ("http://lone.example.com/a", story(9)), ("", story(8))]
    out, stats = clean(CleanOptions(cleaner="sitediff"), docs(pages))
    assert stats.counts["sitediff.fallback.structure_differs"] == 1
    assert stats.counts["sitediff.fallback.single_page"] == 1  # a host with one page has no reference
    assert stats.counts["sitediff.fallback.no_host"] == 1
    assert len(out) == 6 and not stats.group("failed")
    shop = lines_of(out)["d3"]
    assert "Start" not in shop and any("completely different layout" in l for l in shop)  # density took the content


def test_reference_is_the_median_page_of_a_bounded_sample_chosen_by_id():
    from preprocess.cleaners.sitediff import SiteReferences, rank
    from preprocess.learning.worker import pass_docs

    def pages():  # fresh documents each time: cleaning consumes a document's bytes
        return docs([(f"http://a.example/{n}", story(n, words=5 + n)) for n in range(12)])

    learner = SiteReferences(CleanOptions(cleaner="sitediff"))
    learner.sample_per_host = 5
    def handed(read):  # as the engine hands them: the sampled pages, cleaned as far as sitediff
        return pass_docs(learner, 0, None, read, learn_in_process(CleanOptions(), []))

    part = learner.map_docs(0, handed(pages), None)
    sample = part["a.example"]
    assert len(sample) == 5  # bounded per host, whatever the crawl
    assert sorted(c[2] for c in sample) == sorted(sorted((d.id for d in pages()), key=rank)[:5])
    ref = learner.reduce(0, [part], None)["refs"]["a.example"]
    by_size = sorted(sample, key=lambda c: (c[1], c[0]))
    assert ref["ref_id"] == by_size[2][2] and ref["alt"] == by_size[1][3]
    # split in two parts (two input files, two workers), the reference is the same
    halves = [learner.map_docs(0, handed(lambda: pages()[:7]), None),
              learner.map_docs(0, handed(lambda: pages()[7:]), None)]
    assert learner.reduce(0, halves, None)["refs"]["a.example"] == ref


@pytest.mark.slow
def test_ray_workers_and_input_splits_give_the_same_output_as_one_local_process(tmp_path):
    pages = []
    for n in range(12):  # two hosts interleaved, as in a crawl
        host = "a.example.org" if n % 2 else "b.example.net"
        pages.append((f"doc-{n}", f"http://{host}/p{n}", story(n)))
    pack_pages(pages, tmp_path / "one" / "in.warc.gz")
    pack_pages(pages[:5], tmp_path / "split" / "a.warc.gz")
    pack_pages(pages[5:], tmp_path / "split" / "b.warc.gz")
    opts = CleanOptions(cleaner="sitediff")
    local = run_preprocess([str(tmp_path / "one")], str(tmp_path / "local"), opts, local_run(batch_size=4),
                           progress=False)
    ray_ = run_preprocess([str(tmp_path / "split")], str(tmp_path / "ray"), opts,
                          local_run(executor="ray", workers=2, batch_size=3), progress=False)

    def lines(out):
        return [l for f in sorted((out / "collection").glob("*.jsonl")) for l in f.read_text().splitlines()]

    assert lines(tmp_path / "local") == lines(tmp_path / "ray")
    assert local["written"] == ray_["written"] == 12 and not ray_["unaccounted"]
    texts = [json.loads(l)["contents"] for l in lines(tmp_path / "ray")]
    assert not any("Most read" in t for t in texts)
    assert ray_["learned"]["site_references"]["hosts_with_reference"] == 2


def test_sitediff_beats_tags_and_density_on_real_news_portals():
    pages = list(gold_pages(shared(), ["cleanportaleval"]))  # 71 pages from 4 hosts
    f1 = {}
    for cleaner in ("tags", "density", "sitediff"):
        scores, by_host = [], collections.defaultdict(list)
        for p in pages:
            raw = p.input.read_bytes()
            by_host[Document(id="", url=page_url(raw)).host].append(
                (p, Document(id=p.name, url=page_url(raw), content_type="text/html", raw=raw)))
        for group in by_host.values():
            out = lines_of(clean(CleanOptions(cleaner=cleaner), [d for _, d in group])[0])
            scores += [word_prf("\n".join(out.get(p.name, [])), p.gold_text())["f1"] for p, _ in group]
        f1[cleaner] = sum(scores) / len(scores)
    assert f1["sitediff"] > f1["density"] + 0.03 and f1["sitediff"] > f1["tags"] + 0.1, f1
