"""Reproduce a failed value check in Python: the inputs, the call, and what to compare.

Each value check has a :class:`Recipe`, keyed by check id, in its exercise's
package (``grader/exercises/<id>/reproduce.py``): which of the grader's public
inputs it calls the student's function on (by their place in
:func:`grader.inputs.build` and their seed), the call, and the expected value
computed independently (numpy, :mod:`grader.checks.npref`). After grading,
:func:`annotate` attaches to each failed value check a plain-data
description: the snippet, the inputs' names, shapes and kinds, and the first
values that differ from the reference run. The recipes live apart from the
checks, so a check's wording can change without touching them.

Under secret inputs (graded with a seed the student does not know) the
description gives shapes and kinds only, never values nor the seed: the
snippet builds random inputs of the same shapes with :func:`like`.

The helpers the snippets call (:func:`as_jax`, :func:`mismatch`, :func:`like`)
are public; this module imports jax only inside :func:`as_jax`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Callable

import numpy as np

from grader import inputs as grader_inputs
from grader.checks.compare import tree_mismatch
from grader.exercises import ALL

MAX_DIFFERENCES = 5
#: The comment after a snippet's ``print(mismatch(...))``.
COMPARE_NOTE = "# None means they agree; otherwise what differs, worded as the grader words it"
#: The import line of a snippet that computes the expected value in numpy.
NPREF = "from grader.checks import npref"


# --- helpers the snippets call ---------------------------------------------------------------

def as_jax(tree: Any) -> Any:
    """Numpy leaves to JAX arrays, keeping every dict's key order (as the grader's probes pass them)."""
    import jax.numpy as jnp

    if isinstance(tree, dict):
        return {name: as_jax(value) for name, value in tree.items()}
    return jnp.asarray(tree)


def flat(tree: Any, prefix: str = "") -> Any:
    """``{"layer1": {"w": a}}`` -> ``{"layer1/w": a}`` (numpy); tuples and lists by position; an array as is."""
    if isinstance(tree, dict) or isinstance(tree, (tuple, list)) or hasattr(tree, "_fields"):
        items = tree.items() if isinstance(tree, dict) else enumerate(tree)
        out: dict[str, np.ndarray] = {}
        for name, value in items:
            inner = flat(value, f"{prefix}{name}/")
            out.update(inner if isinstance(inner, dict) else {f"{prefix}{name}": inner})
        return out
    return np.asarray(tree)


def mismatch(got: Any, want: Any, rtol: float = 1e-4, atol_scale: float = 1e-5) -> str | None:
    """``None`` when ``got`` equals ``want`` to the grader's tolerance, else what differs (trees or arrays)."""
    return tree_mismatch(flat(got), flat(want), rtol=rtol, atol_scale=atol_scale)


def like(spec: Any, seed: int = 0) -> Any:
    """Random inputs shaped as ``spec`` (nested dicts of ``(shape, dtype)``), for when the real ones are secret."""
    rng = np.random.default_rng(seed)

    def build(node: Any) -> Any:
        if isinstance(node, dict):
            return {name: build(value) for name, value in node.items()}
        shape, dtype = node
        if np.dtype(dtype).kind in "iu":
            return rng.integers(0, 10, shape).astype(dtype)
        return (rng.standard_normal(shape) * 0.5).astype(dtype)

    return build(spec)


# --- the recipes -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Recipe:
    """How to see one value check fail.

    ``cases`` are ``(label, inputs path, observation)``: the path in
    ``build()`` of the case's inputs (``ex3/d12``) and the name of the
    observation that the grader compared for it. ``code`` is the snippet's
    body (after the line that builds ``case``), with ``{function}`` and
    ``{case_label}`` filled in.
    """

    function: str
    module: str
    cases: tuple[tuple[str, str, str], ...]
    code: str
    compare_reference: bool = True
    """Whether the observation is compared with the reference run's (not for random masks)."""
    extra_imports: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    """The entries of the case the call reads (all when empty), for the description of the inputs."""
    fill: Callable[[str], dict[str, Any]] | None = None
    """More fields for ``code``, from the case's observation name (a dropout rate, an optimizer's arguments)."""
    tree_kind: str = ""
    """What every leaf of the case is, when the case is one tree (per-example gradients)."""


@lru_cache(maxsize=1)
def recipes() -> dict[str, Recipe]:
    """Every exercise's recipes, by check id."""
    found: dict[str, Recipe] = {}
    for exercise in ALL:
        if exercise.has_recipes:
            found.update(importlib.import_module(f"{exercise.package}.reproduce").RECIPES)
    return found


# --- building the description ----------------------------------------------------------------

def _lookup(inputs: dict[str, Any], path: str) -> Any:
    node = inputs
    for part in path.split("/"):
        node = node[part]
    return node


