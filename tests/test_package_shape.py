"""The package stays easy to find one's way in: small modules, and imports that only ever point one way.

A cycle is counted with every import, a function-level one too: an import deferred into a function to save load
time is fine, one deferred to get around a cycle still ties the two modules into one, so it fails here. Only
imports under `if TYPE_CHECKING:` are left out, since they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "curation"
MAX_LINES = 400


def module_names(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module under `package` (a package is its __init__.py)."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, module: str, is_package: bool):
    """(imported dotted name, line, inside a function) for each import that can run; TYPE_CHECKING blocks left out."""
    def visit(node: ast.AST, in_function: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    yield from visit(other, in_function)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, child.lineno, in_function
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:  # relative: resolve against this module's package
                    anchor = module.split(".")
                    anchor = anchor[:len(anchor) - child.level + (1 if is_package else 0)]
                    base = ".".join(anchor + ([base] if base else []))
                for alias in child.names:
                    yield f"{base}.{alias.name}", child.lineno, in_function
            yield from visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    yield from visit(tree, False)


def import_graph(package: Path) -> dict[str, dict[str, tuple[int, bool]]]:
    """Module -> {module it imports: (line, inside a function)}, within `package` only."""
    modules = module_names(package)
    graph: dict[str, dict[str, tuple[int, bool]]] = {name: {} for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for imported, line, in_function in _imports(tree, name, path.name == "__init__.py"):
            # `from curation.x import y` names module curation.x.y when it exists, else something in curation.x.
            target = imported
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name and target not in graph[name]:
                graph[name][target] = (line, in_function)
    return graph


def cycles(graph: dict[str, dict[str, tuple[int, bool]]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or around a circle (Tarjan's strongly connected
    components of more than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            connect(node)
    return sorted(found)


def describe_cycle(graph: dict[str, dict[str, tuple[int, bool]]], group: list[str]) -> str:
    edges = [f"{a} -> {b} (line {line}{', inside a function' if lazy else ''})"
             for a in group for b, (line, lazy) in sorted(graph[a].items()) if b in group]
    return "import cycle among " + ", ".join(group) + ":\n  " + "\n  ".join(edges)


def test_every_module_is_under_400_lines():
    sizes = {path.relative_to(PACKAGE.parent).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.rglob("*.py")}
    too_long = sorted(f"{path}: {lines} lines" for path, lines in sizes.items() if lines >= MAX_LINES)
    assert not too_long, f"split these by concept (each module under {MAX_LINES} lines):\n" + "\n".join(too_long)


def test_no_import_cycle_inside_the_package():
    graph = import_graph(PACKAGE)
    assert len(graph) > 100 and sum(map(len, graph.values())) > 300  # the graph really holds the package
    found = cycles(graph)
    assert not found, "\n".join(describe_cycle(graph, group) for group in found)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/targets.py": "def open_target():\n    from pkg.hub import Hub\n    return Hub()\n",
        "pkg/hub.py": "from pkg.targets import open_target\n\nclass Hub: ...\n",
        "pkg/errors.py": "class PublishError(Exception): ...\n",
    })
    graph = import_graph(package)
    assert cycles(graph) == [["pkg.hub", "pkg.targets"]]
    assert "pkg.targets -> pkg.hub (line 2, inside a function)" in describe_cycle(graph, ["pkg.hub", "pkg.targets"])


def test_relative_and_submodule_imports_count_and_type_checking_ones_do_not(tmp_path):
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "from . import a\n",
        "pkg/sub/a.py": "from ..b import thing\n",
        "pkg/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.sub import a\nthing = 1\n",
        "pkg/c.py": "from pkg import sub\nimport pkg.b as b\n",
    })
    graph = import_graph(package)
    assert graph["pkg.sub"] == {"pkg.sub.a": (1, False)}
    assert graph["pkg.sub.a"] == {"pkg.b": (1, False)}
    assert graph["pkg.b"] == {} and set(graph["pkg.c"]) == {"pkg.sub", "pkg.b"}
    assert cycles(graph) == []
