exec(open(__file__.rsplit("/", 1)[0] + "/prune_harness.py").read().split("reps = int")[0])
from preprocess.core.segment import sentences_of_lines
from preprocess.lm.contrastive import normalize_many
pair = step.scorer.pair(step.scorer.main)
pages = [normalize_many([s for _, s in sentences_of_lines(ls)]) for d, ls in snap if ls]
import statistics
ts = []
for _ in range(int(sys.argv[1])):
    t0 = time.process_time()
    out = [pair.score_worded(p) for p in pages]
    ts.append(time.process_time() - t0)
h = hashlib.sha256(repr(out).encode()).hexdigest()[:12]
print(f"score_worded ms/page median {statistics.median(ts)/len(pages)*1e3:.4f} min {min(ts)/len(pages)*1e3:.4f} digest {h}")
