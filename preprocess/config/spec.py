"""Cleaning specs: ``density+hints+links(0.5)+prune(adjusted,p=25)`` <-> :class:`CleanOptions`.

Grammar: a cleaner name, then ``+step`` parts, each optionally with arguments in
brackets. A part is a registry filter with parameters, read off its declarations:

* one yes/no parameter: ``hints`` sets it (``drop_hinted = true``);
* one yes/no/unset parameter: ``kitten`` / ``nokitten``;
* one value: ``links(X)``; bare ``links`` takes ``defaults`` (the CLI's flag), else the
  declared ``bare`` value (0.5);
* several: ``prune(adjusted,p=25,t=..,x=..,n=..,model=PATH)`` -- a bare argument is the
  parameter with choices (the score), ``key=`` a parameter's declared ``short`` name;
  what is not given comes from ``defaults`` (``--prune-model`` ...), a ``group`` (the
  thresholds) as a whole; the ``path`` parameter (the model) is required. Bare ``prune``
  takes everything from there.

Any other option by its field name, e.g. ``max_bytes(1000000)``, ``learned_model(m.json)``.
:func:`format_spec` writes the canonical form; ``parse_spec(format_spec(o)) == o``.
"""
from __future__ import annotations

import dataclasses
import re

from preprocess.config.options import CleanOptions
from preprocess.config.params import check_type, closest, field_types, flag
from preprocess.config.registry import FILTERS, Filter

_PART = re.compile(r"^([A-Za-z_]+)(?:\((.*)\))?$")


def _parts() -> dict[str, Filter]:
    """The filters a spec names: those with parameters."""
    return {f.name: f for f in FILTERS if f.params}


def _shape(f: Filter) -> str:
    """'flag' (one yes/no), 'switch' (one yes/no/unset), 'value' (one value) or 'group' (several)."""
    if len(f.params) > 1:
        return "group"
    base, nullable = field_types(CleanOptions)[next(iter(f.params))]
    return ("switch" if nullable else "flag") if base is bool else "value"


def _number(text: str, what: str):
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a number") from None
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def _value(name: str, text: str, where: str):
    """``text`` as the declared type of ``name``."""
    base = field_types(CleanOptions)[name][0]
    value = (text.lower() == "true") if base is bool else text if base is str else _number(text, where)
    return check_type(value, _hint(name), f"{where}: {name}")


def _hint(name: str):
    return CleanOptions.__dataclass_fields__[name].type


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
    fields = [f.name for f in dataclasses.fields(CleanOptions)]
    named = _parts()
    switches = {"no" + n: f for n, f in named.items() if _shape(f) == "switch"}
    for part in parts:
        m = _PART.match(part.strip())
        if not m:
            raise ValueError(f"{spec}: cannot read {part!r}; write name or name(args), e.g. links(0.5)")
        name, args = m.group(1), m.group(2)
        if name in named or name in switches:
            f = named.get(name) or switches[name]
            shape, first = _shape(f), next(iter(f.params))
            if shape in ("flag", "switch"):
                kw[first] = name in named
            elif shape == "value":
                bare = defaults.get(first) if defaults.get(first) is not None else f.params[first].metadata["bare"]
                kw[first] = _value(first, args, name) if args else check_type(bare, _hint(first), f"{spec}: {name}")
            else:
                kw |= _group(f, args or "", defaults, spec)
        elif name in fields:
            kw[name] = _value(name, args or "", spec)
        else:
            raise ValueError(f"{spec}: unknown step {name!r}{closest(name, (*named, *switches, *fields))}; "
                             f"use {', '.join((*named, *switches))} or an option name")
    return CleanOptions(**kw).check()


def _group(f: Filter, args: str, defaults: dict, spec: str) -> dict:
    """A several-parameter part: ``prune(adjusted,p=25,model=m.bin)`` with the rest from ``defaults``."""
    decl = f.params
    positional = next(n for n, d in decl.items() if d.metadata.get("choices"))
    shorts = {d.metadata["short"]: n for n, d in decl.items() if d.metadata.get("short")}
    given: dict = {}
    for arg in filter(None, (a.strip() for a in args.split(","))):
        key, eq, value = arg.partition("=")
        if not eq:
            choices = decl[positional].metadata["choices"]
            if key not in choices:
                raise ValueError(f"{spec}: {f.name}({args}): {key!r} is not a {positional.split('_')[-1]} "
                                 f"({', '.join(choices)})")
            given[positional] = key
        elif key in shorts:
            given[shorts[key]] = _value(shorts[key], value, f"{spec}: {f.name} {key}")
        else:
            raise ValueError(f"{spec}: {f.name}({args}): unknown argument {key!r}; use "
                             f"{', '.join(k + '=' for k in shorts)}")
    groups = {decl[n].metadata.get("group") for n in given} - {None}
    out = {n: defaults[n] for n, d in decl.items()
           if defaults.get(n) is not None and d.metadata.get("group") not in groups}  # a group comes as a whole
    out = {n: check_type(v, _hint(n), f"{spec}: {n}") for n, v in out.items()}
    out |= given
    for n, d in decl.items():
        if d.metadata.get("path") and not out.get(n):
            raise ValueError(f"{spec}: {f.name} needs a model: {f.name}({d.metadata['short']}=PATH) or {flag(n)}")
    return out


def _num(x: float) -> str:
    r = repr(float(x))
    return r[:-2] if r.endswith(".0") else r


def _text(x) -> str:
    return _num(x) if isinstance(x, float) else str(x)


def format_spec(opts: CleanOptions, with_model: bool = True) -> str:
    """The canonical spec of ``opts``."""
    default = CleanOptions()
    parts = [opts.cleaner]
    covered = {"cleaner"}
    for f in _parts().values():
        covered |= set(f.params)
        shape, first = _shape(f), next(iter(f.params))
        value = getattr(opts, first)
        if shape == "flag" and value:
            parts.append(f.name)
        elif shape == "switch" and value is not None:
            parts.append(f.name if value else "no" + f.name)
        elif shape == "value" and value is not None:
            parts.append(f"{f.name}({_text(value)})")
        elif shape == "group" and any(getattr(opts, n) for n, d in f.params.items() if d.metadata.get("path")):
            args, model = [], []
            for n, d in f.params.items():
                v = getattr(opts, n)
                if d.metadata.get("choices"):
                    args.insert(0, str(v))
                elif d.metadata.get("path"):
                    model = [f"{d.metadata['short']}={v}"] if with_model else []
                elif v is not None and (d.metadata.get("group") or v != getattr(default, n)):
                    args.append(f"{d.metadata['short']}={_text(v)}")
            parts.append(f"{f.name}({','.join(args + model)})")
    for fld in dataclasses.fields(CleanOptions):
        if fld.name not in covered and getattr(opts, fld.name) != getattr(default, fld.name):
            parts.append(f"{fld.name}({getattr(opts, fld.name)})")
    return "+".join(parts)

