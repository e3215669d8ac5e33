"""Exercise 2 observations: per-example grads, norms of a given tree, the argmax, jaxpr growth."""

import jax

from grader.harness.jaxpr_tools import jaxpr_stats
from grader.harness.probes._common import as_jax, no_leaks, snapshot
from grader import data as grader_data
from grader.protocol import EX2_LESSON_IMAGES

CASES = ("small", "lesson", "single")


def _describe_index(value):
    """The returned index as data: its Python type and its value if it is one number."""
    try:
        number = int(value) if getattr(value, "size", 1) == 1 else None
    except (TypeError, ValueError):
        number = None
    return {"type": type(value).__module__ + "." + type(value).__qualname__, "value": number}


def prepare(inputs, options):
    """The lesson's batch of MNIST images, loaded before the grader's packages are hidden."""
    split = grader_data.embedded_split()
    inputs["ex2"]["mnist"] = {"x": split.x_train[:EX2_LESSON_IMAGES], "y": split.y_train[:EX2_LESSON_IMAGES]}


def _lesson_logits(params, x):
    """The lesson MLP's logits, computed by the harness (not the student), for the prediction and loss shown."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for i, name in enumerate(names):
        x = x @ params[name]["w"] + params[name]["b"]
        if i < len(names) - 1:
            x = jax.nn.relu(x)
    return x


def probe(rec, modules, inputs, options):
    m = modules["ex2_per_example_grads"]
    data = as_jax(inputs["ex2"])
    for case in CASES:
        c = data[case]
        rec.record(f"grads/{case}", lambda c=c: m.per_example_grads(c["params"], c["x"], c["y"]))
        rec.record(f"largest/{case}", lambda c=c: _describe_index(m.largest_gradient_example(c["params"], c["x"], c["y"])))
    rec.record("norms/tree", lambda: m.per_example_grad_norms(data["norm_tree"]))

    small = data["small"]
    rec.record("again/grads", lambda: m.per_example_grads(small["params"], small["x"], small["y"]))
    rec.record("jit/grads", lambda: no_leaks(jax.jit(m.per_example_grads), small["params"], small["x"], small["y"]))
    rec.record("jit/norms", lambda: no_leaks(jax.jit(m.per_example_grad_norms), data["norm_tree"]))
    for b in (2, 16):
        v = data[f"vec{b}"]
        rec.record(f"vector/b{b}", lambda v=v: jaxpr_stats(m.per_example_grads, v["params"], v["x"], v["y"]))
    for case in CASES:
        rec.record(f"input/params_after/{case}", lambda case=case: snapshot(data[case]["params"]))

    # The lesson's question, as the lesson asks it (shown, not scored): which of 32 MNIST images has the
    # largest gradient at the initial params? Compiled as one program each: run eagerly, these new shapes
    # would cost a compilation per operation, about a second and a half of every ex2 grade.
    if "mnist" in data:
        lesson, params = data["mnist"], as_jax(inputs["accuracy"]["params"])
        rec.record("mnist/logits", lambda: _compiled_or_eager(_lesson_logits, params, lesson["x"]))
        rec.record("mnist/norms", lambda: _compiled_or_eager(
            lambda p, x, y: m.per_example_grad_norms(m.per_example_grads(p, x, y)), params, lesson["x"], lesson["y"]))


def _compiled_or_eager(fn, *args):
    """``fn(*args)`` under ``jax.jit``, or called as it is if it cannot be traced (what it raises then is recorded)."""
    try:
        return jax.jit(fn)(*args)
    except Exception:  # noqa: BLE001 - untraceable student code: the eager call says what is wrong, if anything
        return fn(*args)
