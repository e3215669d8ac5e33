"""The student stubs in exercises/: importable, unsolved, and shaped like the contract.

Every exercise function must raise NotImplementedError with a message that
names it and sends the student to its docstring; its signature must be the
contract's and the reference's; and no stub may ship a piece of the solution.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = ROOT / "exercises"
REFERENCE = ROOT / "reference"
CONTRACT = ROOT.parent / "shared" / "spec" / "CONTRACT.md"

#: The exercise API, as written in the contract (section 1).
CONTRACT_SIGNATURES = {
    "ex1_dropout": ["dropout(key, x, rate, train=True)",
                    "forward_with_dropout(params, x, key, rate=0.5, train=True)"],
    "ex2_per_example_grads": ["per_example_grads(params, x, y)", "per_example_grad_norms(grads)",
                              "largest_gradient_example(params, x, y)"],
    "ex3_mlp_forward": ["mlp_forward(params, x)"],
    "ex4_jit_speedup": ["time_steps(step_fn, params, opt_state, x, y, n_steps=100)", "jit_speedup(n_steps=100)"],
    "ex5_clipping": ["make_optimizer(learning_rate=1e-3, max_norm=1.0)", "make_train_step(optimizer)"],
}
MODULES = list(CONTRACT_SIGNATURES)
FUNCTIONS = [(module, text.split("(")[0]) for module, texts in CONTRACT_SIGNATURES.items() for text in texts]

#: Code the stubs give the student (the lesson's model, loss, optimizer and step).
GIVEN = {
    "ex1_dropout": {"forward"},
    "ex2_per_example_grads": {"forward", "loss_fn"},
    "ex3_mlp_forward": set(),
    "ex4_jit_speedup": {"init_params", "forward", "loss_fn", "train_step"},
    "ex5_clipping": {"forward", "loss_fn"},
}

#: APIs that are the answer to an exercise: none may appear in its stub's code.
SOLUTION_APIS = {
    "ex1_dropout": {"jax.random.bernoulli", "jax.random.split", "jax.random.uniform", "jax.random.fold_in",
                    "jnp.where"},
    "ex2_per_example_grads": {"jax.vmap", "jax.grad", "jax.value_and_grad", "optax.global_norm",
                              "optax.tree.norm", "jnp.linalg.norm", "jnp.argmax"},
    "ex3_mlp_forward": {"jax.tree.leaves", "jax.tree_util.tree_leaves", "jax.tree.structure", "jax.nn.relu",
                        "sorted"},
    "ex4_jit_speedup": {"time.perf_counter", "time.time", "time.monotonic", "jax.block_until_ready", "jax.jit"},
    "ex5_clipping": {"optax.chain", "optax.clip_by_global_norm", "optax.adam", "optax.apply_updates", "jax.jit",
                     "jax.value_and_grad", "jax.grad"},
}
ALLOWED_IMPORTS = {"jax", "optax", "numpy"} | set(sys.stdlib_module_names)


def load(folder: Path, module: str):
    spec = importlib.util.spec_from_file_location(f"{folder.name}_under_test_{module}", folder / f"{module}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def parse(folder: Path, module: str) -> ast.Module:
    return ast.parse((folder / f"{module}.py").read_text(encoding="utf-8"))


def top_level_functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[1:]
    return body


def dotted(node: ast.AST) -> str | None:
    """``jax.random.split`` for an attribute chain or a bare name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def contract_parameters(text: str) -> list[tuple[str, object]]:
    """``f(a, b=1e-3)`` -> ``[("a", EMPTY), ("b", 0.001)]``."""
    args = ast.parse(f"def {text}: pass").body[0].args
    defaults = [inspect.Parameter.empty] * (len(args.args) - len(args.defaults)) + \
        [ast.literal_eval(d) for d in args.defaults]
    return [(a.arg, d) for a, d in zip(args.args, defaults)]


@pytest.mark.parametrize("module", MODULES)
def test_stub_imports(module):
    mod = load(EXERCISES, module)
    for _, name in (f for f in FUNCTIONS if f[0] == module):
        assert callable(getattr(mod, name, None)), f"{module}.py lacks {name}"
        assert (getattr(mod, name).__doc__ or "").strip(), f"{name} has no docstring to point at"


