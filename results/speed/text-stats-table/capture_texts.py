import sys, time, pickle, tempfile
sys.path.insert(0, "/work/main/scripts/bench"); sys.path.insert(0, "/work/main")
from pathlib import Path
import profile_steps as P
from preprocess.cleaners.learned import text as T, compiled
cap = []
orig = T.text_counts_of
def hook(texts, title):
    cap.append((list(texts), title)); return orig(texts, title)
import preprocess.cleaners.learned.features as F
F.text_counts_of = hook
with tempfile.TemporaryDirectory() as d:
    P.one_pass(Path("/work/main/build/bench/cleaning.warc.gz"), P.configs(None, P.REC_FLAGS)["rec"], 64, Path(d))
pickle.dump(cap, open("/tmp/w/texts.pkl", "wb"))
print(len(cap), sum(len(t) for ts, _ in cap for t in ts) / len(cap), "chars/page")
