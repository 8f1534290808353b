"""Declared parameters: one declaration per parameter, and the one type checker every consumer shares.

A parameter is a dataclass field made by :func:`option` (in the spirit of ir_measures'
``SUPPORTED_PARAMS``): its type (the annotation), default, help, choices, metavar, and
what kind of value it is -- ``path=True`` for a model file or folder (hashed into unit
keys, checked before a run, resolved against a config's folder, per-set ``{set}`` in
eval-cleaning), ``short`` for its key inside a cleaning spec (``prune(p=25)``). From
the declarations come the command-line flags (:func:`add_arguments`, :func:`from_args`),
the config keys (:func:`from_mapping`, :func:`check_type`) and the value checks
(:func:`check_values`). Used for the cleaning options (:mod:`preprocess.config.options`, whose
fields the registry's components declare), the run options, the config sections and the
retrieval model.
"""
from __future__ import annotations

import argparse
import dataclasses
import difflib
import math
import types
import typing
from dataclasses import field


def option(default=dataclasses.MISSING, help: str = "", *, type=None, choices=None, metavar: str | None = None,
           path: bool = False, short: str | None = None, flag: str | None = None, key: str | None = None, bare=None,
           group: str | None = None, default_factory=dataclasses.MISSING):
    """A declared parameter. ``choices`` may be a callable (read lazily: the registry's names); ``flag``
    overrides the command-line name, ``key`` the config key; ``bare``/``group``: see :mod:`preprocess.config.spec`; ``type``: the annotation of a
    parameter declared outside a class body (a registry entry's)."""
    meta = {"type": type, "help": help, "choices": choices, "metavar": metavar, "path": path, "short": short,
            "flag": flag, "key": key, "bare": bare, "group": group}
    return field(default=default, default_factory=default_factory, metadata=meta)


def field_types(cls) -> dict[str, tuple[type, bool]]:
    """{name: (base type, may be None)} from the annotations."""
    out = {}
    for name, hint in typing.get_type_hints(cls).items():
        args = typing.get_args(hint)
        if typing.get_origin(hint) in (typing.Union, types.UnionType):
            out[name] = (next(a for a in args if a is not type(None)), type(None) in args)
        else:
            out[name] = (hint, False)
    return out


def path_fields(cls) -> tuple[str, ...]:
    """The fields declared ``path=True`` (model files and folders), in declaration order."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get("path"))


def choices_of(f: dataclasses.Field):
    choices = f.metadata.get("choices")
    return choices() if callable(choices) else choices


# -- the type checker --------------------------------------------------------------------------------------------
def check_type(value, hint, where: str):
    """``value`` as ``hint`` wants it (an int where a float is declared becomes a float), or ValueError saying
    what was expected: a list, a table, a (finite) number, a whole number, a string, true or false."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        hint = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list:
        if not isinstance(value, list):
            raise ValueError(f"{where} must be a list (e.g. [\"a\", \"b\"]), not {type(value).__name__} {value!r}")
        return [check_type(v, args[0], f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise ValueError(f"{where} must be a table ({{key = value}}), not {type(value).__name__} {value!r}")
        return {k: check_type(v, args[1], f"{where}.{k}") for k, v in value.items()}
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{where} must be a number, not {type(value).__name__} {value!r}")
        if not math.isfinite(value):  # TOML has nan and inf; no setting here means either
            raise ValueError(f"{where} must be a finite number, not {value!r}")
        return float(value)
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"{where} must be a whole number, not {type(value).__name__} {value!r}")
    if hint in (str, bool) and not isinstance(value, hint):
        raise ValueError(f"{where} must be {'a string' if hint is str else 'true or false'}, "
                         f"not {type(value).__name__} {value!r}")
    return value


def check_values(obj) -> None:
    """Every float field finite, every string field non-empty, every field with choices one of them
    (flags and configs alike); ValueError otherwise."""
    types_ = field_types(type(obj))
    for f in dataclasses.fields(obj):
        base, value = types_[f.name][0], getattr(obj, f.name)
        if value is None:
            continue
        if base is float and not math.isfinite(value):
            raise ValueError(f"{flag(f)} {value}: give a finite number")
        if base is str and not value.strip():
            raise ValueError(f"{flag(f)} is empty: give a value, or leave the option out")
        choices = choices_of(f)
        if choices and value not in choices:
            raise ValueError(f"unknown {flag(f).removeprefix('--')} {value!r}; choose one of {', '.join(choices)}")


def closest(name: str, valid) -> str:
    """' (did you mean X?)' for the closest valid name, else ''."""
    m = difflib.get_close_matches(name, list(valid), n=1, cutoff=0.5)
    return f" (did you mean {m[0]!r}?)" if m else ""


def from_mapping(data: dict, where: str, cls, ignore: frozenset = frozenset()):
    """An instance of ``cls`` from a config table: unknown keys refused with the closest valid one, values
    type-checked, a required key missing said so; then its own ``check()`` where it has one."""
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be a table, not {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    for key in data:
        if key not in names and key not in ignore:
            raise ValueError(f"{where}: unknown key {key!r}{closest(key, set(names) | set(ignore))}")
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            kwargs[f.name] = check_type(data[f.name], hints[f.name], f"{where}.{f.name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ValueError(f"{where} needs {f.name!r} ({f.metadata.get('help') or hints[f.name]})")
    obj = cls(**kwargs)
    return obj.check() if hasattr(obj, "check") else obj


# -- command-line flags ----------------------------------------------------------------------------------------
def flag(f: dataclasses.Field | str) -> str:
    if isinstance(f, str):
        return "--" + f.replace("_", "-")
    return f.metadata.get("flag") or "--" + f.name.replace("_", "-")


def add_arguments(parser, cls, only=None) -> None:
    """One flag per declared field (of ``only``, if given), with its type, choices and help; defaults stay in
    the dataclass (an unset flag is absent from the namespace)."""
    types_ = field_types(cls)
    for f in dataclasses.fields(cls):
        if only is not None and f.name not in only:
            continue
        base, nullable = types_[f.name]
        meta = f.metadata
        kw: dict = {"dest": f.name, "default": argparse.SUPPRESS, "help": meta.get("help", "")}
        if base is bool:
            kw["action"] = argparse.BooleanOptionalAction if nullable or f.default else "store_true"
        else:
            kw["type"] = base
            choices = choices_of(f)
            if choices is not None:
                kw["choices"] = choices
            if meta.get("metavar"):
                kw["metavar"] = meta["metavar"]
        if f.default is not dataclasses.MISSING and f.default is not None and f.default is not False:
            kw["help"] += f" (default: {str(f.default).replace('%', '%%')})"  # argparse formats help with %
        parser.add_argument(flag(f), **kw)


def given(args: argparse.Namespace, cls) -> dict:
    """The fields of ``cls`` set on a command line built by :func:`add_arguments`."""
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in vars(args).items() if k in names}


def from_args(args: argparse.Namespace, cls):
    """The instance a command line built by :func:`add_arguments` gives (unset flags keep the defaults)."""
    obj = cls(**given(args, cls))
    return obj.check() if hasattr(obj, "check") else obj
