from setuptools import setup, Extension
from Cython.Build import cythonize
setup(ext_modules=cythonize([Extension("_text_old", ["_text_old.pyx"]), Extension("_text_new", ["_text_new.pyx"])],
      include_path=["/work/main"], language_level=3, quiet=True))
