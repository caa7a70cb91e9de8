"""The package stays easy to find one's way in: small modules, and imports that only ever point one way.

A cycle is counted with every import, a function-level one too: an import deferred into a function to save load
time is fine, one deferred to get around a cycle still ties the two modules into one, so it fails here. An import
under `if TYPE_CHECKING:` counts as well: it never runs, but the annotation it serves names the other module's type
and code written against it uses that type's members (llm/batch_calls.py was a mixin of the client's class, typed
`self: LLM` through such an import, and the cycle went unseen while they were left out).

The layers (LAYERS, bottom to top, drawn from DESIGN.md) say which way imports point across packages: a module
imports its own layer or the ones below, never one above, a function-level or TYPE_CHECKING import included. And
two packages (or top-level modules) never import each other, even when no two of their modules do.
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


IN_FUNCTION, TYPE_ONLY = "inside a function", "under TYPE_CHECKING"


def _imports(tree: ast.AST, module: str, is_package: bool):
    """(imported dotted name, line, where) for each import; `where` is "" at module level, IN_FUNCTION or TYPE_ONLY."""
    def visit(node: ast.AST, where: str):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for inner in child.body:
                    yield from visit_one(inner, TYPE_ONLY)
                for other in child.orelse:
                    yield from visit_one(other, where)
                continue
            yield from visit_one(child, where)

    def visit_one(child: ast.AST, where: str):
        if isinstance(child, ast.Import):
            for alias in child.names:
                yield alias.name, child.lineno, where
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:  # relative: resolve against this module's package
                anchor = module.split(".")
                anchor = anchor[:len(anchor) - child.level + (1 if is_package else 0)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in child.names:
                yield f"{base}.{alias.name}", child.lineno, where
        function = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and where != TYPE_ONLY
        yield from visit(child, IN_FUNCTION if function else where)

    yield from visit(tree, "")


def import_graph(package: Path) -> dict[str, dict[str, tuple[int, str]]]:
    """Module -> {module it imports: (line, where)}, within `package` only; `where` as `_imports` gives it."""
    modules = module_names(package)
    graph: dict[str, dict[str, tuple[int, str]]] = {name: {} for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for imported, line, where in _imports(tree, name, path.name == "__init__.py"):
            # `from curation.x import y` names module curation.x.y when it exists, else something in curation.x.
            target = imported
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name and target not in graph[name]:
                graph[name][target] = (line, where)
    return graph


def cycles(graph: dict[str, dict[str, tuple[int, str]]]) -> list[list[str]]:
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


def _edge(a: str, b: str, line: int, where: str) -> str:
    return f"{a} -> {b} (line {line}{', ' + where if where else ''})"


def describe_cycle(graph: dict[str, dict[str, tuple[int, str]]], group: list[str]) -> str:
    edges = [_edge(a, b, line, where) for a in group for b, (line, where) in sorted(graph[a].items()) if b in group]
    return "import cycle among " + ", ".join(group) + ":\n  " + "\n  ".join(edges)


# Bottom to top. An entry names a module or a package (with everything under it; the root package is only its own
# __init__). Within a layer imports may go one way between two packages (test_no_two_packages_import_each_other).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    # what every layer speaks in: settings, languages, records, the store, prompt files, plain-text rules, files
    # written whole into the project's folders, what of a secret may be shown, the status registry (which loads the
    # stages' and review's sections by name at run time, not by import)
    ("foundations", ("curation", "curation.config", "curation.model_settings", "curation.stage_settings",
                     "curation.languages", "curation.language_settings",
                     "curation.records", "curation.store", "curation.fingerprint", "curation.excerpt",
                     "curation.project_paths", "curation.prompts", "curation.status", "curation.plain_text",
                     "curation.output_folders", "curation.redaction")),
    # what the stages use: the LLM client, the gates, the readers of competitions
    ("services", ("curation.llm", "curation.checks", "curation.sources")),
    # beside the stages but under them: the stages drive review and release (merge reads review's decisions,
    # publish builds a release), so these never import a stage; what needs a stage's rule lives with the stages
    ("review and release", ("curation.review", "curation.release")),
    # the stages, synthesis (a stage of its own kind), the review report and the results of agents on a release
    ("stages", ("curation.stages", "curation.synthesis", "curation.report", "curation.results")),
    # what looks across stages for a command: dry runs, doctor, the status screen, a new project
    ("commands", ("curation.dry_run", "curation.doctor", "curation.status_view", "curation.new_project",
                  "curation.next_steps")),
    ("cli", ("curation.cli",)),
]


def layer_of(module: str, layers: list[tuple[str, tuple[str, ...]]]) -> int | None:
    """The index in `layers` of the longest entry that is `module` or a package above it; None when none is."""
    best: tuple[int, int] | None = None  # (length of the entry, layer)
    for index, (_, entries) in enumerate(layers):
        for entry in entries:
            covers = module == entry or ("." in entry and module.startswith(entry + "."))
            if covers and (best is None or len(entry) > best[0]):
                best = (len(entry), index)
    return None if best is None else best[1]


def upward_imports(graph: dict[str, dict[str, tuple[int, str]]],
                   layers: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    """Every import of a module in a layer above the importer's, one line each."""
    found = []
    for module, imports in sorted(graph.items()):
        own = layer_of(module, layers)
        for target, (line, where) in sorted(imports.items()):
            other = layer_of(target, layers)
            if own is not None and other is not None and other > own:
                found.append(f"{_edge(module, target, line, where)}: {layers[own][0]} imports {layers[other][0]}")
    return found


