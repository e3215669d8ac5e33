"""Exercise 2 observations: per-example grads, norms of a given tree, the argmax, jaxpr growth."""

import contextlib

import jax
import jax.numpy as jnp
import numpy as np

from grader.harness.compiled import compiled_or_eager
from grader.harness.jaxpr_tools import jaxpr_stats
from grader.harness.probe_tools import as_jax, no_leaks, parameters, snapshot
from grader import data as grader_data
from grader.exercises.ex2.shared import GRAD_CASES as CASES
from grader.exercises.ex2.shared import (LARGE_INPUTS, LARGEST_CASES, LEAF_UNIT_PLACES, LESSON_IMAGES, SAME_PARAMS,
                                         BOUNDARY_CASES, MANY_EXAMPLES, NUM_CLASSES, OTHER_PARAMS_SCALE, RELABEL_SHIFT,
                                         TINY_SCALE, VECTOR_BATCHES, ZERO_EXAMPLE)
from grader.protocol import SKIP_LESSON


def _describe_index(value):
    """The returned index as data: its Python type and its value if it is one number."""
    try:
        number = int(value) if getattr(value, "size", 1) == 1 else None
    except (TypeError, ValueError):
        number = None
    described = {"type": type(value).__module__ + "." + type(value).__qualname__, "value": number}
    if isinstance(value, (tuple, list)) and 0 < len(value) <= 4:  # an index returned with other things
        described["items"] = [_describe_index(item) for item in value]
    return described


def _own_norms(grads):
    """Each example's gradient norm, as the student's per_example_grads gives the gradients."""
    leaves = jax.tree.leaves(grads)
    return jnp.sqrt(sum(jnp.sum(jnp.reshape(leaf, (leaf.shape[0], -1)) ** 2, axis=1) for leaf in leaves))


def _paths(tree) -> list[str]:
    """Where each leaf of ``tree`` sits (``['layer1']['w']``): nesting that flattened observations do not keep."""
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(tree)[0]]


def _unit_tree(like):
    """A per-example gradient tree shaped like ``like`` (six examples), its examples as ``UNIT_EXAMPLES`` says."""
    tree = jax.tree.map(lambda leaf: np.zeros(leaf.shape, np.float32), like)
    first, second = tree["layer1"]["w"], tree["layer2"]["b"]
    first[0].flat[0], first[1].flat[0], first[4].flat[0] = 1.0, -1.0, 2.0
    first[2].flat[0], first[2].flat[1] = 1.0, -1.0
    first[3].flat[0], second[3].flat[0] = 1.0, 1.0
    return jax.tree.map(jnp.asarray, tree)


def _leaf_unit_tree(like):
    """A per-example gradient tree shaped like ``like`` (six examples), each example a single 1 at the place
    ``LEAF_UNIT_PLACES`` says: the first entry of every leaf and the last of each weight matrix."""
    tree = jax.tree.map(lambda leaf: np.zeros(leaf.shape, np.float32), like)
    for k, (layer, leaf, index) in enumerate(LEAF_UNIT_PLACES):
        tree[layer][leaf][k].flat[index] = 1.0
    return jax.tree.map(jnp.asarray, tree)


def _tiny_tree(tree):
    """The norm tree scaled by ``TINY_SCALE``, example ``ZERO_EXAMPLE``'s gradient all zero (made on the host)."""
    def tiny(leaf):
        leaf = np.asarray(leaf, np.float32) * np.float32(TINY_SCALE)
        leaf[ZERO_EXAMPLE] = 0.0
        return jnp.asarray(leaf)
    return jax.tree.map(tiny, tree)


