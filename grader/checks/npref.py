"""Small numpy re-implementations used to name a student's mistake.

When an answer is wrong, the judges recompute likely wrong variants (layers in
string order, ReLU on the output, clipping after Adam, ...) here, in float64,
and say which one the answer matches. Correctness itself is always judged
against the reference run, never against these.
"""

from __future__ import annotations

from typing import Any, Callable, Container, Iterable, Iterator

import numpy as np

# The small networks the ex3 probe runs live in its package's shared.py, which the child may read (the checks are
# out of its reach); the judge reads the same definition.
from grader.exercises.ex3.shared import GRID  # noqa: F401
from grader.exercises.ex3.shared import layer_prefix as prefix  # noqa: F401
from grader.exercises.ex3.shared import measurement_cases  # noqa: F401

Tree = dict[str, np.ndarray]  # flat "layer1/w" -> array


def layer_number(name: str) -> int:
    """The number in a layer's name: 10 for ``layer10``."""
    return int(name.removeprefix("layer"))


def layer_names(params: dict[str, Any], order: str = "numeric") -> list[str]:
    """The layer names in ``order``: "numeric" (layer2 before layer10), "string" (as text) or "dict" (as listed)."""
    if order == "string":
        return sorted(params)
    if order == "dict":
        return list(params)
    return sorted(params, key=layer_number)


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # 1 / (1 + exp(-x)), without overflow


def identity(x: np.ndarray) -> np.ndarray:
    return x


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def mlp(params: dict[str, Any], x: np.ndarray, order: str = "numeric", out_act: Callable | None = None, *,
        act: Callable[[np.ndarray], np.ndarray] = relu, in_act: Callable | None = None, bias: bool = True,
        bias_after_act: bool = False, output_bias: bool = True, layers: slice = slice(None),
        act_after: Container[int] | None = None) -> np.ndarray:
    """An MLP in float64: ``act`` after every layer run but the last, the layers of ``layers`` in ``order``.

    The keywords describe the usual ways of getting it wrong (another activation,
    one on the input or the output, no bias (or none on the output), the bias after the activation, only
    some layers run, the activation after other layers: those numbered in
    ``act_after``); the defaults are the exercise's forward pass.
    """
    h = np.asarray(x, np.float64)
    if in_act is not None:
        h = in_act(h)
    names = layer_names(params, order)[layers]
    for i, name in enumerate(names):
        z = h @ np.asarray(params[name]["w"], np.float64)
        b = np.asarray(params[name]["b"], np.float64) if bias else 0.0
        if (i == len(names) - 1) if act_after is None else (layer_number(name) not in act_after):
            h = z + b if output_bias or i < len(names) - 1 else z
        else:
            h = act(z) + b if bias_after_act else act(z + b)
    return out_act(h) if out_act else h


def cross_entropy(params: dict[str, Any], x: np.ndarray, y: np.ndarray) -> float:
    logits = mlp(params, x)
    logp = np.log(softmax(logits))
    return float(-np.mean(logp[np.arange(len(y)), y]))


def unflatten(flat: Tree) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for path, value in flat.items():
        node = tree
        *parents, leaf = path.split("/")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return tree


def global_norm(tree: Tree) -> float:
    return float(np.sqrt(sum(float(np.sum(np.asarray(v, np.float64) ** 2)) for v in tree.values())))


def clip_global(tree: Tree, max_norm: float) -> Tree:
    norm = global_norm(tree)
    scale = 1.0 if norm <= max_norm else max_norm / norm
    return {k: np.asarray(v, np.float64) * scale for k, v in tree.items()}


def rescale_to(tree: Tree, max_norm: float) -> Tree:
    """Every gradient scaled to norm ``max_norm``, small ones too: clipping that always triggers."""
    scale = max_norm / global_norm(tree)
    return {k: np.asarray(v, np.float64) * scale for k, v in tree.items()}


def clip_elementwise(tree: Tree, max_norm: float) -> Tree:
    return {k: np.clip(np.asarray(v, np.float64), -max_norm, max_norm) for k, v in tree.items()}


def layer_of(path: str) -> str:
    """The layer a flattened leaf belongs to: ``layer1`` for ``layer1/w``."""
    return path.split("/")[0]


