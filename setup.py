"""The compiled twins: the learned cleaner's (``preprocess/cleaners/learned/_*.pyx``, see ``compiled.py``), the
streaming tag remover's (``preprocess/steps/stream/_scan.pyx``) and the normaliser's (``preprocess/lm/_tokens.pyx``).

Optional: when they cannot be built, webprune runs the Python code they mirror, with the same output, slower.
Everything else about the package is in pyproject.toml.
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension(f"preprocess.cleaners.learned.{name}", [f"preprocess/cleaners/learned/{name}.pyx"],
                             optional=True) for name in ("_scan", "_text", "_columns", "_trees")]
      + [Extension("preprocess.steps.stream._scan", ["preprocess/steps/stream/_scan.pyx"], optional=True),
         Extension("preprocess.lm._tokens", ["preprocess/lm/_tokens.pyx"], optional=True)])