def _many_tree(tree):
    """The norm tree's examples tiled to MANY_EXAMPLES, example i scaled by 1 + i / MANY_EXAMPLES (made on the
    host)."""
    scale = 1.0 + np.arange(MANY_EXAMPLES, dtype=np.float32) / MANY_EXAMPLES

    def many(leaf):
        leaf = np.asarray(leaf, np.float32)
        tiled = np.resize(leaf, (MANY_EXAMPLES, *leaf.shape[1:]))  # examples 0..5, 0..5, ... in order
        return jnp.asarray(tiled * scale.reshape(-1, *(1,) * (leaf.ndim - 1)))
    return jax.tree.map(many, tree)


@contextlib.contextmanager
def _own_calls_compiled(module, names):
    """While the block runs, the module's own calls of its functions ``names`` run compiled where they may
    (:func:`compiled_or_eager`: the same values, and the programs its earlier calls compiled): largest_gradient_example
    returns a Python int as often as not, so it runs op by op, and its gradients would otherwise be computed op
    by op again, one program per operation."""
    own = {name: getattr(module, name) for name in names if callable(getattr(module, name, None))}

    def compiled(fn):
        def call(*args, **kwargs):
            return fn(*args, **kwargs) if kwargs else compiled_or_eager(fn, *args)
        return call

    for name, fn in own.items():
        setattr(module, name, compiled(fn))
    try:
        yield
    finally:
        for name, fn in own.items():
            setattr(module, name, fn)