def grouped(tree: Tree, group: Callable[[str], str]) -> dict[str, Tree]:
    """The leaves of ``tree`` in groups, each named by ``group(path)`` (``layer_of``: one group per layer)."""
    groups: dict[str, Tree] = {}
    for k, v in tree.items():
        groups.setdefault(group(k), {})[k] = v
    return groups


def clip_in_groups(tree: Tree, max_norm: float, group: Callable[[str], str]) -> Tree:
    """Each group of leaves (``group(path)`` names it) clipped together by its own norm."""
    return {k: v for part in grouped(tree, group).values() for k, v in clip_global(part, max_norm).items()}


def clip_per_leaf(tree: Tree, max_norm: float) -> Tree:
    """Each leaf clipped by its own norm."""
    return clip_in_groups(tree, max_norm, lambda path: path)


def clip_per_layer(tree: Tree, max_norm: float) -> Tree:
    """Each layer's leaves (``layer1/w`` and ``layer1/b``) clipped together by their own norm."""
    return clip_in_groups(tree, max_norm, layer_of)


def clip_per_kind(tree: Tree, max_norm: float) -> Tree:
    """The weights together, and the biases together, each group clipped by its own norm."""
    return clip_in_groups(tree, max_norm, lambda path: path.split("/")[-1])


def adam_updates(grads_seq: Iterable[Tree], lr: float, pre: Callable[[Tree], Tree] | None = None,
                 post: Callable[[Tree], Tree] | None = None, b1: float = 0.9, b2: float = 0.999,
                 eps: float = 1e-8) -> list[Tree]:
    """optax.adam's updates for a gradient sequence, with optional transforms before/after."""
    m: Tree = {}
    v: Tree = {}
    out = []
    for t, grads in enumerate(grads_seq, start=1):
        g = pre(grads) if pre else {k: np.asarray(a, np.float64) for k, a in grads.items()}
        m = {k: b1 * m.get(k, 0.0) + (1 - b1) * g[k] for k in g}
        v = {k: b2 * v.get(k, 0.0) + (1 - b2) * g[k] ** 2 for k in g}
        u = {k: -lr * (m[k] / (1 - b1**t)) / (np.sqrt(v[k] / (1 - b2**t)) + eps) for k in g}
        out.append(post(u) if post else u)
    return out


def sgd_updates(grads_seq: Iterable[Tree], lr: float, pre: Callable[[Tree], Tree] | None = None) -> list[Tree]:
    """optax.sgd's updates (-lr * g), with an optional transform first."""
    out = []
    for grads in grads_seq:
        g = pre(grads) if pre else {k: np.asarray(a, np.float64) for k, a in grads.items()}
        out.append({k: -lr * v for k, v in g.items()})
    return out


def _activations(params: dict[str, Any], x: np.ndarray) -> tuple[list[str], list[np.ndarray], list[np.ndarray]]:
    """The MLP's layer names, each layer's input (and the output, last), and each layer's pre-activation."""
    names = layer_names(params)
    hs, pres = [np.asarray(x, np.float64)], []
    for i, name in enumerate(names):
        z = hs[-1] @ np.asarray(params[name]["w"], np.float64) + np.asarray(params[name]["b"], np.float64)
        pres.append(z)
        hs.append(relu(z) if i < len(names) - 1 else z)
    return names, hs, pres


def _backward(params: dict[str, Any], x: np.ndarray, output_grad: Callable[[np.ndarray], np.ndarray]
              ) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """Backpropagation through the MLP, the last layer first: for each layer, its name, its input and the gradient
    with respect to its pre-activation, where ``output_grad(logits)`` is the gradient with respect to the output."""
    names, hs, pres = _activations(params, x)
    dz = output_grad(hs[-1])
    for i in reversed(range(len(names))):
        yield names[i], hs[i], dz
        if i:
            dz = (dz @ np.asarray(params[names[i]]["w"], np.float64).T) * (pres[i - 1] > 0)


