"""The learned cleaner's compiled scanner and tree walk (``preprocess/cleaners/learned/_fast.pyx``).

Optional: when it cannot be built, webprune runs the pure-Python twins with the same output, slower.
Everything else about the package is in pyproject.toml.
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("preprocess.cleaners.learned._fast", ["preprocess/cleaners/learned/_fast.pyx"],
                             optional=True)])
