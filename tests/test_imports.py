"""The grader's modules import one another without a cycle, and the library never imports its command line.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import``, at module level or
inside a function, relative or absolute, is an edge from the importing module to each grader module it names
(``from grader.batch import state`` names ``grader.batch.state``; ``from grader.batch import Entry`` names
``grader.batch``). Importing a submodule is not counted as importing its parent package.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "grader"
#: Modules allowed to import the command line: the command line itself, and ``python -m grader``.
CLI = ("grader.cli", "grader.__main__")


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()

    def known(module: str) -> str | None:
        while module and module not in modules:  # ``import grader.x.y`` where y is a name: its module
            module = module.rpartition(".")[0]
        return module or None

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets.update(filter(None, (known(alias.name) for alias in node.names if alias.name.startswith("grader"))))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source != "grader" and not source.startswith("grader."):
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                target = sub if sub in modules else known(source)
                if target:
                    targets.add(target)
    targets.discard(name)
    return targets


def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as ``[a, b, ..., a]``, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_graph_sees_every_kind_of_import():
    edges = graph()
    assert "grader.cli" in edges["grader.__main__"]
    assert "grader.engine" in edges["grader.batch.grading"]  # absolute, module level
    assert "grader.batch.state" in edges["grader.batch.runner"]  # ``from grader.batch import state``
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle():
    cycle = _cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_library_never_imports_its_command_line():
    offenders = sorted(f"{name} imports {target}" for name, targets in graph().items()
                       if not name.startswith(CLI) for target in targets if target.startswith("grader.cli"))
    assert not offenders, offenders


def test_each_probe_imports_first():
    """A probe imported before anything else of the grader (as a tool or a benchmark may) imports cleanly:
    the probes package imports every probe by name, which the graph above cannot see."""
    import subprocess
    import sys

    from grader.exercises import ALL

    script = ("import importlib, sys\n"
              "for name in sys.argv[1:]:\n"
              "    for loaded in [m for m in sys.modules if m == 'grader' or m.startswith('grader.')]:\n"
              "        del sys.modules[loaded]\n"
              "    importlib.import_module(name)\n")
    probes = [e.probe for e in ALL]
    done = subprocess.run([sys.executable, "-c", script, *probes], capture_output=True, text=True,
                          cwd=PACKAGE.parent, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