def per_example_grads(params: dict[str, Any], x: np.ndarray, targets: np.ndarray) -> Tree:
    """Gradient of each example's cross-entropy against ``targets`` (one-hot or soft), stacked."""
    grads: Tree = {}
    for name, h, dz in _backward(params, x, lambda logits: softmax(logits) - targets):
        grads[f"{name}/w"] = np.einsum("bi,bj->bij", h, dz)
        grads[f"{name}/b"] = dz
    return grads


def output_sum_grads(params: dict[str, Any], x: np.ndarray) -> Tree:
    """Gradient of the sum of the MLP's outputs (over the batch and the classes) with respect to each leaf."""
    grads: Tree = {}
    for name, h, dz in _backward(params, x, np.ones_like):
        grads[f"{name}/w"] = h.T @ dz
        grads[f"{name}/b"] = dz.sum(axis=0)
    return grads


def per_example_grad_norms(params: dict[str, Any], x: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """The norms of :func:`per_example_grads` without building them: example i's weight gradient is the outer
    product of its layer input and its output gradient, whose squared norm is the product of theirs."""
    total = np.zeros(len(x))
    for _, h, dz in _backward(params, x, lambda logits: softmax(logits) - targets):
        dz_squares = np.sum(dz ** 2, axis=1)
        total += np.sum(h ** 2, axis=1) * dz_squares + dz_squares
    return np.sqrt(total)


def input_grads(params: dict[str, Any], x: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Gradient of each example's cross-entropy with respect to its own input row, stacked: shaped like ``x``."""
    names, hs, pres = _activations(params, x)
    dz = softmax(hs[-1]) - targets
    for i in reversed(range(len(names))):
        dz = dz @ np.asarray(params[names[i]]["w"], np.float64).T
        if i:
            dz = dz * (pres[i - 1] > 0)
    return dz


def column_major_read_as_row_major(a: Any) -> np.ndarray:
    """``a``'s elements flattened in column-major (Fortran) order and reshaped back in row-major (C) order: the
    same as ``a.T.reshape(a.shape)``."""
    return np.asarray(a).ravel(order="F").reshape(np.shape(a))


def row_major_read_as_column_major(a: Any) -> np.ndarray:
    """``a``'s elements flattened in row-major (C) order and reshaped back in column-major (Fortran) order: for a
    matrix (in, out), the same as ``a.reshape(out, in).T``, a reshape where a transpose was meant."""
    return np.asarray(a).reshape(-1).reshape(np.shape(a), order="F")


#: The two ways an array comes back to its own shape with its elements moved by flattening it in one memory order
#: and reshaping it in the other: (words, the move, its inverse).
ORDER_SWAPS = (
    ("flattened in column-major (Fortran) order and reshaped back in row-major (C) order",
     column_major_read_as_row_major, row_major_read_as_column_major),
    ("flattened in row-major (C) order and reshaped back in column-major (Fortran) order",
     row_major_read_as_column_major, column_major_read_as_row_major),
)


def one_hot(y: np.ndarray, n: int = 10) -> np.ndarray:
    return np.eye(n)[np.asarray(y)]


def per_example_norms(grads: Tree) -> np.ndarray:
    return np.sqrt(sum(np.sum(np.asarray(v, np.float64).reshape(len(v), -1) ** 2, axis=1) for v in grads.values()))


def norm_stand_ins(params: dict[str, Any], x: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """Per example, what is sometimes taken for the size of its gradient: its loss, the loss's gradient with
    respect to the logits (softmax(logits) - one_hot(y)), and its input's size. Each agrees with the gradient's
    norm on some batches only."""
    probs = softmax(mlp(params, x))
    y = np.asarray(y)
    return {"loss": -np.log(probs[np.arange(len(y)), y]),
            "softmax(logits) - one_hot(y) (the loss's gradient with respect to the logits)":
                np.linalg.norm(probs - one_hot(y, probs.shape[1]), axis=1),
            "input x": np.linalg.norm(x, axis=1)}


def leaf_norm_summaries(params: dict[str, Any], x: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """Per example, scores made from its per-leaf gradient norms that stand in for its global norm on some batches
    only: the leaves' norms summed unsquared, and each leaf's norms standardised across the batch (z-scores) and
    summed."""
    leaf = []
    for _, h, dz in _backward(params, x, lambda logits: softmax(logits) - one_hot(y)):
        bias = np.sqrt(np.sum(dz ** 2, axis=1))
        leaf += [np.sqrt(np.sum(h ** 2, axis=1)) * bias, bias]
    norms = np.stack(leaf, axis=1)  # (B, leaves)
    spread = norms.std(axis=0)
    z = (norms - norms.mean(axis=0)) / np.where(spread > 0, spread, 1.0)
    return {"sum of the leaves' norms (each leaf's norm added unsquared)": norms.sum(axis=1),
            "sum over the leaves of its norm standardised across the batch (per-leaf z-scores)": z.sum(axis=1)}


def gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


def softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, x)


def elu(x: np.ndarray) -> np.ndarray:
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0.0)))