def _used(case: Any, uses: tuple[str, ...]) -> Any:
    return {k: v for k, v in case.items() if k in uses} if uses and isinstance(case, dict) else case


def _kind(name: str, value: np.ndarray, tree_kind: str) -> str:
    leaf = name.rsplit("/", 1)[-1]
    if tree_kind:
        return tree_kind
    if value.dtype.kind in "iu":
        return "int labels"
    return {"w": "weights", "b": "biases"}.get(leaf, "float inputs")


def describe_inputs(case: Any, tree_kind: str = "") -> list[dict[str, Any]]:
    """Every array of a case: its name (``params/layer1/w``), shape, dtype and kind; no values.

    ``tree_kind`` names what every leaf is when the case is one tree (per-example gradients).
    """
    leaves = flat(case) if isinstance(case, dict) else {"x": np.asarray(case)}
    return [{"name": name, "shape": list(v.shape), "dtype": str(v.dtype), "kind": _kind(name, v, tree_kind)}
            for name, v in leaves.items()]


def _spec(case: Any) -> Any:
    if isinstance(case, dict):
        return {name: _spec(value) for name, value in case.items()}
    value = np.asarray(case)
    return (tuple(value.shape), str(value.dtype))


def snippet(check_id: str, case_index: int, inputs: dict[str, Any], *, submission_kind: str = "folder",
            module: str | None = None, secret: bool = False) -> str:
    """The Python a student pastes to see ``check_id`` fail on its ``case_index``-th case."""
    recipe = recipes()[check_id]
    label, path, observation = recipe.cases[case_index]
    task, _, rest = path.partition("/")
    index = "".join(f"[{part!r}]" for part in [task, *rest.split("/")] if part)
    lines = [f"# {check_id}: {label}" if len(recipe.cases) > 1 else f"# {check_id}", "import numpy as np",
             *recipe.extra_imports, "from grader.reproduce import as_jax, flat, mismatch"]
    if submission_kind in ("ipynb", "kernel"):
        lines.append(f"# run this in your notebook, after the cell that defines {recipe.function}")
    else:
        lines.append(f"from {module or recipe.module} import {recipe.function}  # run in your submission's folder")
    if secret:
        spec = _spec(_used(_lookup(inputs, path), recipe.uses))
        lines += ["from grader.reproduce import like",
                  "# the grade used secret inputs: these random ones have the same shapes and kinds",
                  f"case = as_jax(like({spec!r}))"]
    else:
        lines += ["from grader.inputs import build",
                  f"case = as_jax(build(){index})  # the grader's public inputs (grader/inputs.py, "
                  f"numpy seed {grader_inputs.public_seed(task)})"]
    fill: dict[str, Any] = {"function": recipe.function, "case_label": label}
    if recipe.fill is not None:
        fill.update(recipe.fill(observation))
    lines.append(recipe.code.format(**fill))
    return "\n".join(lines) + "\n"


def _pick(recipe: Recipe, student: Any, reference: Any) -> int:
    """The first case the student got wrong (raised, or differs from the reference run); else the first."""
    for i, (_, _, name) in enumerate(recipe.cases):
        if name in student.errors:
            return i
        if recipe.compare_reference and name in student.values and name in reference.values:
            try:
                if mismatch(student.values[name], reference.values[name]) is not None:
                    return i
            except (TypeError, ValueError):
                return i
    return 0


def differences(got: Any, want: Any, limit: int = MAX_DIFFERENCES) -> list[dict[str, Any]]:
    """The first elements that differ: ``{"leaf", "index", "got", "want"}`` each, or shapes that differ."""
    got_flat, want_flat = flat(got), flat(want)
    got_flat = got_flat if isinstance(got_flat, dict) else {"": got_flat}
    want_flat = want_flat if isinstance(want_flat, dict) else {"": want_flat}
    found: list[dict[str, Any]] = []
    for leaf, w in want_flat.items():
        if leaf not in got_flat:
            found.append({"leaf": leaf, "index": None, "got": "missing", "want": f"shape {list(np.shape(w))}"})
            continue
        g, w = np.asarray(got_flat[leaf], np.float64), np.asarray(w, np.float64)
        if g.shape != w.shape:
            found.append({"leaf": leaf, "index": None, "got": f"shape {list(g.shape)}", "want": f"shape {list(w.shape)}"})
        else:
            atol = 1e-5 * float(np.max(np.abs(w), initial=0.0)) + 1e-7
            for index in np.argwhere(~np.isclose(g, w, rtol=1e-4, atol=atol))[: limit - len(found)]:
                at = tuple(int(i) for i in index)
                found.append({"leaf": leaf, "index": list(at), "got": float(g[at]), "want": float(w[at])})
        if len(found) >= limit:
            break
    return found[:limit]


