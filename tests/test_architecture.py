"""The apps' import structure (STYLE "Layers, no cycles"): the layers themselves are import-linter's
contract in pyproject.toml (run by .ci/run); these tests pin what a layers contract cannot see."""

import ast
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ncpc", "events", "members", "finance", "standings")


def _source_files():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_cycle_finder_finds_a_loop_of_three_and_ignores_a_chain():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert _cycles({"a": {"b"}, "b": {"c"}}) == []


def test_no_module_imports_another_in_a_loop():
    graph = grimp.build_graph(*PACKAGES)
    edges = {
        module: {m for m in graph.find_modules_directly_imported_by(module) if ".migrations" not in m}
        for module in graph.modules
        if ".migrations" not in module
    }
    assert _cycles(edges) == []


@pytest.mark.parametrize("path", list(_source_files()), ids=lambda p: str(p.relative_to(ROOT)))
def test_project_modules_are_imported_at_the_top_of_the_file(path):
    """An import inside a function hides a dependency from the layers contract (and usually dodges a cycle).
    An app's ``AppConfig.ready()`` is where Django wants the imports that connect hooks and signals."""
    tree = ast.parse(path.read_text(), filename=str(path))
    hidden = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if path.name == "apps.py" and func.name == "ready":
            continue
        for node in ast.walk(func):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            hidden += [f"{func.name}: {n}" for n in names if n.split(".")[0] in PACKAGES]
    assert hidden == []
