"""Write every single-edit mutant of the reference solutions, as a blind set for ``measure_blind.py``.

    python scripts/mechanical_mutants.py OUT_DIR [--only ex1,ex5]
    python scripts/measure_blind.py OUT_DIR

A measure of generalisation that no person tunes: the edits are mechanical (an
operator swapped, a number changed, an axis moved, a call dropped or
replaced, two arguments swapped), applied one at a time to the functions the
exercises ask for (the given code of ex5, forward and loss_fn, too: a student
may change it). Some edits change nothing a contract specifies (an equivalent
mutant); those keep full marks, and a person tells them apart. Files land in
``OUT_DIR/mistakes/<module>__<slug>.py`` with a ``# WHAT:`` line, the layout
``measure_blind.py`` reads.
"""

from __future__ import annotations

import argparse
import ast
import copy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Operators swapped for their usual confusion.
BINOPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
#: Calls replaced by a neighbour a student might reach for.
CALLS = {"relu": "sigmoid", "argmax": "argmin", "mean": "sum", "sum": "mean", "sqrt": "square",
         "log_softmax": "softmax", "clip_by_global_norm": "clip", "adam": "sgd", "split": "fold_in",
         "block_until_ready": "device_put", "perf_counter": "process_time", "bernoulli": "uniform"}
#: One-argument calls that may be dropped, their argument kept.
DROPPABLE = {"relu", "sqrt", "block_until_ready", "jit", "int", "float", "stop_gradient"}


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def sites(tree: ast.Module) -> list[tuple[ast.AST, str]]:
    """Every node an edit applies to, with the edit's kind, in source order (inside functions only)."""
    found = []
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        for node in ast.walk(fn):
            if isinstance(node, ast.BinOp) and type(node.op) in BINOPS:
                found.append((node, "binop"))
            elif isinstance(node, ast.Constant) and type(node.value) in (int, float) and not isinstance(
                    node.value, bool):
                found.append((node, "number"))
            elif isinstance(node, ast.keyword) and node.arg in ("axis", "in_axes"):
                found.append((node, "axis"))
            elif isinstance(node, ast.Call):
                name = _name(node.func)
                if name in CALLS:
                    found.append((node, "call"))
                if name in DROPPABLE and len(node.args) == 1 and not node.keywords:
                    found.append((node, "drop"))
                if len(node.args) >= 2 and not any(isinstance(a, ast.Starred) for a in node.args):
                    found.append((node, "swap"))
    return found


def mutate(node: ast.AST, kind: str) -> tuple[ast.AST, str] | None:
    """The node edited, and words for the edit; None when the edit does not apply."""
    new = copy.deepcopy(node)
    if kind == "binop":
        new.op = BINOPS[type(node.op)]()
        return new, f"{ast.unparse(node)} became {ast.unparse(new)}"
    if kind == "number":
        value = node.value
        new.value = value + 1 if isinstance(value, int) else (value * 2 if value else 1.0)
        return new, f"the number {value!r} became {new.value!r}"
    if kind == "axis":
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, int):
            new.value = ast.Constant(0 if value.value != 0 else -1)
        elif isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant):  # axis=-1
            new.value = ast.Constant(0)
        elif isinstance(value, ast.Tuple) and value.elts:  # in_axes=(None, 0, 0): the first two swapped
            new.value.elts[0], new.value.elts[1] = value.elts[1], value.elts[0]
        else:
            return None
        return new, f"{node.arg}={ast.unparse(value)} became {node.arg}={ast.unparse(new.value)}"
    if kind == "call":
        name = _name(node.func)
        target = new.func
        if isinstance(target, ast.Attribute):
            target.attr = CALLS[name]
        else:
            target.id = CALLS[name]
        return new, f"{ast.unparse(node.func)} became {ast.unparse(new.func)}"
    if kind == "drop":
        return new.args[0], f"{ast.unparse(node)} became {ast.unparse(node.args[0])}"
    if kind == "swap":
        if ast.unparse(new.args[0]) == ast.unparse(new.args[1]):
            return None
        new.args[0], new.args[1] = new.args[1], new.args[0]
        return new, f"the first two arguments of {ast.unparse(node.func)} swapped"
    return None


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST, replacement: ast.AST):
        self.target, self.replacement = target, replacement

    def visit(self, node):
        if node is self.target:
            return self.replacement
        return super().visit(node)


def mutants(source: str) -> list[tuple[str, str]]:
    """(words, source) for every edit of ``source`` that changes its text."""
    out, seen = [], {ast.unparse(ast.parse(source))}
    for index in range(len(sites(ast.parse(source)))):
        tree = ast.parse(source)
        node, kind = sites(tree)[index]
        edited = mutate(node, kind)
        if edited is None:
            continue
        replacement, words = edited
        text = ast.unparse(ast.fix_missing_locations(_Replace(node, replacement).visit(tree)))
        if text not in seen:
            seen.add(text)
            out.append((f"line {node.lineno}: {words}", text))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", default="ex1,ex2,ex3,ex4,ex5")
    args = parser.parse_args()
    folder = args.out / "mistakes"
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted((ROOT / "reference").glob("ex*.py")):
        if path.stem.split("_")[0] not in args.only.split(","):
            continue
        for i, (words, text) in enumerate(mutants(path.read_text(encoding="utf-8")), start=1):
            (folder / f"{path.stem}__m{i:03d}.py").write_text(f"# WHAT: {words}\n{text}\n", encoding="utf-8")
            count += 1
    print(f"{count} mutants written to {folder}")


if __name__ == "__main__":
    main()
