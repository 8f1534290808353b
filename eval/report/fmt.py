"""Small formatting helpers shared by the report's tables: Markdown tables, sizes, seconds, ranges."""
from __future__ import annotations


def table(header: list[str], rows: list[list[str]], align: str | None = None) -> str:
    """A Markdown table; ``align`` one character per column (``l`` or ``r``; default: first left, rest right)."""
    align = align or "l" + "r" * (len(header) - 1)
    sep = ["---:" if a == "r" else "---" for a in align]
    esc = lambda c: str(c).replace("|", "\\|")
    return "\n".join(["| " + " | ".join(map(esc, header)) + " |", "|" + "|".join(sep) + "|"] +
                     ["| " + " | ".join(map(esc, r)) + " |" for r in rows])


def size(n: float | None) -> str:
    if n is None:
        return "–"
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= scale:
            return f"{n / scale:.2f} {unit}"
    return f"{n:.0f} B"


def num(x: float | None, digits: int = 3) -> str:
    """``digits`` significant digits, no exponent for everyday magnitudes."""
    if x is None:
        return "–"
    if x == 0:
        return "0"
    if abs(x) >= 10 ** digits:
        return f"{x:,.0f}"
    if abs(x) < 1e-4:
        return f"{x:.{digits - 1}e}"
    return f"{x:.{digits}g}" if abs(x) >= 1 else f"{float(f'{x:.{digits}g}'):f}".rstrip("0")


def secs(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}" if x < 100 else f"{x:,.0f}"


def spread(s: dict | None) -> str:
    """``median [min–max]`` of a {"median", "min", "max"} of seconds."""
    if not s:
        return "–"
    return f"{secs(s['median'])} [{secs(s['min'])}–{secs(s['max'])}]"
