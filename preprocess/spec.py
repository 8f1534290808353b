"""Cleaning specs: ``density+hints+links(0.5)+prune(adjusted,p=25)`` <-> :class:`CleanOptions`.

Grammar: a cleaner name, then ``+step`` parts, each optionally with arguments in
brackets. Parts:

* ``hints``                 ``drop_hinted = true``
* ``links`` / ``links(X)``  ``max_link_density = X`` (bare: 0.5)
* ``kitten`` / ``nokitten`` Kitten normalisation on / off
* ``prune(...)``            pruning: a score name (``perplexity``, ``adjusted``),
  ``p=`` percentile, ``t=`` maximum perplexity, ``x=`` threshold on the model's scale (a
  contrastive model's bits per token), ``n=`` sample documents,
  ``model=`` path; what is not given comes from ``defaults`` (the CLI's
  ``--prune-model`` ...). Bare ``prune`` takes everything from there.
* any other option by its field name, e.g. ``max_bytes(1000000)``.

:func:`format_spec` writes the canonical form; ``parse_spec(format_spec(o)) == o``.
"""
from __future__ import annotations

import dataclasses
import re

from preprocess.options import DEFAULT_LINK_DENSITY, PRUNE_SCORES, CleanOptions, _coerce, closest, field_types

_PART = re.compile(r"^([A-Za-z_]+)(?:\((.*)\))?$")
_PRUNE_KEYS = {"p": "prune_percentile", "t": "max_perplexity", "x": "prune_threshold", "n": "prune_sample_docs",
               "model": "prune_model"}
_NAMED = ("hints", "links", "kitten", "nokitten", "prune")


def _number(text: str, what: str):
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a number") from None
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def _split(spec: str) -> list[str]:
    """``+``-separated parts; a ``+`` inside brackets (a model path) does not split."""
    parts, depth, cur = [], 0, ""
    for ch in spec:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "+" and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return parts + [cur]


def parse_spec(spec: str, defaults: dict | None = None) -> CleanOptions:
    """Options of a spec; ``defaults`` fill what the spec leaves open (pruning's model, threshold ...)."""
    defaults = dict(defaults or {})
    cleaner, *parts = _split(spec.strip().removeprefix("webprune/"))
    kw: dict = {"cleaner": cleaner}
    fields = {f.name for f in dataclasses.fields(CleanOptions)}
    for part in parts:
        m = _PART.match(part.strip())
        if not m:
            raise ValueError(f"{spec}: cannot read {part!r}; write name or name(args), e.g. links(0.5)")
        name, args = m.group(1), m.group(2)
        if name == "hints":
            kw["drop_hinted"] = True
        elif name == "links":
            kw["max_link_density"] = float(_number(args, "links")) if args else \
                float(defaults.get("max_link_density") or DEFAULT_LINK_DENSITY)
        elif name in ("kitten", "nokitten"):
            kw["kitten"] = name == "kitten"
        elif name == "prune":
            kw |= _prune(args or "", defaults, spec)
        elif name in fields:
            base = field_types()[name][0]
            value = (args.lower() == "true") if base is bool else args if base is str else _number(args, name)
            kw[name] = _coerce(name, value, spec, CleanOptions)
        else:
            raise ValueError(f"{spec}: unknown step {name!r}{closest(name, _NAMED + tuple(fields))}; "
                             f"use {', '.join(_NAMED)} or an option name")
    return CleanOptions(**kw).check()


def _prune(args: str, defaults: dict, spec: str) -> dict:
    given: dict = {}
    for arg in filter(None, (a.strip() for a in args.split(","))):
        key, eq, value = arg.partition("=")
        if not eq:
            if key not in PRUNE_SCORES:
                raise ValueError(f"{spec}: prune({args}): {key!r} is not a score ({', '.join(PRUNE_SCORES)})")
            given["prune_score"] = key
        elif key in _PRUNE_KEYS:
            field = _PRUNE_KEYS[key]
            given[field] = value if field == "prune_model" else _number(value, f"prune {key}")
        else:
            raise ValueError(f"{spec}: prune({args}): unknown argument {key!r}; use p=, t=, x=, n= or model=")
    out = {k: defaults[k] for k in ("prune_model", "prune_score", "prune_sample_docs") if defaults.get(k) is not None}
    whole = ("prune_percentile", "max_perplexity", "prune_threshold")
    if not any(k in given for k in whole):  # the threshold comes as a whole
        out |= {k: defaults[k] for k in whole if defaults.get(k) is not None}
    out |= given
    for k in whole:
        if k in out:
            out[k] = float(out[k])
    if not out.get("prune_model"):
        raise ValueError(f"{spec}: pruning needs a model: prune(model=PATH) or --prune-model")
    return out


def _num(x: float) -> str:
    r = repr(float(x))
    return r[:-2] if r.endswith(".0") else r


def format_spec(opts: CleanOptions, with_model: bool = True) -> str:
    """The canonical spec of ``opts``."""
    default = CleanOptions()
    parts = [opts.cleaner]
    if opts.drop_hinted:
        parts.append("hints")
    if opts.max_link_density is not None:
        parts.append(f"links({_num(opts.max_link_density)})")
    if opts.kitten is not None:
        parts.append("kitten" if opts.kitten else "nokitten")
    if opts.prune_model:
        args = [opts.prune_score]
        if opts.prune_percentile is not None:
            args.append(f"p={_num(opts.prune_percentile)}")
        if opts.max_perplexity is not None:
            args.append(f"t={_num(opts.max_perplexity)}")
        if opts.prune_threshold is not None:
            args.append(f"x={_num(opts.prune_threshold)}")
        if opts.prune_sample_docs != default.prune_sample_docs:
            args.append(f"n={opts.prune_sample_docs}")
        if with_model:
            args.append(f"model={opts.prune_model}")
        parts.append(f"prune({','.join(args)})")
    covered = {"cleaner", "drop_hinted", "max_link_density", "kitten", "prune_model", "prune_score",
               "prune_percentile", "max_perplexity", "prune_threshold", "prune_sample_docs"}
    for f in dataclasses.fields(CleanOptions):
        if f.name not in covered and getattr(opts, f.name) != getattr(default, f.name):
            parts.append(f"{f.name}({getattr(opts, f.name)})")
    return "+".join(parts)
