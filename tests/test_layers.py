"""The import graph: no circle, and no import from a lower layer up to a higher one (every import counts,
those inside functions too). Layers, low to high: preprocess < index, search < eval, webprune (the two front
ends: webprune runs evaluations, eval-cleaning's command shares webprune's argument helpers)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYER = {"preprocess": 0, "index": 1, "search": 1, "eval": 2, "webprune": 2}


def modules() -> dict[str, Path]:
    out = {}
    for pkg in LAYER:
        for f in (ROOT / pkg).rglob("*.py"):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return out


def graph() -> dict[str, set[str]]:
    mods = modules()

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges = {m: set() for m in mods}
    for m, f in mods.items():
        package = m.split(".") if f.name == "__init__.py" else m.split(".")[:-1]
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package[:len(package) - node.level + 1] if node.level else []
                prefix = ".".join(base + ([node.module] if node.module else []))
                names = [f"{prefix}.{a.name}" for a in node.names]
            else:
                continue
            edges[m] |= {r for n in names if (r := resolve(n)) and r != m}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in edges:
        if v not in index:
            visit(v)
    return out


def test_no_import_circle():
    edges = graph()
    assert len(edges) > 100 and edges["preprocess.driver.preprocess"]  # the graph was read
    assert cycles(edges) == []


def test_a_cycle_is_found():  # the check itself can fail
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_lower_layer_imports_a_higher_one():
    up = [(m, t) for m, ts in graph().items() for t in ts if LAYER[t.split(".")[0]] > LAYER[m.split(".")[0]]]
    assert up == []


ENGINE = ("preprocess.run.pipeline", "preprocess.run.worker", "preprocess.readers", "preprocess.folder.output", "preprocess.driver.preprocess",
          "preprocess.learning.engine")


ENGINE_RUN = ["preprocess.train_crawl.lines:CrawlLines"]  # passes the engine runs that no registry entry names


def engine_imports(edges: dict[str, set[str]], module: str) -> list[str]:
    return sorted(t for t in edges[module] if any(t == e or t.startswith(e + ".") for e in ENGINE))


def test_learning_passes_are_components_not_drivers():
    """A pass the registry names (and the ids' census) is map/reduce over the documents the engine hands it: its module imports
    none of the engine (pipeline, work, readers, output, run, learning), in a function or not."""
    from preprocess.core.ids import CENSUS
    from preprocess.config.registry import pass_refs

    edges, refs = graph(), pass_refs() + [CENSUS] + ENGINE_RUN
    assert {"preprocess.cleaners.sitediff", "preprocess.cleaners.feeds.learn", "preprocess.filters.prune.calibrate"} <= \
        {r.partition(":")[0] for r in refs}
    assert {r.partition(":")[0]: engine_imports(edges, r.partition(":")[0]) for r in refs} == \
        {r.partition(":")[0]: [] for r in refs}


def test_the_pass_rule_catches_an_engine_import():  # the check itself can fail
    assert engine_imports({"p": {"preprocess.readers.files", "preprocess.html.dom"}}, "p") == ["preprocess.readers.files"]
    assert engine_imports({"p": {"preprocess.folder.output", "preprocess.outputs_like"}}, "p") == ["preprocess.folder.output"]


PREPROCESS = ROOT / "preprocess"


def rooms() -> dict[str, set[str] | None]:
    """Each room of preprocess/ and the rooms its ``__init__`` says it may import (None: every room)."""
    import re

    out = {}
    for init in sorted(PREPROCESS.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        m = re.search(r"^May import: (.+?)\.\s*$", doc, re.M)
        assert m, f"{init}: its docstring must end with 'May import: <rooms>.'"
        said = m.group(1)
        out[init.parent.name] = None if said == "every room" else set() if said.startswith("nothing") else \
            {r.strip() for r in said.split(",")}
    return out


def room_breaches(edges: dict[str, set[str]], allowed: dict[str, set[str] | None]) -> list[tuple[str, str]]:
    def room(m: str) -> str | None:
        parts = m.split(".")
        return parts[1] if parts[0] == "preprocess" and len(parts) > 1 and parts[1] in allowed else None

    return sorted((m, t) for m, ts in edges.items() for t in ts
                  if (r := room(m)) and (rt := room(t)) and rt != r and allowed[r] is not None and rt not in allowed[r])


def test_preprocess_is_rooms_and_each_imports_only_what_its_init_says():
    top = sorted(p.name for p in PREPROCESS.iterdir() if p.name != "__pycache__" and not p.is_dir())
    assert len(top) <= 10 and top == ["__init__.py"], top  # everything else lives in a room
    allowed = rooms()
    assert {"core", "config", "readers", "steps", "cleaners", "filters", "folder", "runtime", "run", "learning"} <= \
        set(allowed)
    assert all(allowed[r] is None or r not in allowed[r] for r in allowed)
    assert room_breaches(graph(), allowed) == []


def test_the_room_rule_catches_an_import_a_room_may_not_make():  # the check itself can fail
    allowed = {"core": set(), "run": {"core"}}
    assert room_breaches({"preprocess.core.stats": {"preprocess.run.units"}, "preprocess.run.units": {"preprocess.core.stats"}},
                         allowed) == [("preprocess.core.stats", "preprocess.run.units")]
