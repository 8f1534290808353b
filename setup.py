"""The compiled twins: the learned cleaner's (``preprocess/cleaners/learned/_*.pyx``, see ``compiled.py``), the
streaming tag remover's (``preprocess/steps/stream/_scan.pyx``), the decode step's counts (``preprocess/steps/_markup.pyx``,
SSE2 where the CPU has it), the normaliser's (``preprocess/lm/_tokens.pyx``)
and the contrastive pair's (``preprocess/lm/_pair.pyx``, C++ against KenLM's headers from the sdist that
``scripts/build_kenlm.sh`` unpacks under ``build/kenlm``: built only where they are, so ``scripts/setup.sh``
builds it again after that script).

Optional: when they cannot be built, webprune runs the Python code they mirror, with the same output, slower.
Everything else about the package is in pyproject.toml.
"""
import sys
from pathlib import Path

from setuptools import Extension, setup

if sys.version_info[:2] != (3, 11):  # pip's own refusal would say only "requires a different Python"
    sys.exit(f"webprune runs on Python 3.11 only, not {sys.version_info[0]}.{sys.version_info[1]}: it is built on "
             "Pyserini 1.6.0 (Anserini 1.7.1), the newest Pyserini for 3.11 (Pyserini 2.x needs Python >= 3.12 and is "
             "not tested with webprune); install Python 3.11 and run PYTHON=/path/to/python3.11 bash scripts/setup.sh")


def kenlm_pair() -> list[Extension]:
    """The pair's extension, where KenLM's headers are unpacked (the newest sdist version there)."""
    srcs = sorted(Path(__file__).resolve().parent.glob("build/kenlm/src-*/lm/virtual_interface.hh"))
    if not srcs:
        return []
    src = srcs[-1].parent.parent
    version = src.name.removeprefix("src-")
    return [Extension("preprocess.lm._pair", ["preprocess/lm/_pair.pyx"], language="c++", optional=True,
                      include_dirs=[str(src)], extra_compile_args=["-std=c++17"],
                      define_macros=[("WEBPRUNE_KENLM_VERSION", f'"{version}"')])]


setup(ext_modules=[Extension(f"preprocess.cleaners.learned.{name}", [f"preprocess/cleaners/learned/{name}.pyx"],
                             include_dirs=["preprocess/cleaners/learned"], optional=True)
                   for name in ("_scan", "_text", "_columns", "_trees", "_names", "_anchor", "_raw")]
      + [Extension("preprocess.steps.stream._scan", ["preprocess/steps/stream/_scan.pyx"], optional=True),
         Extension("preprocess.lm._tokens", ["preprocess/lm/_tokens.pyx"], optional=True),
         Extension("preprocess.core._segment", ["preprocess/core/_segment.pyx"], optional=True),
         Extension("preprocess.core._decide", ["preprocess/core/_decide.pyx"], optional=True),
         Extension("preprocess.steps._markup", ["preprocess/steps/_markup.pyx"], include_dirs=["preprocess/steps"],
                   optional=True)]
      + kenlm_pair())
