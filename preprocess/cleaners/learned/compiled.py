"""The learned cleaner's compiled twins (Cython, built by ``pip install`` from ``setup.py``), and the switch.

``_scan`` (blocks.py), ``_text`` and ``_columns`` (features.py, context.py), ``_names``
(names.py, features.py), ``_anchor`` (anchor.py), ``_trees`` (model.py) and ``_raw`` (raw/, imported there)
give exactly what the Python and
numpy code beside them gives, several times faster (``tests/test_learned_compiled.py``,
``tests/test_learned_anchor_exact.py``). Where they
were not built (no C compiler) ``BUILT`` is False and the Python code runs;
``WEBPRUNE_PURE_PYTHON=1`` runs it on purpose, to compare or debug.
"""
from __future__ import annotations

import os

try:
    from preprocess.cleaners.learned import _anchor, _columns, _names, _scan, _text, _trees
except ImportError:
    _anchor = _columns = _names = _scan = _text = _trees = None

BUILT = _scan is not None
ON = BUILT and not os.environ.get("WEBPRUNE_PURE_PYTHON")
