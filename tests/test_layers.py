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
    assert len(edges) > 100 and edges["preprocess.run"]  # the graph was read
    assert cycles(edges) == []


def test_a_cycle_is_found():  # the check itself can fail
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_lower_layer_imports_a_higher_one():
    up = [(m, t) for m, ts in graph().items() for t in ts if LAYER[t.split(".")[0]] > LAYER[m.split(".")[0]]]
    assert up == []


ENGINE = ("preprocess.pipeline", "preprocess.work", "preprocess.readers", "preprocess.output", "preprocess.run",
          "preprocess.learning")


ENGINE_RUN = ["preprocess.lm.crawl_lines:CrawlLines"]  # passes the engine runs that no registry entry names


def engine_imports(edges: dict[str, set[str]], module: str) -> list[str]:
    return sorted(t for t in edges[module] if any(t == e or t.startswith(e + ".") for e in ENGINE))


def test_learning_passes_are_components_not_drivers():
    """A pass the registry names (and the ids' census) is map/reduce over the documents the engine hands it: its module imports
    none of the engine (pipeline, work, readers, output, run, learning), in a function or not."""
    from preprocess.ids import CENSUS
    from preprocess.registry import pass_refs

    edges, refs = graph(), pass_refs() + [CENSUS] + ENGINE_RUN
    assert {"preprocess.cleaners.sitediff", "preprocess.cleaners.feeds.learn", "preprocess.calibrate"} <= \
        {r.partition(":")[0] for r in refs}
    assert {r.partition(":")[0]: engine_imports(edges, r.partition(":")[0]) for r in refs} == \
        {r.partition(":")[0]: [] for r in refs}


def test_the_pass_rule_catches_an_engine_import():  # the check itself can fail
    assert engine_imports({"p": {"preprocess.readers.files", "preprocess.dom"}}, "p") == ["preprocess.readers.files"]
    assert engine_imports({"p": {"preprocess.output", "preprocess.outputs_like"}}, "p") == ["preprocess.output"]