def package_graph(graph: dict[str, dict[str, tuple[int, str]]]) -> dict[str, dict[str, tuple[int, str]]]:
    """The import graph with each subpackage's modules taken as one node (top-level modules stay themselves); an
    edge keeps its first import, the modules named."""
    def node(module: str) -> str:
        return ".".join(module.split(".")[:2])

    grouped: dict[str, dict[str, tuple[int, str]]] = {node(module): {} for module in graph}
    for module, imports in sorted(graph.items()):
        for target, (line, where) in sorted(imports.items()):
            if node(target) != node(module):
                grouped[node(module)].setdefault(node(target), (line, f"{module} imports {target}" + (
                    f", {where}" if where else "")))
    return grouped


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


def test_every_module_has_a_layer():
    unplaced = sorted(module for module in module_names(PACKAGE) if layer_of(module, LAYERS) is None)
    assert not unplaced, "add these to LAYERS in tests/test_package_shape.py:\n" + "\n".join(unplaced)


def test_no_module_imports_a_layer_above_its_own():
    found = upward_imports(import_graph(PACKAGE), LAYERS)
    assert not found, ("move what is needed down, or pass it in (layers bottom to top: "
                       + ", ".join(name for name, _ in LAYERS) + "):\n" + "\n".join(found))


def test_no_two_packages_import_each_other():
    # Modules may be untied while their packages are not (stages/publish.py -> release/figures.py and
    # release/figures.py -> stages/stale_reviewed.py): that still makes stages and release one unit.
    graph = package_graph(import_graph(PACKAGE))
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


def test_a_cycle_through_a_type_checking_import_is_found(tmp_path):
    # The shape llm/client.py and llm/batch_calls.py had: the client's class takes a mixin whose methods are typed
    # `self: LLM` and use the client's members, the mixin's module importing the client for type checking only.
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/client.py": "from pkg.batch_calls import BatchCalls\n\nclass LLM(BatchCalls): ...\n",
        "pkg/batch_calls.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.client import LLM\n\n"
                               "class BatchCalls:\n    def _batch_call(self: LLM):\n        return self._call()\n"),
    })
    graph = import_graph(package)
    assert cycles(graph) == [["pkg.batch_calls", "pkg.client"]]
    assert "pkg.batch_calls -> pkg.client (line 3, under TYPE_CHECKING)" in describe_cycle(graph, cycles(graph)[0])


def test_relative_submodule_and_type_checking_imports_count(tmp_path):
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "from . import a\n",
        "pkg/sub/a.py": "from ..b import thing\n",
        "pkg/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.c import C\nelse:\n    import pkg.d\n"
                    "thing = 1\n",
        "pkg/c.py": "from pkg import sub\nimport pkg.b as b\nclass C: ...\n",
        "pkg/d.py": "",
    })
    graph = import_graph(package)
    assert graph["pkg.sub"] == {"pkg.sub.a": (1, "")}
    assert graph["pkg.sub.a"] == {"pkg.b": (1, "")}
    assert graph["pkg.b"] == {"pkg.c": (3, "under TYPE_CHECKING"), "pkg.d": (5, "")}
    assert set(graph["pkg.c"]) == {"pkg.sub", "pkg.b"}
    assert cycles(graph) == [["pkg.b", "pkg.c", "pkg.sub", "pkg.sub.a"]]


LAYERS_OF_PKG = [("bottom", ("pkg", "pkg.records")), ("middle", ("pkg.stages", "pkg.synthesis")), ("top", ("pkg.cli",))]


def test_an_upward_import_is_found_even_inside_a_function(tmp_path):
    # The shapes release/figures.py -> stages/stale_reviewed.py and stages/redo.py -> dry_run.py had.
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/records.py": "def count():\n    from pkg.stages.translate import stage\n    return stage\n",
        "pkg/stages/__init__.py": "",
        "pkg/stages/translate.py": "from pkg.records import count\nstage = 1\n",
        "pkg/stages/redo.py": "def plan():\n    from pkg.cli import dry_run\n",
        "pkg/synthesis.py": "from pkg.stages import translate\n",  # the same layer: fine
        "pkg/cli.py": "from pkg.stages import redo\ndry_run = 1\n",
        "pkg/elsewhere.py": "",
    })
    graph = import_graph(package)
    assert upward_imports(graph, LAYERS_OF_PKG) == [
        "pkg.records -> pkg.stages.translate (line 2, inside a function): bottom imports middle",
        "pkg.stages.redo -> pkg.cli (line 2, inside a function): middle imports top"]
    assert layer_of("pkg.stages.redo", LAYERS_OF_PKG) == 1 and layer_of("pkg", LAYERS_OF_PKG) == 0
    assert layer_of("pkg.elsewhere", LAYERS_OF_PKG) is None  # the root package covers only its __init__


def test_packages_that_import_each_other_are_found_when_their_modules_do_not(tmp_path):
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/stages/__init__.py": "",
        "pkg/stages/publish.py": "from pkg.release.figures import count\n",
        "pkg/stages/stale.py": "",
        "pkg/release/__init__.py": "",
        "pkg/release/figures.py": "def count():\n    from pkg.stages.stale import stale\n",
        "pkg/records.py": "",
    })
    graph = import_graph(package)
    assert cycles(graph) == []
    grouped = package_graph(graph)
    assert cycles(grouped) == [["pkg.release", "pkg.stages"]]
    assert grouped["pkg.release"] == {"pkg.stages": (2, "pkg.release.figures imports pkg.stages.stale, inside a function")}
