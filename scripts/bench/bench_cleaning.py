#!/usr/bin/env python3
"""CleanEval-style quality benchmark, side by side with the peers: the same as ``webprune eval-cleaning``."""
import sys

from eval.cleaning.cli import main

if __name__ == "__main__":
    sys.exit(main())
