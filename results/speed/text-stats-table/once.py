import sys, pickle
sys.path.insert(0, "/work/main"); sys.path.insert(0, "/tmp/w/ab")
from preprocess.cleaners.learned import text as T
import importlib
m = importlib.import_module(sys.argv[1]); m.set_stop_words(T.STOP_WORDS)
cap = pickle.load(open("/tmp/w/texts.pkl", "rb"))[::4]
tw = [(ts, set(T.WORDS.findall(t.lower())) | set(t.lower().split()) if t else set()) for ts, t in cap]
for ts, w in tw: m.text_stats(ts, w)
