"""Time ContrastivePrune.process on the docs that reach it in the rec pipeline; print a digest of its output."""
import copy, sys, time, hashlib, json, statistics
sys.path.insert(0, "scripts/bench")
from pathlib import Path
import profile_steps as ps
from webprune.benchdata import ROOT
from preprocess.core.stats import Stats
warc = ROOT / "build/bench/cleaning.warc.gz"
opts = ps.configs(None, "--cleaner learned --drop-hinted --max-link-density 0.5 --prune-model build/models/crawl")["rec"]
from preprocess.run.pipeline import Pipeline
pipe = Pipeline(opts)
names = [s.name for s in pipe.steps]
pi = names.index("prune")
stats = Stats()
docs = []
for s in pipe.steps: s.stats = stats
reader = ps.records(warc, stats)
while True:
    batch = ps.take(reader, 64)
    if not batch: break
    for step in pipe.steps[:pi]:
        batch = list(step.run(batch))
    for d in batch: d.lines  # make lines
    docs.extend(batch)
step = pipe.steps[pi]
step.scorer.pair(step.scorer.main)
snap = [(d, list(d.lines)) for d in docs]
def one():
    st = Stats(); step.stats = st
    out = []
    for d, lines in snap:
        c = copy.copy(d); c.lines = list(lines)
        out.append(c)
    t0 = time.process_time()
    res = [step.process(c) for c in out]
    t = time.process_time() - t0
    return t, res, st
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
ts = []
for r in range(reps):
    t, res, st = one()
    ts.append(t)
h = hashlib.sha256()
for d in res:
    h.update(json.dumps(None if d is None else [d.title, [(l.text, l.link_density) for l in d.lines]]).encode())
counts = {k: v for k, v in st.counts.items() if "score_s" not in k}
h.update(json.dumps(sorted(counts.items())).encode())
print(f"{len(snap)} docs; prune ms/page median {statistics.median(ts)/len(snap)*1e3:.4f} min {min(ts)/len(snap)*1e3:.4f}; digest {h.hexdigest()[:16]}")
