"""The package's import graph has no cycle: not at run time, not under TYPE_CHECKING, not inside a function.

An edge hidden behind TYPE_CHECKING or a function-level import still ties the modules together: neither
can be read, moved or built without the other. This reads every module under xaid/ with ``ast`` (nothing
is imported, so a cycle cannot hide behind Python's lazy module objects) and walks the graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

import xaid

ROOT = Path(xaid.__file__).resolve().parent


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name of a module file under ``root``, a package directory named as it is imported."""
    parts = (root.name, *path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _resolve(known: dict[str, Path], name: str) -> str | None:
    """The module a dotted name lands in: ``xaid.store.Database`` is ``xaid.store``."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every module of xaid that ``name`` imports, wherever the import statement stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            # ``from . import clock`` imports a module; ``from .clock import Clock`` a name in one.
            targets = [f"{stem}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            if (hit := _resolve(known, target)) is not None and hit != name:
                found.add(hit)
    return found


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Every module of the package at ``root`` (xaid/ unless told; tests/perf reads perf/ with it)."""
    known = modules(root)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a path that returns to its start, or None. Importing a package runs its
    ``__init__``, but a module's own package importing it is no cycle of the code's making: such
    edges (parent package → child) are followed, the implicit child → parent ones are not."""
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (cycle := visit(start)) is not None:
            return cycle
    return None


def strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """The groups of modules that all reach each other (Tarjan), largest first: the whole knot, not one loop."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: set[str] = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(groups, key=len, reverse=True)


def test_the_graph_sees_every_kind_of_import() -> None:
    """The reader itself: a relative import, one under TYPE_CHECKING and one inside a function all count."""
    edges = graph()
    assert "xaid.clock" in edges["xaid.config"]  # from .clock import resolve_zone
    assert "xaid.store" in edges["xaid.store.db"] or "xaid.store.migrate" in edges["xaid.store.db"]
    assert len(edges) > 50


def test_a_cycle_is_found_when_there_is_one() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(edges) == ["a", "b", "c", "a"]
    assert strongly_connected(edges) == [{"a", "b", "c"}]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_in_xaid() -> None:
    edges = graph()
    knots = strongly_connected(edges)
    cycle = find_cycle(edges)
    assert cycle is None and not knots, (
        f"import cycle: {' -> '.join(cycle or [])}; modules tied together: "
        + "; ".join(", ".join(sorted(k)) for k in knots)
    )


# Lowest first; a module may import its own layer and the ones below (docs/architecture.md, "Who may import whom").
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "leaves",
        ("xaid", "xaid.text"),
    ),  # "xaid": the package's own modules that no longer prefix names
    ("store", ("xaid.store",)),
    ("adapters", ("xaid.embed", "xaid.providers")),
    (
        "services",
        ("xaid.memory", "xaid.mood", "xaid.scheduler", "xaid.conversation", "xaid.consolidation"),
    ),
    ("root", ("xaid.app",)),
    ("server", ("xaid.server",)),
    ("entry", ("xaid.lifespan", "xaid.__main__")),
)


def layer_of(module: str) -> int:
    """The layer of the longest prefix that names ``module``. ``xaid`` names the package itself and the
    modules directly in it (the leaves: clock, config, …) unless a longer prefix claims one (``xaid.app``)."""
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if prefix == "xaid":
                inside = module == "xaid" or module.count(".") == 1
            else:
                inside = module == prefix or module.startswith(prefix + ".")
            if inside and len(prefix) > best:
                best, rank = len(prefix), i
    assert rank >= 0, f"{module} belongs to no layer: add it to LAYERS and to docs/architecture.md"
    return rank


def test_imports_go_down_the_layers() -> None:
    """The layer test itself would pass on anything if a module fell into no layer, or into the wrong one."""
    assert (
        layer_of("xaid.memory.service") == 3
        and layer_of("xaid.store.db") == 1
        and layer_of("xaid") == 0
    )
    assert (
        layer_of("xaid.clock") == 0
        and layer_of("xaid.app") == 4
        and layer_of("xaid.server.methods.memory") == 5
    )
    upward = sorted(
        f"{a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]})"
        for a, targets in graph().items()
        for b in targets
        if layer_of(b) > layer_of(a)
    )
    assert not upward, "imports against the layers:\n" + "\n".join(upward)