def silu(x: np.ndarray) -> np.ndarray:
    return x * sigmoid(x)


#: Curves a hidden activation is often replaced by, by the name a message gives them.
CURVES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "ReLU": relu, "the identity (no activation)": identity, "a sigmoid": sigmoid, "tanh": np.tanh,
    "GELU": gelu, "softplus": softplus, "ELU": elu, "SiLU (swish)": silu, "ReLU6": lambda x: np.clip(x, 0.0, 6.0),
}


def near(a: np.ndarray, b: np.ndarray, tol: float = 1e-3) -> bool:
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= tol * (1.0 + np.abs(b))))


def curve_name(grid: np.ndarray, values: np.ndarray) -> str:
    """The name of the curve in :data:`CURVES` the sampled values follow (a leaky ReLU with its slope); "" if none."""
    g, y = np.asarray(grid, np.float64), np.asarray(values, np.float64)
    for name, fn in CURVES.items():
        if near(y, fn(g)):
            return name
    neg = g < 0
    if near(y[~neg], g[~neg]) and np.any(neg):
        slope = float(np.median(y[neg] / g[neg]))
        if 0 < slope < 1 and near(y[neg], slope * g[neg]):
            return f"a leaky ReLU (slope {slope:.3g} below 0)"
    if near(y, (g > 0).astype(np.float64)):
        return "a step (1 where its input is positive, 0 elsewhere: the mask h > 0, not h where h > 0)"
    pos = g > 0
    if np.any(pos) and near(y[~pos], np.zeros(int(np.sum(~pos)))):
        factor = float(np.median(y[pos] / g[pos]))
        if abs(factor - 1) > 1e-2 and abs(factor) > 1e-3 and near(y[pos], factor * g[pos]):
            return f"ReLU times {factor:.4g}"
    return ""


def describe_curve(grid: np.ndarray, values: np.ndarray) -> str:
    """What a sampled activation does, compared with ReLU, in words: its values below, at and above 0."""
    g, y = np.asarray(grid, np.float64), np.asarray(values, np.float64)
    at = lambda v: float(y[int(np.argmin(np.abs(g - v)))])  # noqa: E731 - a local lookup
    if np.ptp(y) <= 1e-6 * max(1.0, float(np.max(np.abs(y)))):
        return (f"{y[0]:.3g} for every input from {g[0]:g} to {g[-1]:g}: a constant, whatever it is given (its input "
                "does not reach it)")
    parts = []
    below = y[g < 0]
    if np.all(np.abs(below) <= 1e-6):
        parts.append("0 below 0, as ReLU")
    else:
        sign = "negative" if np.all(below[g[g < 0] > -1] < 0) else "positive" if np.all(below > 0) else "nonzero"
        shown = -0.5 if abs(at(-0.5)) > 1e-6 else float(g[g < 0][int(np.argmax(np.abs(below)))])
        parts.append(f"{sign} just below 0 (at {shown:g} it gives {at(shown):.3g}, ReLU gives 0)")
    parts.append(f"{at(0.0):.3g} at 0")
    above = g > 0
    if near(y[above], g[above]):
        parts.append("x itself above 0, as ReLU")
    else:
        parts.append(f"{at(1.0):.3g} at 1 and {at(3.0):.3g} at 3 (ReLU gives 1 and 3)")
    slopes = np.diff(y) / np.diff(g)
    kinks = np.abs(np.diff(slopes)) > 0.2
    parts.append("with a kink" if np.any(kinks) else "smooth")
    return ", ".join(parts)
