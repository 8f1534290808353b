import sys, time, pickle
sys.path.insert(0, "/work/main"); sys.path.insert(0, "/tmp/w/ab")
from preprocess.cleaners.learned import text as T
import _text_old, _text_new
for m in (_text_old, _text_new): m.set_stop_words(T.STOP_WORDS)
cap = pickle.load(open("/tmp/w/texts.pkl", "rb"))
tw = [(ts, set(T.WORDS.findall(t.lower())) | set(t.lower().split()) if t else set()) for ts, t in cap]
res = {"old": [], "new": []}
for r in range(8):
    for name, m in (("old", _text_old), ("new", _text_new)) if r % 2 else (("new", _text_new), ("old", _text_old)):
        f = m.text_stats
        t0 = time.process_time()
        for ts, w in tw: f(ts, w)
        res[name].append((time.process_time() - t0) / len(tw) * 1e3)
import statistics
for k, v in res.items(): print(k, f"median {statistics.median(v):.4f} min {min(v):.4f} ms/page")