def reproduction(check_id: str, student: Any, reference: Any, inputs: dict[str, Any], *,
                 submission_kind: str = "folder", module: str | None = None,
                 secret: bool = False) -> dict[str, Any] | None:
    """The plain-data reproduction of a failed check, or ``None`` when it is not a value check."""
    recipe = recipes().get(check_id)
    if recipe is None:
        return None
    index = _pick(recipe, student, reference)
    label, path, observation = recipe.cases[index]
    data: dict[str, Any] = {
        "case": label, "inputs_path": path, "observation": observation, "secret": secret,
        "function": recipe.function,
        "inputs": describe_inputs(_used(_lookup(inputs, path), recipe.uses), recipe.tree_kind),
        "snippet": snippet(check_id, index, inputs, submission_kind=submission_kind, module=module, secret=secret),
        "differences": [],
    }
    if secret:
        return data
    data["seed"] = grader_inputs.public_seed(path.split("/")[0])
    if observation in student.errors:
        error = student.errors[observation]
        data["raised"] = f"{error.type}: {error.message}"[:600]
    elif recipe.compare_reference and observation in student.values and observation in reference.values:
        try:
            data["differences"] = differences(student.values[observation], reference.values[observation])
        except (TypeError, ValueError):
            pass
    return data


def annotate(results: list, observed: dict[str, Any], reference: dict[str, Any], inputs: dict[str, Any], *,
             submission_kind: str = "folder", module: str | None = None, secret: bool = False) -> list:
    """``results`` with a reproduction on each failed value check (status ``fail``)."""
    out = []
    for result in results:
        obs = observed.get(result.exercise)
        if result.status == "fail" and result.id in recipes() and obs is not None:
            try:
                data = reproduction(result.id, obs, reference.get(result.exercise, _EMPTY), inputs,
                                    submission_kind=submission_kind, module=module, secret=secret)
            except Exception:  # noqa: BLE001 - a reproduction is a courtesy: never lose the grade over it
                data = None
            if data is not None:
                result = replace(result, reproduce=data)
        out.append(result)
    return out


class _Nothing:
    values: dict = {}
    errors: dict = {}


_EMPTY = _Nothing()


def _input_lines(specs: list[dict[str, Any]]) -> list[str]:
    """One line per input array; ``grads/1/...`` to ``grads/5/...`` folded when shaped like ``grads/0/...``."""
    lines, first_of = [], {}
    folded: dict[str, list[str]] = {}
    for spec in specs:
        parts = spec["name"].split("/")
        if len(parts) > 2 and parts[1].isdigit():
            key = (parts[0], "/".join(parts[2:]))
            if key in first_of and first_of[key] == (spec["shape"], spec["dtype"]):
                folded.setdefault(parts[0], [])
                if parts[1] not in folded[parts[0]]:
                    folded[parts[0]].append(parts[1])
                continue
            first_of[key] = (spec["shape"], spec["dtype"])
        lines.append(f"  {spec['name']:<24} {spec['kind']:<22} shape {tuple(spec['shape'])} {spec['dtype']}")
    for prefix, indices in folded.items():
        lines.append(f"  {prefix}/{indices[0]} to {prefix}/{indices[-1]}: the same shapes as {prefix}/0")
    return lines


def explain_text(check: Any) -> str:
    """The full explanation of one check result, for ``python -m grader explain``."""
    lines = [f"{check.id} ({check.status}, {check.score:g}/{check.max_score:g}): {check.name}"]
    if check.message:
        lines.append(f"  {check.message}")
    if check.hint:
        lines.append(f"  hint: {check.hint}")
    data = check.reproduce
    if check.status == "pass":
        lines.append("\nThis check passes: nothing to reproduce.")
        return "\n".join(lines) + "\n"
    if not data:
        lines.append("\nThis check judges a property of how the code runs (not one value on one input), so it has "
                     "no snippet; the message above says what was seen.")
        return "\n".join(lines) + "\n"
    where = "secret inputs (shapes and kinds only)" if data.get("secret") else (
        f"public inputs {data['inputs_path']} (grader/inputs.py, numpy seed {data.get('seed')})")
    lines.append(f"\nThe failing case: {data['case']}, on {where}:")
    lines += _input_lines(data["inputs"])
    if data.get("raised"):
        lines.append(f"\nYour {data['function']} raised {data['raised']}")
    if data.get("differences"):
        lines.append(f"\nFirst values that differ from the reference ({data['observation']}):")
        for d in data["differences"]:
            at = f"{d['leaf'] or 'value'}{'' if d['index'] is None else d['index']}"
            got, want = (f"{v:.6g}" if isinstance(v, float) else str(v) for v in (d["got"], d["want"]))
            lines.append(f"  {at:<28} got {got:<14} expected {want}")
    lines.append("\nPaste this into Python to see it yourself:\n")
    lines.append(data["snippet"])
    return "\n".join(lines)