def prepare(inputs, options):
    """The lesson's batch of MNIST images, loaded before the grader's packages are hidden."""
    split = grader_data.embedded_split()
    inputs["ex2"]["mnist"] = {"x": split.x_train[:LESSON_IMAGES], "y": split.y_train[:LESSON_IMAGES]}


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

    # each call as one compiled program where that gives what the call op by op gives (compiled_or_eager)
    def grads_of(params, x, y):
        return compiled_or_eager(m.per_example_grads, params, x, y)

    def norms_of(grads):
        return compiled_or_eager(m.per_example_grad_norms, grads)

    def largest_of(params, x, y):
        with _own_calls_compiled(m, ("per_example_grads", "per_example_grad_norms")):
            return m.largest_gradient_example(params, x, y)

    # Before anything else, the norms of one tree twice: the second call must give the first's (what is kept
    # from one call to the next shows here, while the first call is still a fresh one's).
    for name in ("norms/first", "norms/second"):
        rec.record(name, lambda: m.per_example_grad_norms(data["norm_tree"]))
    grads = {}
    for case in CASES:
        c = data[case]
        grads[case] = rec.record(f"grads/{case}", lambda c=c: grads_of(c["params"], c["x"], c["y"]))
    small = data["small"]  # ... and on the small batch's shapes with large logits (see LARGE_INPUTS)
    rec.record("measure/large_logits", lambda: grads_of(small["params"], small["x"] * LARGE_INPUTS, small["y"]))
    for case in LARGEST_CASES:
        c = {**data[case], "params": data[SAME_PARAMS[case]]["params"]} if case in SAME_PARAMS else data[case]
        rec.record(f"largest/{case}", lambda c=c: _describe_index(largest_of(c["params"], c["x"], c["y"])))
        if case not in CASES:  # where the gradients are not observed, their norms are
            rec.record(f"own_norms/{case}", lambda c=c: _own_norms(grads_of(c["params"], c["x"], c["y"])))
    small = data["small"]
    if hasattr(m, "forward"):  # the module's given code at the small batch: what its gradients differentiate
        rec.record("forward/own", lambda: m.forward(small["params"], small["x"]))
    if hasattr(m, "loss_fn"):
        rec.record("loss/own", lambda: jnp.asarray(m.loss_fn(small["params"], small["x"], small["y"]),
                                                   jnp.float32).reshape(()))
    rec.record("parameters/per_example_grad_norms", lambda: parameters(m.per_example_grad_norms))
    rec.record("norms/tree", lambda: norms_of(data["norm_tree"]))
    rec.record("norms/unit", lambda: norms_of(_unit_tree(data["norm_tree"])))
    rec.record("norms/leaf_units", lambda: norms_of(_leaf_unit_tree(data["norm_tree"])))
    rec.record("norms/tiny", lambda: norms_of(_tiny_tree(inputs["ex2"]["norm_tree"])))
    # a gradient tree of one example (every leaf's B=1), shaped as the single case's gradients are: the argmax asked
    # about that case below runs the norms on these shapes again, and nothing new compiles there
    one = as_jax(jax.tree.map(lambda leaf: np.asarray(leaf)[None], inputs["ex2"]["single"]["params"]))
    rec.record("norms/single", lambda: norms_of(one))
    rec.record("norms/many", lambda: norms_of(_many_tree(inputs["ex2"]["norm_tree"])))
    for case in BOUNDARY_CASES:  # a batch of one; the model sure of every label: tiny gradients, then zero ones
        c = data[case]
        rec.record(f"largest/{case}", lambda c=c: _describe_index(largest_of(c["params"], c["x"], c["y"])))
    if grads["small"] is not None:  # where the leaves of the small batch's gradients sit, read off them
        rec.record("grads/paths", lambda: _paths(grads["small"]))

    rec.record("again/grads", lambda: m.per_example_grads(small["params"], small["x"], small["y"]))
    # the same x again with other labels, then with other params: nothing of the calls before may be reused
    rec.record("again/relabelled", lambda: m.per_example_grads(small["params"], small["x"],
                                                               (small["y"] + RELABEL_SHIFT) % NUM_CLASSES))
    rec.record("again/other_params", lambda: m.per_example_grads(
        as_jax(jax.tree.map(lambda a: a * np.float32(OTHER_PARAMS_SCALE), inputs["ex2"]["small"]["params"])),
        small["x"], small["y"]))
    rec.record("jit/grads", lambda: no_leaks(jax.jit(m.per_example_grads), small["params"], small["x"], small["y"]))
    rec.record("jit/norms", lambda: no_leaks(jax.jit(m.per_example_grad_norms), data["norm_tree"]))
    for b in VECTOR_BATCHES:
        v = data[f"vec{b}"]
        rec.record(f"vector/b{b}", lambda v=v: jaxpr_stats(m.per_example_grads, v["params"], v["x"], v["y"]))
    for case in CASES:
        rec.record(f"input/params_after/{case}", lambda case=case: snapshot(data[case]["params"]))

    # The lesson's question, as the lesson asks it (shown, not scored): which of 32 MNIST images has the
    # largest gradient at the initial params? Asked in batches of the scored lesson case's size, so the student's
    # functions see shapes they have already run on: eager JAX compiles each operation once per shape, and 32
    # images at once would cost a new compilation per operation (about a second and a half of every ex2 grade).
    if "mnist" in data and SKIP_LESSON not in options:
        lesson, params = data["mnist"], as_jax(inputs["accuracy"]["params"])

        def _norms_of_grads(p, x, y):
            return m.per_example_grad_norms(m.per_example_grads(p, x, y))

        size = data["lesson"]["x"].shape[0]
        rec.record("mnist/logits", lambda: jax.jit(_lesson_logits)(params, lesson["x"]))
        rec.record("mnist/norms", lambda: _in_batches(
            lambda x, y: compiled_or_eager(_norms_of_grads, params, x, y,
                                           owners=(m.per_example_grads, m.per_example_grad_norms)),
            lesson["x"], lesson["y"], size))


def _in_batches(fn, x, y, size):
    """``fn`` on ``size`` examples at a time, results concatenated (the last batch is filled up with the first
    examples, whose results are dropped). The batches are cut on the host: slicing on the device would compile."""
    x, y = np.asarray(x), np.asarray(y)
    n = x.shape[0]
    index = np.arange(-(-n // size) * size) % n
    x, y = x[index], y[index]
    parts = [np.asarray(fn(jnp.asarray(x[i:i + size]), jnp.asarray(y[i:i + size]))).reshape(-1)
             for i in range(0, len(index), size)]
    return np.concatenate(parts)[:n]