@pytest.mark.parametrize("module,name", FUNCTIONS, ids=[f"{m}.{n}" for m, n in FUNCTIONS])
def test_stub_raises_not_implemented_pointing_at_its_docstring(module, name):
    fn = getattr(load(EXERCISES, module), name)
    required = [p for p in inspect.signature(fn).parameters.values() if p.default is inspect.Parameter.empty]
    with pytest.raises(NotImplementedError) as info:
        fn(*[None] * len(required))
    message = str(info.value)
    assert f"{name} is not implemented yet" in message
    assert "docstring" in message and f"{module}.py" in message


@pytest.mark.parametrize("module,name", FUNCTIONS, ids=[f"{m}.{n}" for m, n in FUNCTIONS])
def test_signatures_match_reference_and_contract(module, name):
    stub = inspect.signature(getattr(load(EXERCISES, module), name))
    reference = inspect.signature(getattr(load(REFERENCE, module), name))
    assert stub == reference
    text = next(t for t in CONTRACT_SIGNATURES[module] if t.split("(")[0] == name)
    got = [(p.name, p.default) for p in stub.parameters.values()]
    assert got == contract_parameters(text)
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in stub.parameters.values())
    if CONTRACT.is_file():  # the shared spec beside the checkout, when there is one
        assert f"`{text}`" in CONTRACT.read_text(encoding="utf-8")


@pytest.mark.parametrize("module", MODULES)
def test_student_functions_hold_nothing_but_the_raise(module):
    functions = top_level_functions(parse(EXERCISES, module))
    for _, name in (f for f in FUNCTIONS if f[0] == module):
        body = without_docstring(functions[name].body)
        assert len(body) == 1 and isinstance(body[0], ast.Raise), f"{name} has code besides its raise"
        call = body[0].exc
        assert isinstance(call, ast.Call) and dotted(call.func) == "NotImplementedError"


@pytest.mark.parametrize("module", MODULES)
def test_stub_defines_only_the_exercise_and_the_given_code(module):
    names = set(top_level_functions(parse(EXERCISES, module)))
    expected = {n for m, n in FUNCTIONS if m == module} | GIVEN[module]
    assert names == expected, "a stub gained or lost a function: keep solutions out of exercises/"


@pytest.mark.parametrize("module", MODULES)
def test_stub_code_uses_no_solution_api(module):
    tree = parse(EXERCISES, module)
    used = {dotted(node) for node in ast.walk(tree) if isinstance(node, (ast.Attribute, ast.Name))}
    assert not used & SOLUTION_APIS[module]


@pytest.mark.parametrize("module", MODULES)
def test_given_code_matches_the_reference(module):
    """The lesson's helpers in a stub are the reference's (docstrings aside)."""
    stub, ref = top_level_functions(parse(EXERCISES, module)), top_level_functions(parse(REFERENCE, module))
    for name in GIVEN[module] & set(ref):
        a, b = (ast.dump(ast.Module(without_docstring(f[name].body), [])) for f in (stub, ref))
        assert a == b, f"{module}.{name} differs between exercises/ and reference/"


@pytest.mark.parametrize("folder", [EXERCISES, REFERENCE], ids=["exercises", "reference"])
@pytest.mark.parametrize("module", MODULES)
def test_imports_only_allowed_modules(folder, module):
    imported = set()
    for node in ast.walk(parse(folder, module)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative import"
            imported.add(node.module.split(".")[0])
    assert imported <= ALLOWED_IMPORTS, imported - ALLOWED_IMPORTS


def test_solution_api_check_has_teeth():
    """The reference uses the APIs the stubs must not (else the lists above are stale)."""
    for module in MODULES:
        tree = parse(REFERENCE, module)
        used = {dotted(node) for node in ast.walk(tree) if isinstance(node, (ast.Attribute, ast.Name))}
        assert used & SOLUTION_APIS[module], module
