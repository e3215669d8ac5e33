"""Exercise 3 rubric: an MLP whose depth and layer order come from the params."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from grader.checks import PASS, Check, Context, Mistake, StudentError, Verdict, equals, fail, skip
from grader.checks import npref
from grader.checks.common import (BATCH_SIZE_CRASHES, STALE, crash_hint, crash_kind, fixed_rows, mutated, shapes_met,
                                 unchanged, unchanged_where_returned)
from grader.checks.compare import SIXTEEN_BIT_MANTISSAS, array_mismatch, common_factor
from grader.observations import ObservationError
from grader.exercises.ex3.inputs import CASES
from grader.exercises.ex3.shared import (ALONE, DEEP_CASE, DEPTH_CASES, FAR, GRAD_CASE, LARGE_SCALE, NARROW_B, NARROW_W,
                                         ONE_ROW_CASE, UNITS_X, VERY_DEEP, middle_shuffled, shared_layer_case,
                                         unit_wide_case, very_deep_case)


# Order mistakes: the right computation, the layers in another order.
STRING_ORDER = Mistake(
    "ex3.string_order", "layers in string order (layer1, layer10, layer11, layer12, layer2, ...)",
    "The layers ran in string order (layer1, layer10, layer11, layer12, layer2, ...), the order the names "
    "take when they are compared as text (as sorted() on them does, and as JAX's pytree functions such as "
    "jax.tree.map and jax.tree.leaves order a dict's keys). Order the layers by the whole number in their name, "
    "and index params by those names in that order rather than rebuilding or flattening the dict.")
DICT_ORDER = Mistake(
    "ex3.dict_order", "layers in the order the params dict lists them",
    "The layers ran in the order the params dict lists them, which is not the layer order (this case lists "
    "them backwards, and jax.jit or jax.tree functions reorder keys too). Sort the names by their number and "
    "take each layer by its name, params[name]: params.values() (or .items()) zipped with sorted names still "
    "gives the layers in the dict's order.")
JIT_DICT_ORDER = Mistake(
    "ex3.jit_dict_order", "the dict's own order under jax.jit (keys sorted as text)",
    "Under jax.jit the layers ran in string order (layer1, layer10, layer11, ...): jit rebuilds the params "
    "dict with its keys sorted as text, so the dict's own order is not the layer order. Sort the names by "
    "their number.")
# Computation mistakes that still run every layer, in some order.
SIGMOID = Mistake("ex3.sigmoid_for_relu", "sigmoid in place of ReLU",
                  "The hidden activation is a sigmoid; the exercise asks for ReLU (jax.nn.relu) after every layer "
                  "but the last.")
TANH = Mistake("ex3.tanh_for_relu", "tanh in place of ReLU",
               "The hidden activation is tanh; the exercise asks for ReLU (jax.nn.relu) after every layer but "
               "the last.")
NO_ACTIVATION = Mistake("ex3.no_activation", "no activation between the layers",
                        "No activation was applied between the layers, so the network is one linear map: apply "
                        "jax.nn.relu after every layer but the last.")
RELU_ON_INPUT = Mistake("ex3.relu_on_input", "a ReLU on the input before the first layer",
                        "A ReLU was applied to the input x before the first layer: the activation goes after each "
                        "layer's x @ w + b (every layer but the last), never on x itself.")
INPUT_CHANGED = Mistake("ex3.input_changed", "the input centred or standardised before the first layer",
                        "The input was shifted (and scaled) before the first layer, as a data normalisation does: "
                        "mlp_forward applies the layers to x as it is given; prepare the data outside it.")
NO_BIAS = Mistake("ex3.no_bias", "leaving out the biases",
                  "The biases were left out: each layer computes x @ layer['w'] + layer['b'].")
NO_OUTPUT_BIAS = Mistake(
    "ex3.no_output_bias", "leaving out the output layer's bias",
    "The output layer's bias was left out (the hidden layers add theirs): the last layer is h @ w + b too. "
    "Softmax ignores one constant added to every logit, not a bias that differs from class to class.")
BIAS_SUBTRACTED = Mistake(
    "ex3.bias_subtracted", "a bias subtracted (x @ w - b)",
    "The bias was subtracted (x @ w - b) in the layers the message names: each layer adds it, x @ w + b.")
BIAS_AFTER_RELU = Mistake("ex3.bias_after_relu", "adding the bias after the ReLU",
                          "The bias was added after the activation: a layer is relu(x @ w + b), not relu(x @ w) + b.")
SKIP_CONNECTION = Mistake("ex3.skip_connection", "a layer's input added to its output",
                          "A layer added its input to its output (h + relu(h @ w + b), a skip or residual "
                          "connection, or a buffer updated with .at[...].add(z), which adds z to what the buffer "
                          "held, where .at[...].set(z) replaces it): this MLP has none. Each layer replaces h with "
                          "relu(h @ w + b) (the last with h @ w + b), whatever the widths.")
TRANSPOSED = Mistake("ex3.weights_transposed", "multiplying by the transposed weights (x @ w.T)",
                     "The weights were transposed (x @ w.T, as in PyTorch's Linear): here w has shape (in, out), "
                     "so a layer is x @ w + b.")
RESHAPED = Mistake(
    "ex3.weights_reshaped", "weights reshaped to (out, in) where a transpose belongs",
    "A reshape keeps the elements in memory order and only changes the shape: w.reshape(out, in) is not w.T, its "
    "rows hold other elements (on a square w it changes nothing, so x @ w.reshape(out, in).T multiplies by w.T). "
    "Use each layer's w as it is, x @ w; for a torch-style (out, in) layout, w.T.")
INPUT_TRANSPOSED = Mistake(
    "ex3.input_transposed", "the input turned round (x.T)",
    "x is (B, d0) whatever B is, also when B happens to equal d0: then x and x.T have one shape, and code that "
    "decides the input's orientation from x.shape[0] turns a right input round. Use x as given: h = x, then "
    "h @ w + b layer by layer.")
PRODUCT_TRANSPOSED = Mistake(
    "ex3.product_transposed", "a layer's product turned round, (out, B) in place of (B, out)",
    "A layer's product has its axes in the other order, (out, B), so the bias (out,) does not fit along its last "
    "axis: the product was written for column vectors (w.T @ h.T) or with axes in another order (jnp.einsum "
    "without '->' sorts its output's letters, so 'ni,ij' gives 'jn'). A layer is h @ w + b, of shape (B, out); "
    "with einsum, name the output: jnp.einsum('ni,ij->nj', h, w).")
# Mistakes in which layers run: the 12-layer check cannot judge their order.
DEPTH = Mistake("ex3.depth_not_from_params", "a fixed number of layers instead of the depth of params",
                "The depth must come from params, on every call: loop over however many layer<i> entries there are "
                "(1 or 12 as well as 3), in numeric order, and index each layer's 'w' and 'b' by name; a layer list "
                "worked out once and kept (a cached property, a module-level model) holds the first call's depth.")
BIAS_OTHER_LAYER = Mistake(
    "ex3.bias_other_layer", "a layer given another layer's bias",
    "Each layer adds its own bias: take w and b from the same entry, layer = params[name]; h @ layer['w'] + "
    "layer['b']. An index off by one between the two gives a layer the next (or previous) layer's bias.")
LAST_LAYER_MISSING = Mistake("ex3.last_layer_missing", "leaving out the last layer",
                             "The last layer never ran: the loop covers the hidden layers (each followed by ReLU), "
                             "then the output layer must still be applied, without ReLU.")
COUNT_FROM_ZERO = Mistake("ex3.count_from_zero", "layer names counted from 0 (layer0)",
                          "The loop asked for 'layer0': the layers are named layer1..layerN, so count from 1 "
                          "(range(1, len(params) + 1)), or sort the names themselves by their number.")
LEAF_ORDER = Mistake("ex3.leaf_order", "w, b = jax.tree.leaves(layer), which gives [b, w]",
                     "jax.tree.leaves(params['layer1']) gives [b, w] (dict keys are sorted), not [w, b]: take "
                     "layer['w'] and layer['b'] by name.")
OUTPUT_RELU = Mistake("ex3.relu_on_output", "a ReLU on the output layer",
                      "The output went through a ReLU: apply ReLU after every layer except the last; return raw "
                      "logits.")
OUTPUT_SOFTMAX = Mistake("ex3.softmax_output", "a softmax on the output",
                         "The output went through a softmax: mlp_forward returns the last layer's raw values "
                         "(logits).")
LAYER_ORDER = Mistake(
    "ex3.layer_order", "layers run in an order other than layer1, layer2, ..., layerN",
    "The layers ran in another order than their numbers give (the order measured is in the message): run "
    "layer1, layer2, ..., layerN, sorting the names by the whole number in them, "
    "int(name.removeprefix('layer')).")
RELU_PLACEMENT = Mistake(
    "ex3.relu_placement", "ReLU after other layers than every layer but the last",
    "ReLU went after other layers than it should (measured in the message): it goes after every layer but the "
    "last, layer1 to layer(N-1). Check the test on the layer's index that decides where ReLU is applied: with "
    "for i, name in enumerate(names), that is i < len(names) - 1.")
ARGS_SWAPPED = Mistake("ex3.arguments_swapped", "mlp_forward's parameters in the order (x, params)",
                       "mlp_forward takes (params, x), in that order: params first, then the batch.")
HINT_JIT = "Under jax.jit the forward pass failed or changed: keep it pure (no Python side effects, no global state)."
HINT_JIT_EAGER_WRONG = (
    "Under jax.jit the output differs from the eager call's, and the eager output is not the expected one either "
    "(see ex3.depths and ex3.deep): make the eager answer right first. Under jax.jit the params dict arrives with "
    "its keys sorted as text, so whatever depends on the order the dict lists its names in changes there.")
HINT_CONTRACT = ("mlp_forward applies layer1, layer2, ..., layerN in numeric order, each x @ w + b, with ReLU after "
                 "every layer but the last.")


def sigmoid_for_relu(params, x, order="numeric"):
    return npref.mlp(params, x, order, act=npref.sigmoid)


def tanh_for_relu(params, x, order="numeric"):
    return npref.mlp(params, x, order, act=np.tanh)


def no_activation(params, x, order="numeric"):
    return npref.mlp(params, x, order, act=npref.identity)


def relu_on_input(params, x, order="numeric"):
    return npref.mlp(params, x, order, in_act=npref.relu)


def no_bias(params, x, order="numeric"):
    return npref.mlp(params, x, order, bias=False)


def no_output_bias(params, x, order="numeric"):
    return npref.mlp(params, x, order, output_bias=False)


def bias_after_relu(params, x, order="numeric"):
    return npref.mlp(params, x, order, bias_after_act=True)


def weights_transposed(params, x, order="numeric"):
    flipped = {name: {"w": np.asarray(layer["w"]).T, "b": layer["b"]} for name, layer in params.items()}
    return npref.mlp(flipped, x, order)


def weights_reshaped(params, x, order="numeric"):
    """Each w read as w.reshape(out, in).T: a torch-style (out, in) layout made with a reshape, then transposed."""
    moved = {name: {"w": npref.row_major_read_as_column_major(layer["w"]), "b": layer["b"]}
             for name, layer in params.items()}
    return npref.mlp(moved, x, order)


def input_transposed(params, x, order="numeric"):
    """The forward pass of x.T (ValueError below unless x is square)."""
    return npref.mlp(params, np.asarray(x).T, order)


def first_three_layers(params, x, order="numeric"):
    """The lesson's depth written out: layer1..layer3 whatever params holds (KeyError below 3 layers)."""
    return npref.mlp(params, x, order, layers=slice(0, 3)) if len(params) >= 3 else None


def last_layer_missing(params, x, order="numeric"):
    """``for name in names[:-1]: x = relu(x @ w + b)``, then ``return x``: the output layer never runs."""
    h = np.asarray(x, np.float64)
    for name in npref.layer_names(params, order)[:-1]:
        h = npref.relu(h @ np.asarray(params[name]["w"], np.float64) + np.asarray(params[name]["b"], np.float64))
    return h


def bias_from_next_layer(params, x, order="numeric"):
    """Each hidden layer adds the next layer's bias (an index off by one); the output layer its own."""
    names = npref.layer_names(params, order)
    h = np.asarray(x, np.float64)
    for i, name in enumerate(names[:-1]):
        h = npref.relu(h @ np.asarray(params[name]["w"], np.float64) + np.asarray(params[names[i + 1]]["b"], np.float64))
    last = params[names[-1]]
    return h @ np.asarray(last["w"], np.float64) + np.asarray(last["b"], np.float64)


#: Variants of the computation that still run every layer: their order can be judged.
ALL_LAYERS = {SIGMOID: sigmoid_for_relu, TANH: tanh_for_relu, NO_ACTIVATION: no_activation,
              RELU_ON_INPUT: relu_on_input, NO_BIAS: no_bias, NO_OUTPUT_BIAS: no_output_bias,
              BIAS_AFTER_RELU: bias_after_relu, BIAS_OTHER_LAYER: bias_from_next_layer,
              TRANSPOSED: weights_transposed, RESHAPED: weights_reshaped, INPUT_TRANSPOSED: input_transposed}
#: Variants that run the wrong layers.
WRONG_LAYERS = {DEPTH: first_three_layers, LAST_LAYER_MISSING: last_layer_missing}
ORDERS = {"numeric": None, "string": STRING_ORDER, "dict": DICT_ORDER}


def _case(ctx: Context, case: str) -> dict:
    return ctx.inputs["ex3"][case]


def _describe(case: str) -> str:
    widths, b, order = CASES[case]
    listed = " listed in reverse order" if order == "reversed" else ""
    depth = len(widths) - 1
    return f"{depth} layer{'s' if depth != 1 else ''}, widths {list(widths)}, B={b}{listed}"


def _up_to_output(got: np.ndarray, want: np.ndarray | None) -> bool:
    """True when got equals want, or want with an activation on the output (judged by output_linear)."""
    if want is None or np.shape(got) != np.shape(want):
        return False
    return any(array_mismatch(got, candidate) is None for candidate in (want, npref.relu(want), npref.softmax(want)))


def explain(params: dict, x: np.ndarray, got: np.ndarray) -> set[tuple[Mistake | None, Mistake | None]]:
    """Every (computation mistake, order mistake) pair whose numpy variant gives ``got``; None means right."""
    found = set()
    numeric = npref.layer_names(params)
    for order, order_mistake in ORDERS.items():
        if order_mistake is not None and npref.layer_names(params, order) == numeric:
            continue  # the same order under another name: no evidence either way
        for mistake, variant in {None: npref.mlp, **ALL_LAYERS, **WRONG_LAYERS}.items():
            if _up_to_output(got, _run(variant, params, x, order)):
                found.add((mistake, order_mistake))
    return found


def _run(variant, params: dict, x: np.ndarray, order: str) -> np.ndarray | None:
    """The variant's output, or None where its shapes do not fit (as the student's code would raise)."""
    try:
        with np.errstate(all="ignore"):
            return variant(params, x, order)
    except ValueError:
        return None


def _error_explains(ctx: Context, case: str, error: ObservationError) -> set[tuple[Mistake | None, Mistake | None]]:
    """The (computation, order) mistakes an exception in ``case`` shows for sure, as :func:`explain` gives them."""
    text = error.summary()
    if "KeyError" in text and "'layer0'" in text:
        return {(COUNT_FROM_ZERO, None)}
    if "KeyError" in text and "'layer" in text:
        asked = text.split("'layer", 1)[1].split("'", 1)[0]
        if asked.isdigit() and int(asked) > len(_case(ctx, case)["params"]):
            return {(DEPTH, None)}
    b = CASES[case][1]
    if case == DEEP_CASE:
        return {(LEAF_ORDER, None)} if f"shapes=[({b},), (16, 16)]" in text else set()  # h @ b: one number per row
    found = set()
    if "dot_general" in text:
        c = _case(ctx, case)
        if CASES[case][2] != "numeric" and _dict_order_misfit(c) in text:
            found.add((None, DICT_ORDER))  # the layers as listed do not fit together, and fail where it failed
        try:  # where weights and biases differ in shape things break; 12 equal-width layers tell what broke
            d12 = np.asarray(ctx.got(f"out/{DEEP_CASE}"), dtype=np.float64)
        except StudentError as exc:
            return found | _error_explains(ctx, DEEP_CASE, exc.error)
        deep_case = _case(ctx, DEEP_CASE)
        variants = {**ALL_LAYERS, **WRONG_LAYERS}
        for mistake, _ in explain(deep_case["params"], deep_case["x"], d12):
            if mistake is not None and _run(variants[mistake], c["params"], c["x"], "numeric") is None:
                found.add((mistake, None))  # that mistake does not fit this case's shapes either
    return found


def _dict_order_misfit(c: dict) -> str:
    """The shapes JAX names when the layers run in the order the dict lists them and one does not fit
    ("(20,) and (12,)"); a string no error holds when they all fit."""
    h = np.asarray(c["x"])
    for name in c["params"]:
        w = np.asarray(c["params"][name]["w"])
        if h.shape[-1] != w.shape[0]:
            return f"({h.shape[-1]},) and ({w.shape[0]},)"
        h = h @ w
    return "\0"


def error_hint(error: ObservationError) -> str | Mistake:
    """When mlp_forward raises, the hint follows the crash's kind; a shape error says which shapes a layer needs.

    The judges name a mistake when their measurements show one.
    """
    kind = crash_kind(error)
    if kind == "shape":
        return ("A layer's shapes did not fit: with h of shape (B, in), layer['w'] has shape (in, out) and "
                "layer['b'] shape (out,), and a layer is h @ w + b.")
    if kind == "reshape":
        return ("A reshape failed: mlp_forward is given x of shape (B, in) for any width in (20, 16 and 784 "
                "here), so it needs no reshape of its own, and none written for one width.")
    return crash_hint(error)


#: What may be applied to the output, as a message words it, and the known mistake it is (if any).
OUTPUT_TRANSFORMS = (
    ("(relu(x), relu(-x)): a ReLU on the output", npref.relu, OUTPUT_RELU),
    ("softmax probabilities", npref.softmax, OUTPUT_SOFTMAX),
    ("log-softmax values (log-probabilities)", lambda z: np.log(npref.softmax(z)), None),
    ("(sigmoid(x), sigmoid(-x)): a sigmoid on the output", npref.sigmoid, None),
    ("(tanh(x), tanh(-x)): tanh on the output", np.tanh, None),
)
#: The curve names of :data:`npref.CURVES` that are known mistakes.
HINT_ONE_LAYER = ("A network of one layer is x @ w + b and nothing else: mlp_forward gives each layer x as it comes "
                  "and returns the last layer's x @ w + b as it is (the message shows what one layer returned); "
                  "nothing may transform the input or the output.")
HINT_RAW_OUTPUT = ("mlp_forward returns the last layer's raw values x @ w + b (logits), with nothing applied after "
                   "it.")
HINT_TRANSPOSED = ("Return one row per example, shape (B, dN), as x comes in (B, d0): compute x @ w + b layer by "
                   "layer, or transpose the result back if you worked with examples as columns.")
CURVE_MISTAKES = {"a sigmoid": SIGMOID, "tanh": TANH, "the identity (no activation)": NO_ACTIVATION}


@dataclass(frozen=True)
class Finding:
    """One measured property that differs from the contract: what was seen, and the mistake it shows (if any)."""

    text: str
    mistake: Mistake | None = None
    hint: str = ""
    """What to do, when no known mistake says it."""
    variant: tuple = ()
    """The measured behaviour as ``npref.mlp`` keywords (``(("act", fn),)``, ``(("bias_scale", 2.0),)``), when
    it is one that a whole network can be recomputed with."""


def _model(findings: list[Finding]) -> dict | None:
    """The student's computation as measured, as keywords for :func:`_run_model`; None if not every finding has one."""
    if not findings or not all(f.variant for f in findings):
        return None
    return {k: v for f in findings for k, v in f.variant}


def _run_model(params: dict, x: np.ndarray, model: dict, order: str = "numeric") -> np.ndarray:
    scale = model.get("bias_scale", 1.0)
    scaled = {n: {"w": layer["w"], "b": np.asarray(layer["b"], np.float64) * scale} for n, layer in params.items()}
    return npref.mlp(scaled, x, order, act=model.get("act", npref.relu))


def _measured(ctx: Context, name: str) -> np.ndarray | None:
    """A measurement's output as float64, or None when the call raised or returned something odd."""
    if name in ctx.student.errors or not ctx.student.has(name):
        return None
    try:
        out = np.asarray(ctx.student[name], dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return out if np.all(np.isfinite(out)) else None


HINT_WHOLE_BIAS = ("Each unit adds its own bias: x @ w + b with the whole vector b, of shape (n_out,), which "
                   "broadcasts over the batch; one number of it (b[0], an index into a row that is not there) or a "
                   "summary of it (its mean or sum) is the same for every unit.")


HINT_BIAS_BY_ROW = ("Every row of the batch gets the same bias, the whole vector b: x @ w + b broadcasts b, of shape "
                    "(n_out,), over the rows. A bias matrix built by hand must be b stacked B times, jnp.tile(b, (B, "
                    "1)); jnp.repeat(b, B) repeats each element in place, so reshaped to (B, n_out) its rows differ.")


def _bias_by_row(affine: np.ndarray, w: np.ndarray, b: np.ndarray) -> str:
    """Words for one layer whose output on x = 0 and on the unit vectors is x @ w plus a bias that differs from row
    to row of the batch, each entry one of b's values; "" otherwise."""
    rows = affine - np.vstack([np.zeros(len(w)), np.eye(len(w))]) @ w
    if npref.near(rows, np.broadcast_to(rows[0], rows.shape)):
        return ""
    if not all(np.min(np.abs(b - value)) <= 1e-4 * max(1.0, abs(value)) for value in rows.reshape(-1)):
        return ""
    shown = "; ".join(f"row {i}: {np.round(r, 3).tolist()}" for i, r in enumerate(rows))
    return (f"one 3x3 layer, on x = 0 and on the unit vectors, returned x @ w plus a bias that differs from row to "
            f"row of the batch ({shown}; b = {b.tolist()}): b's values were spread over the rows, where each row "
            "gets the whole b")


def _one_bias_value(bias: np.ndarray, b: np.ndarray) -> str:
    """Words for a bias row that is one number of b, or one summary of it, for every unit; "" otherwise."""
    if not npref.near(bias, np.full_like(bias, bias[0])):
        return ""
    for words, value in (("b[0] (b's first element)", b[0]), ("b[-1] (b's last element)", b[-1]),
                         ("the mean of b", np.mean(b)), ("the sum of b", np.sum(b))):
        if abs(bias[0] - value) <= 1e-4 * max(1.0, abs(value)):
            return words
    return ""


NO_LAYER_RAN = ("mlp_forward returned x itself: its loop over the layers ran zero times. Check what the loop goes "
                "over: it must hold the layer names, and an iterator (from map(), filter(), zip() or a generator) "
                "is used up by the first pass over it, a max(), len() of a list made from it or sorted() included.")


def _input_returned(ctx: Context) -> Finding | None:
    """The finding for an mlp_forward that returned its input unchanged with each number of layers measured."""
    deep = _case(ctx, DEEP_CASE)
    x = np.asarray(deep["x"], np.float64)
    for k in range(1, len(deep["params"]) + 1):
        got = _measured(ctx, f"measure/prefix{k}")
        if got is None or got.shape != x.shape or not np.array_equal(got, x):
            return None
    return Finding(f"with 1 to {len(deep['params'])} layers of the 12-layer case it returned its input x "
                   "unchanged: no layer ran", hint=NO_LAYER_RAN)


HINT_REARRANGED = ("Every right value is in the output, in the wrong place: the output was rearranged (a reshape "
                   "where a transpose belongs, or a vmap whose out_axes is not 0). Keep one row per example, shape "
                   "(B, n_out), row i for example i: with a vmap over the rows, leave out_axes at 0 and reshape "
                   "nothing.")


def _values_moved(ctx: Context) -> Finding | None:
    """The finding for outputs of the right shape that hold the right values in other positions, at every depth
    measured with a wrong answer (at least two)."""
    moved = 0
    for case in (*DEPTH_CASES, DEEP_CASE):
        got, want = _measured(ctx, f"out/{case}"), ctx.want(f"out/{case}")
        if got is None:
            return None
        want = np.asarray(want, np.float64)
        if got.shape != want.shape or _up_to_output(got, want):
            continue
        if not npref.near(np.sort(got, axis=None), np.sort(want, axis=None)):
            return None
        moved += 1
    if moved < 2:
        return None
    return Finding(f"at {moved} depths the output holds exactly the right values, in other positions (same shape, "
                   "values moved between rows and columns)", hint=HINT_REARRANGED)


def _returned_none(ctx: Context, name: str) -> bool:
    """The call recorded as ``name`` returned None (it ended without reaching a return statement)."""
    return name not in ctx.student.errors and ctx.student.has(name) and ctx.student[name] is None


ROWS_MISPAIRED = Mistake(
    "ex3.rows_mispaired", "rows of w and b paired with the wrong inputs (a misaligned bias trick)",
    "Each input i multiplies row i of w, and the bias is added once: x @ w + b. With the bias trick, "
    "[x, 1] @ [[w], [b]], the bias row goes on the side where the ones column is.")


def _rows_paired(bias: np.ndarray, matrix: np.ndarray, w: np.ndarray, b: np.ndarray) -> str:
    """Words for a layer whose output on x = 0 and whose response to each input are each one whole row of w or b,
    paired otherwise than x @ w + b pairs them ("" when they are not, or are paired right)."""
    rows = {"b": b, **{f"w[{i}]": w[i] for i in range(len(w))}}

    def which(row: np.ndarray) -> str | None:
        return next((name for name, r in rows.items() if npref.near(row, r)), None)

    names = [which(bias)] + [which(r) for r in matrix]
    if None in names or names == ["b"] + [f"w[{i}]" for i in range(len(w))]:
        return ""
    return (f"gave {names[0]} on x = 0 (not b), and for x's entries {', '.join(map(str, range(len(w))))} it added "
            f"{', '.join(names[1:])} (not {', '.join(f'w[{i}]' for i in range(len(w)))})")


def _input_shifted(g: np.ndarray, out: np.ndarray, affine: np.ndarray | None, layer: dict) -> Finding | None:
    """A layer given (x - a) / s in place of x, a not 0, measured twice: the layer mapping x to (x, -x) returned
    ((x - a) / s, -(x - a) / s), and the 3x3 layer with a bias returned ((X - a) / s) @ w + b on X = 0 and on the
    unit vectors. None otherwise (a scale alone is the weights' finding: one layer cannot tell the two apart)."""
    slope, intercept = np.polyfit(g, out[:, 0], 1)
    line = slope * g + intercept
    if abs(slope) < 1e-6 or abs(intercept) < 1e-3 or not (npref.near(out[:, 0], line) and npref.near(out[:, 1], -line)):
        return None
    a, s = -intercept / slope, 1 / slope
    w, b = (np.asarray(layer[k], np.float64) for k in ("w", "b"))
    x = np.vstack([np.zeros(3), np.eye(3)])
    if affine is None or not npref.near(affine, ((x - a) / s) @ w + b):
        return None
    return Finding(f"one layer mapping x to (x, -x) returned ((x - {a:.4g}) / {s:.4g}, -(x - {a:.4g}) / {s:.4g}), and "
                   f"a 3x3 layer with a bias returned ((x - {a:.4g}) / {s:.4g}) @ w + b: the layer was given "
                   f"(x - {a:.4g}) / {s:.4g}, not x", INPUT_CHANGED)


def measure(ctx: Context) -> list[Finding]:
    """What the student's mlp_forward does on the measurement networks (:func:`_measure_networks`), each finding
    that names a whole-network mistake kept only where the graded cases agree with it: a case the submission gets
    right that the mistake would get wrong contradicts it (the measurement network showed something else, such as
    its layers run in another order), and the 12-layer case's prefixes are read instead."""
    found = _measure_networks(ctx)
    if any(f.mistake in (OUTPUT_RELU, OUTPUT_SOFTMAX) for f in found) and (deeper := _depth_findings(ctx)):
        return deeper  # what one layer does to the output is ex3.output_linear's; the deeper cases differ otherwise
    contradicted = [f for f in found if f.mistake in ALL_LAYERS and _contradicted(ctx, ALL_LAYERS[f.mistake])]
    if not contradicted:
        return found
    rest = [f for f in found if f not in contradicted]
    return rest or _depth_findings(ctx)


CALLS_CHANGE = Mistake(
    "ex3.calls_change", "a forward pass that keeps something from one call to the next",
    "mlp_forward must give the same output whenever it is given the same params and x: nothing may outlive a call. "
    "A counter, list or setting kept on a class (a class attribute every instance shares), in a global or in a "
    "default argument, and changed on each call, makes later calls compute something else; keep such things "
    "inside the call (enumerate the layers there), or compute x @ w + b layer by layer with nothing kept.")


def _changed_after_first(ctx: Context) -> Finding | None:
    """The finding for a forward pass that was right on the 2-layer case the very first time it was called and
    gave another output (or raised) on the same case after the other calls; None otherwise."""
    if not ctx.student.has("first/d2"):
        return None
    first, want = _measured(ctx, "first/d2"), np.asarray(ctx.want("out/d2"), np.float64)
    if first is None or array_mismatch(first, want) is not None:
        return None
    if "last/d2" in ctx.student.errors:
        return Finding(f"with 2 layers it gave the right output the first time it was called, and the same call "
                       f"after the others raised {ctx.student.errors['last/d2'].type}: later calls met something "
                       "earlier ones left behind", CALLS_CHANGE)
    last = _measured(ctx, "last/d2")
    differs = array_mismatch(last, first) if last is not None else None
    if differs is None:
        return None
    return Finding(f"with 2 layers it gave the right output the first time it was called, and another output for "
                   f"the same params and x after the other calls ({differs}): later calls met "
                   "something earlier ones left behind", CALLS_CHANGE)


def _contradicted(ctx: Context, variant) -> bool:
    """Some graded case comes out right from the submission and wrong from ``variant``."""
    for case in (*DEPTH_CASES, DEEP_CASE):
        c = _case(ctx, case)
        try:
            got = np.asarray(ctx.got(f"out/{case}"), np.float64)
        except StudentError:
            continue
        want = np.asarray(ctx.want(f"out/{case}"), np.float64)
        if _up_to_output(got, want) and not _up_to_output(_run(variant, c["params"], c["x"], "numeric"), want):
            return True
    return False


def _examples_mixed(out: np.ndarray | None, g: np.ndarray) -> Finding | None:
    """The finding for the ``output`` network (one layer mapping (x, 0) to (x, -x), x the grid, a distinct value
    per example) when its first column holds, in many rows, another example's x (or 0, the second input): elements
    moved between examples before the layer. ``None`` otherwise."""
    if out is None or out.shape != (g.size, 2) or npref.near(out[:, 0], g):
        return None
    tol = 1e-5 * max(1.0, float(np.max(np.abs(g))))
    source = []
    for value in out[:, 0]:
        close = np.flatnonzero(np.abs(g - value) <= tol)
        if close.size != 1:
            return None
        source.append(int(close[0]))
    others = [(i, j) for i, j in enumerate(source) if j != i and g[j] != 0]  # a 0 may be the second input's
    if len(others) < g.size // 4 or len({j for _, j in others}) < g.size // 4:
        return None
    shown = ", ".join(f"row {i} holds example {j}'s" for i, j in others[:3])
    return Finding(f"one layer mapping (x, 0) to (x, -x), on {g.size} examples each with its own x, returned in "
                   f"{len(others)} rows the x of another example ({shown}): inputs moved between examples before the "
                   "layer", hint=HINT_EXAMPLES_MIXED)


HINT_EXAMPLES_MIXED = (
    "Each example's output comes from its own row of x. A reshape keeps x's elements in memory order, so it moves "
    "them between rows wherever a transpose or a split belongs, and mixes examples: x.reshape(d, B) is not x.T, and "
    "x.reshape(n, B, d // n) does not split the features. Use x.T for one column per example, and "
    "jnp.split(x, n, axis=1) (or x.reshape(B, n, d // n) with that axis moved to the front) for n parts of the "
    "features.")


def _rows_moved(got: np.ndarray, want: np.ndarray) -> Finding | None:
    """The finding for a batch's outputs that are the right ones moved by s rows (row i holds example i + s's, for
    every i where that example exists), ``None`` otherwise: rows added to the batch (padding) and cut off from the
    other end show so."""
    n = want.size
    for s in (*range(1, n // 2), *range(-1, -(n // 2), -1)):
        kept = slice(0, n - s) if s > 0 else slice(-s, n)
        moved = slice(s, n) if s > 0 else slice(0, n + s)
        if npref.near(got[kept], want[moved]) and np.ptp(want[moved]) > 0:
            which = (f"row i holds example i + {s}'s output, and the last {s} rows are not the batch's examples"
                     if s > 0 else f"row i holds example i - {-s}'s output, and the first {-s} rows are not the "
                     "batch's examples")
            return Finding(f"a two-layer network of one unit, on a batch of {n} examples, returned the right outputs "
                           f"moved by {abs(s)} rows: {which}", hint=HINT_ROWS_MOVED)
    return None


HINT_ROWS_MOVED = ("Row i of the output is example i's: where the batch is padded (to a multiple of a shard or block "
                   "size), cut the padding off from the end it was added to (pad at the end, return out[:B]), and "
                   "never shift, roll or drop rows.")


def _measure_networks(ctx: Context) -> list[Finding]:
    """What the student's mlp_forward does on the measurement networks, wherever it differs from the contract.

    Each property is judged only when the properties it rests on are right:
    the output first (everything passes through it), then one layer's bias and
    weights, then the hidden activation and the hidden bias. An empty list
    means nothing measured differs (or nothing could be measured).
    """
    cases = npref.measurement_cases()
    found: list[Finding] = []
    g = npref.GRID.astype(np.float64)
    alone, batch = _measured(ctx, "measure/alone"), _measured(ctx, "measure/activation")
    if alone is not None and batch is not None and alone.size == 1 and batch.size == g.size:
        in_batch = float(batch.reshape(-1)[int(np.argmin(np.abs(g - ALONE)))])
        if abs(float(alone.reshape(-1)[0]) - in_batch) > 1e-3 * max(1.0, abs(in_batch)):
            if (moved := _rows_moved(batch.reshape(-1), npref.relu(g))) is not None:
                return [moved]
            return [Finding(f"a two-layer network of one unit returned {float(alone.reshape(-1)[0]):.4g} for x = "
                            f"{ALONE:g} alone and {in_batch:.4g} for the same x in a batch of {g.size}: each example's "
                            "output depends on the other examples of its batch", hint="Every operation in mlp_forward "
                            "acts on each example (row) on its own: nothing is computed across the batch axis (axis "
                            "0): no mean, normalisation or softmax over it.")]
    if (returned := _input_returned(ctx)) is not None:
        return [returned]
    if (moved := _values_moved(ctx)) is not None:
        return [moved]
    if (mixed := _examples_mixed(_measured(ctx, "measure/output"), g)) is not None:
        return [mixed]
    if _returned_none(ctx, "measure/output"):  # one layer gave None: where the return is reached, by depth
        return _depth_findings(ctx)
    out = _measured(ctx, "measure/output")
    raw = np.stack([g, -g], axis=1)
    if out is not None and out.shape == raw.T.shape and npref.near(out, raw.T):
        return [Finding(f"one layer mapping x to (x, -x), on {g.size} examples, returned shape {out.shape} holding "
                        f"the right values transposed: one column per example, not one row", hint=HINT_TRANSPOSED)]
    if out is not None and out.shape == (g.size,):
        for label, reduce in (("argmax (the predicted class)", np.argmax), ("largest value", np.max),
                              ("sum", np.sum), ("mean", np.mean)):
            if npref.near(out.astype(np.float64), reduce(raw, axis=1).astype(np.float64)):
                return [Finding(f"one layer mapping x to (x, -x), on {g.size} examples, returned shape {out.shape} "
                                f"holding each row's {label}, not the row itself",
                                hint="mlp_forward returns the logits, shape (B, n_out): the last layer's x @ w + b, "
                                     "with nothing reduced over its outputs (take an argmax outside it, where a "
                                     "prediction is needed).")]
    if out is None and "measure/output" in ctx.student.errors:  # one layer alone raised: read the prefixes
        return found or _depth_findings(ctx)
    if out is None or out.shape != (g.size, 2):
        return found
    output_wrong = not npref.near(out, raw)
    far_out = _measured(ctx, "measure/output_far")
    if output_wrong:
        if npref.near(out, np.stack([npref.relu(g), -npref.relu(g)], axis=1)):
            if not _input_relu_everywhere(ctx):  # one layer only: where ReLU goes at other depths is measured
                return _depth_findings(ctx) or [Finding("one layer mapping x to (x, -x) returned (relu(x), "
                                                        "-relu(x)): a ReLU on the input x, at this depth")]
            return [Finding("one layer mapping x to (x, -x) returned (relu(x), -relu(x)): a ReLU on the input x",
                            RELU_ON_INPUT)]
        for label, transform, mistake in OUTPUT_TRANSFORMS:
            if npref.near(out, transform(raw)):
                return [Finding(f"one layer mapping x to (x, -x) returned {label}", mistake, HINT_RAW_OUTPUT)]
        shifted = _input_shifted(g, out, _measured(ctx, "measure/affine"), cases["affine"]["params"]["layer1"])
        if shifted:
            return [shifted]
        at_zero = float(out[int(np.argmin(np.abs(g))), 0])
        linear = common_factor(out[:, 0], g, rtol=1e-3) is not None  # c * x: a scale, the weights' finding
        if npref.near(out[:, 1], -out[:, 0]) and abs(at_zero) < 1e-3 and np.ptp(out[:, 0]) > 1e-3 and not linear and \
                far_out is not None and \
                far_out.shape == (FAR.size, 2):  # one function of x through 0, applied to the input or the output
            near_0 = ", ".join(f"{out[i, 0]:.4g} at {g[i]:g}" for i in
                               (int(np.argmin(np.abs(g - x))) for x in (-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0)))
            far = ", ".join(f"{v:.4g} at {x:g}" for x, v in zip(FAR, far_out[:, 0]))
            return [Finding(f"one layer mapping x to (x, -x) returned (f(x), -f(x)) with f(x) not x: {near_0}; far "
                            f"from 0, {far}", hint=HINT_ONE_LAYER)]
        shift = _row_shift(out, raw)
        if shift is not None:
            k = int(np.argmax(np.abs(shift)))
            what = (": each row's largest value was subtracted" if npref.near(shift, -raw.max(axis=1)) else "")
            return [Finding(f"one layer mapping x to (x, -x) returned (x, -x) shifted by a value of each example's "
                            f"own (at x = {g[k]:.3g} it returned {np.round(out[k], 3).tolist()}, {shift[k]:.3g} "
                            f"off in both columns){what}", hint=HINT_RAW_OUTPUT)]
    if not output_wrong and far_out is not None and far_out.shape == (FAR.size, 2) and \
            not npref.near(far_out, np.stack([FAR, -FAR], axis=1)):
        shown = ", ".join(f"{v:.4g} at {x:g}" for x, v in zip(FAR, far_out[:, 0]))
        return [Finding(f"one layer mapping x to (x, -x) returned x from -3 to 3, but far from 0 its first column "
                        f"was {shown}: the output is squashed or capped far from 0", hint=HINT_ONE_LAYER)]
    affine, weights_ok = _measured(ctx, "measure/affine"), True
    w, b = (np.asarray(cases["affine"]["params"]["layer1"][k], np.float64) for k in ("w", "b"))
    if affine is not None and affine.shape == (4, 3):
        bias, matrix = affine[0], affine[1:] - affine[0]
        right = np.vstack([b, w + b])  # on x = 0, then on each unit vector
        shift = _row_shift(affine, right)
        if shift is not None:
            what = (": each row's mean was subtracted" if npref.near(shift, -right.mean(axis=1)) else
                    ": each row's largest value was subtracted" if npref.near(shift, -right.max(axis=1)) else "")
            return [Finding(f"one layer returned x @ w + b shifted by a value of each example's own (on x = 0, "
                            f"{np.round(affine[0], 3).tolist()} for b = {b.tolist()}, {shift[0]:.3g} off in every "
                            f"column){what}", hint=HINT_RAW_OUTPUT)]
        if npref.near(bias, np.zeros(3)) and npref.near(matrix, w + b):
            return [Finding("one layer on x = 0 returned 0, and on each unit vector e_i the row w[i] + b: the bias "
                            "is added to the weights, x @ (w + b), so it is scaled by the sum of x's entries",
                            hint="Add the bias after the product: x @ w + b, not x @ (w + b).")]
        spread = _bias_by_row(affine, w, b)
        if spread:
            return [Finding(spread, hint=HINT_BIAS_BY_ROW)]
        paired = _rows_paired(bias, matrix, w, b)
        if paired:
            return [Finding(f"one 3x3 layer {paired}: whole rows of w and b, paired with the wrong inputs",
                            ROWS_MISPAIRED)]
        if not npref.near(bias, b):
            if npref.near(bias, np.zeros(3)):
                found.append(Finding("one layer on x = 0 returned 0, not its bias b",
                                     NO_BIAS if npref.near(matrix, w) else None))
            elif one := _one_bias_value(bias, b):
                found.append(Finding(f"one layer on x = 0 returned {np.round(bias, 3).tolist()}, not its bias "
                                     f"b = {b.tolist()}: every unit got {one}", hint=HINT_WHOLE_BIAS))
            else:
                ratio = float(np.median(bias / b))
                times = f" ({ratio:.3g} times b)" if npref.near(bias, ratio * b) else ""
                subtracted = bool(times) and abs(ratio + 1) < 1e-3
                found.append(Finding(f"one layer on x = 0 returned {np.round(bias, 3).tolist()}{times}, not its bias "
                                     f"b = {b.tolist()}", BIAS_SUBTRACTED if subtracted else None,
                                     hint="" if subtracted else HINT_BIAS_TIMES if times and _whole(ratio) > 1
                                     else "Each layer adds its own bias once: x @ w + b.",
                                     variant=(("bias_scale", ratio),) if times else ()))
        if not npref.near(matrix, w):
            weights_ok = False
            factor = common_factor(matrix, w, rtol=1e-3)
            if npref.near(matrix, w.T):
                found.append(Finding("one 3x3 layer applied w.T to x, not w", TRANSPOSED))
            elif npref.near(matrix, w + np.eye(len(w))) and npref.near(bias, b):
                found.append(Finding("one 3x3 layer returned x @ w + b + x (on each unit vector e_i, the row w[i] + "
                                     "b + e_i): its input was added to its output", SKIP_CONNECTION))
            elif factor is not None:
                width = (" (one over the square root of its input width, 3)" if abs(factor - 3 ** -0.5) < 1e-3 else
                         " (one over its input width, 3: a mean over the inputs where x @ w sums them)"
                         if abs(factor - 1 / 3) < 1e-3 else "")
                found.append(Finding(f"one 3x3 layer applied {factor:.4g} times w to x{width}", hint="Each layer is "
                                     "x @ w + b with w as given: nothing scales the weights or the product."))
            elif np.ptp(matrix, axis=0).max() <= 1e-3 * max(1.0, float(np.abs(matrix).max())):
                row = np.round(matrix[0], 3).tolist()
                sums = " (w's column sums: x's entries and w's rows are summed apart, not paired)" if npref.near(
                    matrix[0], w.sum(axis=0)) else ""
                found.append(Finding(f"one 3x3 layer gave the same output {row} for each of the three unit vectors"
                                     f"{sums}: which input is set makes no difference, where x @ w gives row i of w "
                                     f"for unit vector i ({w.tolist()})", hint="Each layer is x @ w + b: output j "
                                     "sums x[i] * w[i, j] over the same i (jnp.einsum('bi,ij->bj', x, w) shares the "
                                     "letter i)."))
            else:
                found.append(Finding("one 3x3 layer does not apply x @ w to x (on the unit vectors it gave "
                                     f"{np.round(matrix, 3).tolist()}, expected {w.tolist()})"))
    elif affine is not None:
        weights_ok = False
        found.append(Finding(f"one 3x3 layer on 4 examples returned shape {affine.shape}, expected (4, 3)"))
    if not weights_ok or (found and output_wrong):
        return found  # what rests on one layer's weights (activation, depth) is not measured
    if output_wrong:  # one layer's bias and weights are right, yet its output is not returned as it is
        return [Finding("one layer mapping x to (x, -x) did not return (x, -x): in the first column, "
                        + npref.describe_curve(g, out[:, 0]),
                        HINT_ONE_LAYER)]
    units = _measured(ctx, "measure/units")
    if units is not None and units.shape == (2, 2) and abs(units[0, 0] - units[1, 0]) > 1e-3 * max(1.0, abs(units[1, 0])):
        return [Finding(f"a two-layer network with two hidden units (the identity in both layers), given "
                        f"{UNITS_X[0]} and {UNITS_X[1]}, returned {units[0, 0]:.4g} and {units[1, 0]:.4g} as its first "
                        "output, 1 both times for ReLU: a hidden unit's output changed when only the other unit's "
                        "input did, so each hidden unit depends on the other units of its layer",
                        hint="ReLU acts on each unit on its own: nothing in mlp_forward is computed across a layer's "
                             "units (no normalisation, softmax or mean over them).")]
    act = _measured(ctx, "measure/activation")
    if act is not None and act.size == g.size:
        curve = act.reshape(-1)
        name = npref.curve_name(g, curve)
        if CURVE_MISTAKES.get(name) is NO_ACTIVATION and not _no_activation_in_prefix(ctx):
            # a skipped hidden layer also passes x straight on: the prefixes tell which it is
            return _depth_findings(ctx)
        if not name and npref.near(curve, g + npref.relu(g)):
            found.append(Finding("a hidden layer of one unit, fed x from -3 to 3, passed on x + relu(x) (at -0.5 it "
                                 "gives -0.5, at 1 it gives 2): its input plus ReLU of it", SKIP_CONNECTION))
        elif name != "ReLU" and (scaled := _scaled_relu(g, curve)):
            found.append(Finding(scaled, DROPOUT_IN_FORWARD))
        elif name != "ReLU":
            shape = npref.describe_curve(g, curve)
            what = f"it is {name}" if name else "it is not ReLU"
            constant = not name and np.ptp(curve) <= 1e-6 * max(1.0, float(np.max(np.abs(curve))))
            found.append(Finding(f"the hidden activation, sampled from -3 to 3, is {shape}: {what}",
                                 CURVE_MISTAKES.get(name), HINT_CONSTANT_ACTIVATION if constant else
                                 f"The hidden activation is {name or 'not ReLU'}; the exercise asks for ReLU "
                                 "(jax.nn.relu) after every layer but the last.",
                                 (("act", npref.CURVES[name]),) if name in npref.CURVES else
                                 (("act", lambda z, c=float(curve[0]): np.full_like(z, c)),) if constant else ()))
    far = _measured(ctx, "measure/activation_far") if not found else None
    if far is not None and far.size == FAR.size and not npref.near(far.reshape(-1), npref.relu(FAR)):
        values = far.reshape(-1)
        top = float(np.max(values))
        capped = (np.all(values >= 0) and npref.near(values, np.clip(FAR, 0, top))
                  and np.any(FAR > top + 1e-3))
        shown = ", ".join(f"{v:g} at {x:g}" for x, v in zip(FAR, np.round(values, 3)))
        if capped:
            return [Finding(f"the hidden activation is ReLU from -3 to 3, but far from 0 it gave {shown}: it stops "
                            f"growing at {top:g}", hint=f"The hidden activation is capped at {top:g} (as "
                            "jax.nn.relu6 is); the exercise asks for ReLU (jax.nn.relu), which has no cap.",
                            variant=(("act", lambda z, top=top: np.clip(z, 0, top)),))]
        found.append(Finding(f"the hidden activation is ReLU from -3 to 3, but far from 0 it gave {shown}, not "
                             "relu(x)", hint="The hidden activation must be ReLU (jax.nn.relu) for every input."))
    hidden = _measured(ctx, "measure/hidden_bias")
    hb = np.asarray(cases["hidden_bias"]["params"]["layer1"]["b"], np.float64)
    if not found and hidden is not None and hidden.shape == (1, 2) and not npref.near(hidden[0], npref.relu(hb)):
        if npref.near(hidden[0], hb):
            found.append(Finding(f"a hidden layer with zero weights and bias {hb.tolist()} passed on {hb.tolist()}, "
                                 f"not relu(b) = {npref.relu(hb).tolist()}: the bias is added after the ReLU",
                                 BIAS_AFTER_RELU))
        elif npref.near(hidden[0], npref.relu(-hb)):
            found.append(Finding(f"a hidden layer with zero weights and bias {hb.tolist()} passed on "
                                 f"{np.round(hidden[0], 3).tolist()}, relu(-b), not relu(b) = "
                                 f"{npref.relu(hb).tolist()}, while one layer alone adds its bias: the hidden layers "
                                 "subtract their bias", BIAS_SUBTRACTED))
        elif (times := next((k for k in range(2, 17) if npref.near(hidden[0], npref.relu(k * hb))), None)):
            found.append(Finding(f"a hidden layer with zero weights and bias {hb.tolist()} passed on "
                                 f"{np.round(hidden[0], 3).tolist()}, relu({times} b), not relu(b) = "
                                 f"{npref.relu(hb).tolist()}: the bias is added {times} times", hint=HINT_BIAS_TIMES))
        elif npref.near(hidden[0], np.zeros_like(hb)):
            found.append(Finding(f"a hidden layer with zero weights and bias {hb.tolist()} passed on "
                                 f"{np.round(hidden[0], 3).tolist()}, expected relu(b) = {npref.relu(hb).tolist()}, "
                                 "while one layer alone adds its bias: in a hidden layer the bias does not reach "
                                 "the ReLU", BIAS_NOT_IN_RELU))
        else:
            found.append(Finding(f"a hidden layer with zero weights and bias {hb.tolist()} passed on "
                                 f"{np.round(hidden[0], 3).tolist()}, expected relu(b) = {npref.relu(hb).tolist()}"))
    if not found and (narrow := _narrow_bias(ctx)) is not None:
        return [narrow]
    return found or _depth_findings(ctx)


def _narrow_bias(ctx: Context) -> Finding | None:
    """The finding for a bias that reaches other units than its own in a layer narrower than its input (3 inputs,
    2 outputs) whose weights reach the right units: on x = 0 each output is one of the bias's values or 0. None when
    the bias reaches its own units, or the weights do not, or the output is anything else."""
    got = _measured(ctx, "measure/narrow")
    w, b = NARROW_W.astype(np.float64), NARROW_B.astype(np.float64)
    if got is None or got.shape != (4, 2) or npref.near(got[0], b) or not npref.near(got[1:] - got[0], w):
        return None
    names = {**{f"b[{i}]": v for i, v in enumerate(b)}, "0": 0.0}
    units = [next((n for n, v in names.items() if abs(u - v) <= 1e-4 * max(1.0, abs(v))), None) for u in got[0]]
    if None in units:
        return None
    shown = ", ".join(f"unit {j} got {n}" for j, n in enumerate(units))
    return Finding(f"one layer of 3 inputs and 2 outputs with bias b = {b.tolist()} applied its weights right but "
                   f"on x = 0 returned {np.round(got[0], 3).tolist()} ({shown}), while square layers add their bias "
                   "right: where a layer's output is narrower than its input, the bias lands on other units than "
                   "its own", hint=HINT_BIAS_PLACED)


def _whole(ratio: float) -> int:
    """``ratio`` as a whole number where it is one (to float32 rounding), 0 otherwise."""
    return round(ratio) if abs(ratio - round(ratio)) < 1e-4 * max(1.0, abs(ratio)) else 0


HINT_BIAS_TIMES = ("Each layer adds its own bias once: x @ w + b. Where x @ w is computed in parts (shards or blocks of "
                   "the input features, a loop over chunks) and the parts are summed, add b after the sum, not to "
                   "each part.")


HINT_BIAS_PLACED = ("Output unit j of a layer adds b[j]: x @ w + b with b as given, shape (n_out,). Where arrays are "
                    "padded, sliced or stacked to a common width, the bias must be padded like the weights' columns "
                    "(jnp.pad's widths are (before, after)) and the output cut back to the layer's own n_out.")


HINT_CONSTANT_ACTIVATION = (
    "The hidden activation gave one value whatever it was given: the layer's output never reaches the argument the "
    "activation reads as its input. Check how it is called (functools.partial(f, v) fixes f's first parameter, "
    "which for jax.nn functions is the input; bind others by keyword), or call jax.nn.relu(h) directly.")


DROPOUT_IN_FORWARD = Mistake(
    "ex3.dropout_in_forward", "dropout (train mode) in the hidden layers",
    "mlp_forward is the plain MLP: x @ w + b, ReLU after every layer but the last, nothing else. Its hidden "
    "activation is ReLU with the survivors scaled up (and some units zeroed, where the message says so), as "
    "inverted dropout in train mode does: leave dropout out of mlp_forward (a Dropout layer in a model template "
    "left in training mode, or a dropout call, switched off for inference).")


def _scaled_relu(g: np.ndarray, curve: np.ndarray) -> str:
    """Words for a curve that is 0 where ReLU is and c * x (c != 1) at the positive points, some of them possibly 0
    (units dropped); with the rate whose inverted-dropout scale 1 / (1 - rate) c is, where a simple one fits.
    "" otherwise."""
    pos = g > 0
    if not pos.any() or not npref.near(curve[~pos], np.zeros(int((~pos).sum()))):
        return ""
    values, xs = curve[pos], g[pos]
    live = np.abs(values) > 1e-6
    if not live.any():
        return ""
    factors = values[live] / xs[live]
    c = float(np.median(factors))
    if abs(c - 1) < 1e-2 or c <= 0 or np.ptp(factors) > 1e-3 * c:
        return ""
    rate = 1 - 1 / c
    simple = next((r for r in (0.1, 0.2, 0.25, 0.3, 0.4, 0.5) if abs(rate - r) < 2e-3), None)
    if simple is None:
        return ""
    dropped = int((~live).sum())
    gone = (f"; {dropped} of the {int(pos.sum())} positive points came out 0, as dropped units do" if dropped
            else "")
    return (f"the hidden activation, sampled from -3 to 3, is 0 below 0 and {c:.4g} x above it (ReLU scaled by "
            f"{c:.4g} = 1 / (1 - {simple:g}), inverted dropout's scale for the units it keeps at rate {simple:g})"
            f"{gone}")


BIAS_NOT_IN_RELU = Mistake(
    "ex3.bias_not_in_relu", "a hidden layer whose ReLU does not see the bias",
    "A hidden layer is relu(x @ w + b): the ReLU, and any test it makes (x > 0), acts on the sum with the bias. "
    "Here the bias never reached it (with zero weights and a positive bias the layer gave 0).")


def _row_shift(got: np.ndarray, right: np.ndarray) -> np.ndarray | None:
    """Each row's offset, when ``got`` is ``right`` with one value added across each row, and not the same value
    for every row (that would be a bias); None otherwise."""
    shift = got - right
    if npref.near(shift, np.repeat(shift[:, :1], shift.shape[1], axis=1)) and np.ptp(shift[:, 0]) > 1e-3:
        return shift[:, 0]
    return None


def _input_relu_everywhere(ctx: Context) -> bool:
    """The first 2 and 3 layers of the 12-layer case give what a ReLU on the input, then the contract's layers,
    gives (True when they were not measured: nothing says otherwise)."""
    c = _case(ctx, DEEP_CASE)
    for k in (2, 3):
        got = _measured(ctx, f"measure/prefix{k}")
        if got is not None and not _up_to_output(got, npref.mlp(npref.prefix(c["params"], k), c["x"],
                                                                in_act=npref.relu)):
            return False
    return True


def _no_activation_in_prefix(ctx: Context) -> bool:
    """The first two and three layers of the 12-layer case (hidden layers that certainly run) give no
    activation's answer: not an activation missing from only some layers."""
    c = _case(ctx, "d12")
    for k in (2, 3):
        got = _measured(ctx, f"measure/prefix{k}")
        if got is None or not _up_to_output(got, npref.mlp(npref.prefix(c["params"], k), c["x"], act=lambda z: z)):
            return False
    return True


def _in_string_order(ctx: Context, k: int) -> bool:
    """The first k layers of the 12-layer case give what they give run with their names sorted as text."""
    c = _case(ctx, "d12")
    got = _measured(ctx, f"measure/prefix{k}")
    return got is not None and _up_to_output(got, npref.mlp(npref.prefix(c["params"], k), c["x"], order="string"))


def _depth_findings(ctx: Context) -> list[Finding]:
    """Which layer of the 12-layer case first changes the answer, from its first k layers, k = 1..12; first, the
    numbers of layers with which it returned None, which say nothing about the layers."""
    params = _case(ctx, DEEP_CASE)["params"]
    nones = [k for k in range(1, len(params) + 1) if _returned_none(ctx, f"measure/prefix{k}")]
    found = _first_depth_difference(ctx, set(nones))
    if not nones:
        return found
    counts = ", ".join(map(str, nones[:6])) + (", ..." if len(nones) > 6 else "")
    return [Finding(f"with {counts} layer(s) of the 12-layer case it returned None: it ended without reaching a "
                    "return statement", hint=HINT_NONE), *found]


HINT_NONE = ("mlp_forward must return the output whatever the depth: with the numbers of layers in the message it "
             "ended without reaching a return statement. Check that every path through it returns (one layer has "
             "no hidden layer to loop over; a loop over them may run zero times).")


def _first_depth_difference(ctx: Context, skip: set[int]) -> list[Finding]:
    """Which layer of the 12-layer case first changes the answer, the numbers of layers in ``skip`` left out."""
    c = _case(ctx, DEEP_CASE)
    params, x = c["params"], c["x"]
    for k in range(1, len(params) + 1):
        if k in skip:
            continue
        name = f"measure/prefix{k}"
        sub = npref.prefix(params, k)
        if name in ctx.student.errors:
            error = ctx.student.errors[name]
            first_skipped = _first_layer_skipped(ctx) if k == 1 else ""
            if first_skipped:
                return [Finding(f"the first layer of the 12-layer case alone raised {error.type}; {first_skipped}",
                                FIRST_SKIPPED)]
            return [Finding(f"the first {k} layers of the 12-layer case raised {error.type}"
                            + (f" while the first {k - 1} agree" if k > 1 and not skip else ""))]
        got = _measured(ctx, name)
        if got is None:
            return []
        want = npref.mlp(sub, x)
        if _up_to_output(got, want):
            continue
        agree = f"the first {k - 1} layers agree; " if k > 1 and not skip else ""
        if got.shape == want.shape and all(_in_string_order(ctx, j) for j in range(k, len(params) + 1)):
            order = npref.layer_names(sub, "string")
            return [Finding(f"{agree}with {k} layers the output is what the order {', '.join(order[:4])}, ... gives "
                            "(names sorted as text)", STRING_ORDER)]
        if got.shape == want.shape and all(_in_flat_string_order(ctx, j) for j in range(k, len(params) + 1)):
            order = sorted(range(2 * k - 1), key=str)
            return [Finding(f"{agree}with {k} layers the output is what its {k} layers and {k - 1} ReLUs give as one "
                            f"list of {2 * k - 1} modules numbered 0 to {2 * k - 2} (layer i at 2i - 2, a ReLU after "
                            "each hidden one) run in the order of their numbers sorted as text: "
                            f"{', '.join(map(str, order[:5]))}, ...", MODULES_STRING_ORDER)]
        same = [j for j in range(1, k) if _up_to_output(got, npref.mlp(npref.prefix(params, j), x))]
        if same:
            return [Finding(f"{agree}with {k} layers the output equals that of the first {same[-1]}: layer{k} "
                            "did not run")]
        skipped = [j for j in range(1, k + 1)
                   if _up_to_output(got, npref.mlp({n: v for n, v in sub.items() if n != f"layer{j}"}, x))]
        if skipped:
            j = skipped[0]
            return [Finding(f"{agree}with {k} layers the output is what the other {k - 1} give without "
                            f"layer{j}: layer{j} has no effect on it (it did not run, or its result was not passed on)",
                            hint=f"With the first {k} layers, layer{j} has no effect on the output: run every layer, "
                                 "layer1 to layerN, in numeric order, each taking the previous layer's result as its "
                                 "input, with ReLU after each but the last.")]
        order = _measured_order(ctx)
        ran = [n for n in order or () if npref.layer_number(n) <= k]  # the first k layers, as they ran
        if order is not None and len(ran) == k and ran != sorted(ran, key=npref.layer_number):
            return [Finding(f"{agree}with {k} layers the output is what the layers give run in the order "
                            f"{_names(ran)}" + (f"; all {len(order)} ran in the order {_names(order)}"
                                                if len(order) > k else ""), LAYER_ORDER)]
        placed = _measured_placement(ctx, k)
        if placed:
            return [Finding(agree + "; ".join(placed), RELU_PLACEMENT)]
        rounded = _rounding_sized(got, want)
        if rounded:
            return [Finding(f"{agree}with {k} layers the output differs by {rounded}", LOW_PRECISION)]
        return [Finding(f"{agree}with {k} layers the output differs")]
    return []


LOW_PRECISION = Mistake(
    "ex3.low_precision", "layers computed in a 16-bit float",
    "The output is off by what a 16-bit float's rounding leaves (the message says which): some product or sum was "
    "computed in float16 or bfloat16 (a preferred_element_type, a dtype or astype, a precision setting). Compute "
    "every layer in float32, the dtype of x and the params: plain x @ w + b.")

def _rounding_sized(got: np.ndarray, want: np.ndarray) -> str:
    """Words for an output whose every element is off from ``want`` by no more than a few 16-bit roundings of the
    output's size, and some by far more than float32's, as noise (both signs, no offset, no scale); "" otherwise."""
    if got.shape != want.shape or not want.size or not np.all(np.isfinite(got)):
        return ""
    scale = float(np.max(np.abs(want)))
    diff = (got - want).ravel()
    off = float(np.max(np.abs(diff))) / scale if scale > 0 else 0.0
    if off < 1e-5 or diff.size < 16:
        return ""
    # rounding is noise: errors of both signs, not one offset, and not a multiple of the values (a scale)
    follows = abs(float(np.corrcoef(diff, want.ravel())[0, 1])) if np.std(want) > 0 else 1.0
    if not (np.any(diff > 0) and np.any(diff < 0)) or np.std(diff) < 0.5 * np.mean(np.abs(diff)) or follows > 0.9:
        return ""
    for name, bits in sorted(SIXTEEN_BIT_MANTISSAS.items(), key=lambda item: -item[1]):  # float16's finer step first
        step = 2.0 ** -bits  # the rounding step relative to a value
        if off <= 4 * step:
            return (f"at most {off:.2g} of its size ({float(np.max(np.abs(diff))):.3g} on values up to "
                    f"{scale:.3g}): a few roundings of a {name} ({step:.2g} of a value), where float32's is 6e-08")
    return ""


MODULES_STRING_ORDER = Mistake(
    "ex3.modules_string_order", "layers and ReLUs numbered as one list, run in the text order of their numbers",
    "The layers and ReLUs, numbered 0, 1, 2, ... as one list of modules (as a Sequential numbers them), ran in the "
    "order of their numbers compared as text: '10' sorts before '2', so from the sixth layer on the modules run out "
    "of order. Keep the modules in a list and run them in it, or sort their keys by int(key).")


def _flat_string_order(params: dict, x: np.ndarray) -> np.ndarray:
    """The MLP run as one list of modules 0..2k-2 (layer i at 2i - 2, a ReLU at each odd number) taken in the text
    order of their numbers."""
    names = npref.layer_names(params)
    h = np.asarray(x, np.float64)
    for index in sorted(range(2 * len(names) - 1), key=str):
        if index % 2:
            h = np.maximum(h, 0)
        else:
            layer = params[names[index // 2]]
            h = h @ np.asarray(layer["w"], np.float64) + np.asarray(layer["b"], np.float64)
    return h


def _in_flat_string_order(ctx: Context, k: int) -> bool:
    """The first k layers of the 12-layer case give what they give run as one list of modules in text order."""
    c = _case(ctx, "d12")
    got = _measured(ctx, f"measure/prefix{k}")
    return got is not None and _up_to_output(got, _flat_string_order(npref.prefix(c["params"], k), c["x"]))


FIRST_SKIPPED = Mistake(
    "ex3.first_layer_skipped", "layer1 left out of the forward pass",
    "layer1 never reached the output: run every layer, layer1 to layerN, in numeric order, each taking the previous "
    "layer's result. Where the layers come from an iterator (a generator, map(), iter()), anything that takes an "
    "item off it first (next(), to look at the first layer) leaves the rest of the code without that layer.")


def _first_layer_skipped(ctx: Context) -> str:
    """Words for a forward pass whose output with 2 to 12 layers of the 12-layer case is what the others give
    without layer1 (checked at every depth that returned); "" otherwise."""
    c = _case(ctx, DEEP_CASE)
    params, x = c["params"], c["x"]
    depths = []
    for k in range(2, len(params) + 1):
        got = _measured(ctx, f"measure/prefix{k}")
        if got is None:
            continue
        sub = {n: v for n, v in npref.prefix(params, k).items() if n != "layer1"}
        if not _up_to_output(got, npref.mlp(sub, x)) or _up_to_output(got, npref.mlp(npref.prefix(params, k), x)):
            return ""
        depths.append(k)
    if len(depths) < 2:
        return ""
    return (f"with 2 to {depths[-1]} layers the output is what layer2 to layerk give without layer1 (at each of "
            f"{len(depths)} depths): layer1 has no effect on the output")


def _names(names: list[str]) -> str:
    return ", ".join(names) if len(names) <= 6 else ", ".join(names[:5]) + ", ..., " + names[-1]


def _in_order(params: dict, x: np.ndarray, names: list[str], act_after: set[int] | None = None) -> np.ndarray:
    """:func:`npref.mlp` with the layers run in the order ``names`` (ReLU after those numbered in ``act_after``,
    by default after every layer run but the last)."""
    return npref.mlp({name: params[name] for name in names}, x, "dict", act_after=act_after)


def _measured_order(ctx: Context) -> list[str] | None:
    """The order the 12-layer case's layers ran in, measured from its prefixes: whatever the student sorts the
    names by, the first k layers run in that order, so layer k's place is where inserting it into the first
    k - 1 layers' order reproduces the k-layer answer. None when some prefix has no single such place."""
    c = _case(ctx, DEEP_CASE)
    params, x = c["params"], c["x"]
    order: list[str] = []
    for k in range(1, len(params) + 1):
        got = _measured(ctx, f"measure/prefix{k}")
        if got is None:
            return order or None
        fits = [order[:i] + [f"layer{k}"] + order[i:] for i in range(len(order) + 1)]
        fits = [names for names in fits if _up_to_output(got, _in_order(params, x, names))]
        if len(fits) != 1:
            return order or None
        order = fits[0]
    return order


def _placed(params: dict, x: np.ndarray, names: list[str], places: set[int]) -> np.ndarray:
    """The layers ``names`` with ReLU after those numbered in ``places``, and on the input x when 0 is one."""
    return _in_order(params, npref.relu(x) if 0 in places else x, names, places - {0})


def _measured_placement(ctx: Context, k: int) -> list[str]:
    """Where ReLU ran in the first k, k+1 and k+2 layers of the 12-layer case (numeric order), the input
    included: for each, the one set of places whose ReLU reproduces the answer. Empty when any has no such single
    set."""
    c = _case(ctx, DEEP_CASE)
    params, x = c["params"], c["x"]
    found = []
    for j in range(k, min(k + 2, len(params)) + 1):
        got = _measured(ctx, f"measure/prefix{j}")
        if got is None or j > 10:
            break
        names = [f"layer{i}" for i in range(1, j + 1)]
        places = range(0, j)
        sets = [set(s) for n in range(len(places) + 1) for s in combinations(places, n)
                if _up_to_output(got, _placed(params, x, names, set(s)))]
        if len(sets) != 1:
            return []
        hidden = sets[0] - {0}
        after = ", ".join(f"layer{i}" for i in sorted(hidden)) or "no layer"
        raw = _placed(params, x, names, sets[0])
        if array_mismatch(got, raw) is not None and array_mismatch(got, npref.relu(raw)) is None:
            after = (after + f" and the output layer{j}") if hidden else f"the output layer{j} only"
        where = f"after {after}"
        if 0 in sets[0]:
            where = "on the input x" + (f" and after {after}" if after != "no layer" else "")
        expected = {1: "no ReLU", 2: "ReLU after layer1"}.get(j, f"ReLU after layer1 to layer{j - 1}")
        found.append(f"with {j} layer{'s' if j > 1 else ''} the output is what ReLU {where} gives (expected "
                     f"{expected})")
    return found


def _measured_words(findings: list[Finding]) -> tuple[str, Mistake | str]:
    """The message tail and the hint the findings support: a mistake only when the one finding names one."""
    if not findings:
        return "", ""
    text = "; measured: " + "; ".join(f.text for f in findings)
    if len(findings) == 1 and findings[0].mistake is not None:
        return text, findings[0].mistake
    hints = [f.mistake.hint if f.mistake else f.hint for f in findings]
    return text, " ".join(h for h in hints if h)


LEFT_OUT_INPUTS = ("Each layer is x @ w + b over all of its inputs: a matmul written in tiles (blocks of the input "
                   "axis) must take the last, shorter tile too, range(0, d_in, tile) with a slice that stops at "
                   "d_in. h @ w does it whole.")


def _inputs_left_out(ctx: Context, cases: list[str]) -> str:
    """Words for wrong outputs that are each the MLP's with one layer's last inputs left out (the rows of its w
    past a multiple of a power of two, as a matmul in tiles that drops the last, partial one gives), the same
    layer and count in every case where it shows; "" otherwise."""
    seen, found = [], ""
    for case in cases:
        c = _case(ctx, case)
        got = _measured(ctx, f"out/{case}")
        if got is None:
            return ""
        names = npref.layer_names(c["params"])
        hit = None
        for i, name in enumerate(names):
            d_in = np.shape(c["params"][name]["w"])[0]
            for kept in sorted({d_in // t * t for t in (8, 16, 32, 64, 128, 256, 512)} - {0, d_in}, reverse=True):
                params = {n: dict(layer) for n, layer in c["params"].items()}
                w = np.array(params[name]["w"], np.float64)
                w[kept:] = 0
                params[name]["w"] = w
                if _up_to_output(np.asarray(got, np.float64), npref.mlp(params, np.asarray(c["x"], np.float64))):
                    hit = (i, kept, d_in)
                    break
            if hit:
                break
        if hit is None:
            return ""
        i, kept, d_in = hit
        seen.append(f"with {len(CASES[case][0]) - 1} layers the output is the MLP's with layer{i + 1}'s last {d_in - kept} inputs of {d_in} "
                    f"left out (only its first {kept} reach the output)")
    return "; ".join(seen)


BIASES_UNSCALED = Mistake(
    "ex3.biases_unscaled", "each row's input divided by a scale and the output multiplied back, the biases not",
    "mlp_forward computes each layer on x as it is: dividing a row of x by a scale s and multiplying the output back "
    "by s is exact only for a network without biases, since relu(x / s @ w + b) * s is relu(x @ w + s * b): every "
    "bias ends up multiplied by s. Drop the rescaling (float32 has the range for these inputs).")

#: Per-row statistics of the input a rescaling may divide a row by, as (words, statistic of a (B, d) array).
_ROW_SCALES = (
    ("its largest |x|", lambda x: np.max(np.abs(x), axis=1)),
    ("its L2 norm", lambda x: np.sqrt(np.sum(x ** 2, axis=1))),
    ("its sum of |x|", lambda x: np.sum(np.abs(x), axis=1)),
    ("its mean |x|", lambda x: np.mean(np.abs(x), axis=1)),
    ("its root mean square", lambda x: np.sqrt(np.mean(x ** 2, axis=1))),
    ("its standard deviation", lambda x: np.std(x, axis=1)),
)


def _mlp_biases_by_row(params: dict, x: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """The MLP on x with every bias of row r multiplied by scale[r]."""
    names = npref.layer_names(params)
    h = x
    for i, name in enumerate(names):
        h = h @ np.asarray(params[name]["w"], np.float64) + scale[:, None] * np.asarray(params[name]["b"], np.float64)
        if i < len(names) - 1:
            h = np.maximum(h, 0)
    return h


def _biases_scaled_by_row(ctx: Context, cases: list[str]) -> str:
    """Words for wrong outputs that are, row by row, the MLP's with every bias multiplied by one statistic of that
    row of x (what dividing the row by it and multiplying the output back gives), the same statistic in every
    case; "" otherwise."""
    found = None
    for case in cases:
        c = _case(ctx, case)
        got = _measured(ctx, f"out/{case}")
        if got is None:
            return ""
        x = np.asarray(c["x"], np.float64)
        fits = [words for words, stat in _ROW_SCALES
                if not np.allclose(stat(x), 1.0, rtol=1e-3)
                and _up_to_output(np.asarray(got, np.float64),
                                  _mlp_biases_by_row(c["params"], x, np.where(stat(x) > 0, stat(x), 1.0)))]
        found = fits if found is None else [w for w in found if w in fits]
        if not found:
            return ""
    if not found:
        return ""
    return (f"each row's output is the MLP's with every bias multiplied by {found[0]} (in every wrong case): what "
            "dividing the row by that and multiplying the output back gives, the biases left as they were")


def _listed_order_only(ctx: Context, outcomes: dict[str, str]) -> str:
    """Words for answers wrong (or raised) only where the params dict lists its layers out of order, while the
    12-layer network, listed in numeric order, agrees and under jax.jit (which lists a dict's keys as text) runs in
    string order: both say the code follows the dict's order. "" otherwise."""
    wrong = [case for case, outcome in outcomes.items() if outcome in ("wrong", "error")]
    if not wrong or any(CASES[case][2] == "numeric" for case in wrong) or DEEP_CASE in outcomes \
            or not ctx.student.observed(f"jit/{DEEP_CASE}") or not _jit_ran_in_string_order(ctx):
        return ""
    kept = len(outcomes) - len(wrong)
    return (f"the only case{'s' if len(wrong) > 1 else ''} that failed {'list' if len(wrong) > 1 else 'lists'} the "
            f"layers in another order than their numbers ({'; '.join(_describe(c) for c in wrong)}), while "
            f"{kept} other cases and the {len(CASES[DEEP_CASE][0]) - 1}-layer network, listed in numeric order, "
            "agree; under jax.jit, which lists the keys as text, the 12 layers ran in string order: the code follows "
            "the order the dict lists the layers in")


def _first_difference(outcomes: dict[str, str]) -> str:
    """Where the answers first go wrong, by depth, and what that rules out."""
    order = [c for c in (*DEPTH_CASES, DEEP_CASE) if c in outcomes]
    right = [c for c in order if outcomes[c] == "ok"]
    wrong = [c for c in order if outcomes[c] != "ok"]
    if not wrong:
        return ""
    first = wrong[0]
    if first == DEEP_CASE and not right:  # the 12-layer case alone says nothing about where it goes wrong
        return ""
    depth = len(CASES[first][0]) - 1
    if wrong == ["d1"] and right:
        return ("; only the network of one layer differs, and every deeper one agrees: with no hidden layer, the "
                "code takes a path of its own (a loop over no layers, an unpacking of one item) that goes wrong")
    if "d1" in right:
        agree = "; ".join(f"depth {len(CASES[c][0]) - 1} (widths {list(CASES[c][0])})" for c in right)
        return (f"; the first wrong answer is at depth {depth} (widths {list(CASES[first][0])}), while {agree} "
                "agree: the difference comes with more layers, or with wider ones")
    return "; already one layer (depth 1) differs, so the difference is in x @ w + b itself or around it"


def _judge_cases(ctx: Context, cases: tuple[str, ...]) -> Verdict:
    """The outputs of ``cases`` against the reference's, a share of credit for each that agrees, and half a share
    for each that returns the right outputs of its examples in another number of rows (rows left out, or rows
    beyond the batch): the values are computed, their number is wrong."""
    problems, errors, named, outcomes, shaped, crashed, rows_only, activated = [], [], [], {}, None, {}, 0, []
    for case in cases:
        c = _case(ctx, case)
        try:
            got = np.asarray(ctx.got(f"out/{case}"), dtype=np.float64)
        except StudentError as exc:
            errors.append(exc)
            crashed[case] = exc.error
            shaped = shaped or _shape_words(case, exc.error)
            outcomes[case] = "error"
            problems.append(f"{_describe(case)}: {exc.error.summary()}")
            named.append(_error_explains(ctx, case, exc.error))
            continue
        want = np.asarray(ctx.want(f"out/{case}"), dtype=np.float64)
        if _up_to_output(got, want):
            outcomes[case] = "ok"
            if array_mismatch(got, want) is not None:  # right up to an activation on the output
                activated.append(_describe(case))
            continue
        outcomes[case] = "wrong"
        rows = _rows_returned(got, want)
        rows_only += rows is not None
        laid_out = None if rows else _output_layout(c, got, want)
        if laid_out:
            rows = laid_out[0]
        named.append({(ROWS_DROPPED if got.shape[0] < want.shape[0] else ROWS_ADDED, None)} if rows and not laid_out
                     else {(laid_out[1], None)} if laid_out else explain(c["params"], c["x"], got))
        problems.append(f"{_describe(case)}: " + ("returned None" if _returned_none(ctx, f"out/{case}") else
                                                  array_mismatch(got, want)) + (f"; measured: {rows}" if rows else ""))
    changed = _changed_after_first(ctx) if problems else None
    if changed is not None:  # what the later calls compute says nothing about the code's first call: read first
        return fail("; ".join(problems) + f"; measured: {changed.text}", CALLS_CHANGE,
                    fraction=1 - len(problems) / len(cases))
    shaped = _first_layers(ctx, crashed) or shaped
    mistake = _one_mistake(named)
    if errors and len(errors) == len(cases) and mistake is None:
        swapped = _measured(ctx, "measure/swapped/d3")
        if swapped is not None and _up_to_output(swapped, np.asarray(ctx.want("out/d3"), np.float64)):
            return fail("; ".join(problems) + "; measured: called as mlp_forward(x, params) instead, it returned the "
                        "right answer for 3 layers, so its parameters are in the order (x, params)", ARGS_SWAPPED)
        if shaped:  # the graded cases' own crash says what met what: it goes before the measurement networks
            return fail("; ".join(problems) + shaped[0], shaped[1])
        text, measured = _measured_words(measure(ctx))
        if not isinstance(measured, Mistake):
            raise errors[0]  # worded by the crash's kind (engine), as nothing measured names its cause
        return fail("; ".join(problems) + text, measured)
    if not problems:
        if activated:  # a pass that excused something says so: its name alone would claim every output agrees
            which = ("every output" if len(activated) == len(cases) else
                     f"the output of {' and of '.join(activated)}")
            return Verdict(True, f"the layers compute the right values; {which} has an activation on it (charged in "
                                 "ex3.output_linear)")
        return PASS
    fraction = 1 - (len(problems) - rows_only / 2) / len(cases)
    if mistake is None and (fixed := _fixed_depth(ctx)):
        return fail("; ".join(problems) + f"; measured: {fixed}", DEPTH, fraction=fraction)
    if mistake is not None:
        named_as = (f"; that error is what {mistake.name} gives" if len(errors) == len(problems)
                    else "" if mistake in (ROWS_DROPPED, ROWS_ADDED) else f"; {equals(mistake)}")  # rows name it
        return fail("; ".join(problems) + named_as, mistake, fraction=fraction)
    text, measured = _measured_words(measure(ctx))
    if shaped:  # the graded cases' own crash says what met what: it goes before the measurement networks
        text, measured = shaped
    if not text and (left_out := _inputs_left_out(ctx, [c for c, o in outcomes.items() if o == "wrong"])):
        text, measured = f"; measured: {left_out}", measured or LEFT_OUT_INPUTS
    if not isinstance(measured, Mistake) and \
            (unscaled := _biases_scaled_by_row(ctx, [c for c, o in outcomes.items() if o == "wrong"])):
        text, measured = f"; measured: {unscaled}", BIASES_UNSCALED
    if not isinstance(measured, Mistake) and (listed := _listed_order_only(ctx, outcomes)):
        text, measured = f"; measured: {listed}", DICT_ORDER
    crashed = error_hint(errors[0].error) if errors and len(errors) == len(problems) else ""
    split = bool(crashed) and all(crash_kind(e.error) in BATCH_SIZE_CRASHES for e in errors)
    if not isinstance(measured, Mistake) and [c for c, o in outcomes.items() if o != "ok"] == ["d1"] \
            and len(outcomes) > 1 and not split:
        measured = ("mlp_forward must work for a network of one layer too: with only layer1 it is x @ w + b, with no "
                   "hidden layer and no ReLU. Check the path your code takes when there is no hidden layer.")
    if split:
        text = text or "; the failing cases are those whose batch size the split does not divide"
    return fail("; ".join(problems) + (text or _first_difference(outcomes)), measured or crashed or HINT_CONTRACT,
                fraction=fraction)


ROWS_DROPPED = Mistake(
    "ex3.rows_dropped", "examples of the batch left out (a batch run in pieces, the last one dropped)",
    "mlp_forward returns one row per example of x, for any B. Apply the layers to the whole batch at once (x @ w + b "
    "takes every row); if you do split it, keep the last, shorter piece: range(0, B, size) with x[i:i + size], or a "
    "ceiling division (B + size - 1) // size, not B // size.")


ROWS_ADDED = Mistake(
    "ex3.rows_added", "rows beyond the batch's examples returned (a batch padded and not cut back)",
    "mlp_forward returns exactly one row per example of x: B = x.shape[0] rows. The first rows are the right outputs "
    "and the rest come from rows x does not have: a batch padded (to a power of two, a fixed bucket) must be cut "
    "back to the original B, with the B read before the padding (n = x.shape[0]; ...; return out[:n]), not from the "
    "padded array.")


def _rows_returned(got: np.ndarray, want: np.ndarray) -> str | None:
    """When ``got`` has another number of rows than the batch, each of the right width: which rows it holds."""
    if got.ndim != 2 or want.ndim != 2 or got.shape[1] != want.shape[1] or got.shape[0] == want.shape[0]:
        return None
    k, b = got.shape[0], want.shape[0]
    if k < b and array_mismatch(got, want[:k]) is None:
        return (f"the {k} rows returned are the first {k} examples' right outputs: the last {b - k} of the {b} "
                "examples were left out")
    if k > b and array_mismatch(got[:b], want) is None:
        return f"the first {b} rows are the right outputs, then {k - b} rows more than x has examples"
    return None


EXTRA_AXIS = Mistake(
    "ex3.extra_axis", "the right outputs with an axis of length 1 added",
    "mlp_forward returns shape (B, n_out). The values here are right, with an axis of length 1 more (a row lifted "
    "to (1, d) inside a jax.vmap and never squeezed, x[None], or a keepdims): map over the rows as they are, or "
    "squeeze that axis before returning.")
BATCH_CONTRACTED = Mistake(
    "ex3.batch_contracted", "a layer's product summed over the examples instead of the inputs",
    "Each layer contracts the inputs axis: x @ w, jnp.einsum('bi,io->bo', x, w), or (x[:, :, None] * w).sum(axis=1). "
    "Summed over axis 0 instead, the broadcast product adds the examples together and keeps the inputs axis: "
    "shape (in, out).")


def _output_layout(c: dict, got: np.ndarray, want: np.ndarray) -> tuple[str, Mistake] | None:
    """For an output of another shape than (B, n_out): the right values with axes of length 1 added, or, for a
    one-layer case, each layer's broadcast product summed over the examples (shape (in, out)); None otherwise."""
    if got.shape == want.shape:
        return None
    if got.size == want.size and got.squeeze().shape == want.squeeze().shape and \
            array_mismatch(got.reshape(want.shape), want) is None:
        return (f"the right values, in shape {got.shape} where {want.shape} belongs: an axis of length 1 "
                "more"), EXTRA_AXIS
    names = npref.layer_names(c["params"])
    h = np.asarray(c["x"], np.float64)
    for i, name in enumerate(names):  # each layer: its rows summed, times w, plus b
        w, b = (np.asarray(c["params"][name][k], np.float64) for k in ("w", "b"))
        h = h.sum(axis=0)[:, None] * w + b
        h = np.maximum(h, 0) if i < len(names) - 1 else h
    last = np.shape(c["params"][names[-1]]["w"])
    if got.shape == h.shape and _up_to_output(got, h):
        return (f"the output has the last layer's shape {last}, (inputs, outputs): each layer gave entry [i, o] = "
                "(its input's column i summed over the rows) * w[i, o] + b[o], the product h[:, :, None] * w summed "
                "over the rows (axis 0) instead of the inputs (axis 1)"), BATCH_CONTRACTED
    return None


FIXED_BATCH = Mistake(
    "ex3.fixed_batch", "a batch size written into the code",
    "mlp_forward takes a batch of any size B: nothing in it may be made for a fixed number of rows (the lesson's "
    "128). x @ w + b adds the (out,) bias to every row by itself; where B is needed, it is x.shape[0].")
BIAS_COLUMN = Mistake(
    "ex3.bias_column", "a bias reshaped to a column",
    "With h of shape (B, in) and w of shape (in, out), the bias of shape (out,) adds along each row as it is: "
    "h @ w + b. Reshaped to a column (out, 1) (b[:, None], b.reshape(-1, 1)) it no longer fits the (B, out) rows.")


def _shape_words(case: str, error: ObservationError) -> tuple[str, Mistake] | None:
    """What the shapes a shape crash names show, in ``case``: an array of a fixed number of rows met the batch's,
    a layer's bias met another layer's outputs, a product turned round ((out, B)) met its bias, or a bias reshaped
    to a column; None when they show none of these."""
    shapes = shapes_met(error)
    widths, b, _ = CASES[case]
    shown = ", ".join(str(s) for s in shapes)
    rows = fixed_rows(shapes, b)
    if rows is not None:
        return (f"; measured: an array of {rows} rows met the batch's {b} rows ({shown}; {_describe(case)}): it was "
                f"made for a batch of {rows}"), FIXED_BATCH
    outputs = [s for s in shapes if len(s) == 2 and s[0] == b and s[1] in widths[1:]]
    vectors = [s[0] for s in shapes if len(s) == 1 and s[0] in widths[1:]]
    if outputs and vectors and vectors[0] != outputs[0][1]:
        units, values = outputs[0][1], vectors[0]
        owner = [f"layer{i}" for i, w in enumerate(widths[1:], start=1) if w == values]
        mine = [f"layer{i}" for i, w in enumerate(widths[1:], start=1) if w == units]
        if len(owner) == 1 and len(mine) == 1:
            return (f"; measured: a bias of {values} values, {owner[0]}'s, met {mine[0]}'s {units} outputs ({shown}; "
                    f"{_describe(case)}): a layer given another layer's bias"), BIAS_OTHER_LAYER
    turned = [s for s in shapes if len(s) == 2 and s[1] == b and s[0] in widths[1:] and s[0] != b]
    if turned and (turned[0][0],) in shapes:  # (out, B) met the layer's bias (out,): the product is turned round
        units = turned[0][0]
        return (f"; measured: a layer's product came out ({units}, {b}), its bias's {units} values along its first "
                f"axis, where h @ w is ({b}, {units}) ({shown}; {_describe(case)}): the product turned round"), \
            PRODUCT_TRANSPOSED
    columns = [s for s in shapes if len(s) == 2 and s[1] == 1 and s[0] in widths[1:]]
    if columns and any(len(s) == 2 and s[0] == b and s[1] == columns[0][0] for s in shapes):
        return (f"; measured: a ({columns[0][0]}, 1) column met the ({b}, {columns[0][0]}) rows of a layer's output "
                f"({shown}; {_describe(case)}): the bias as a column"), BIAS_COLUMN
    return None


def _depths_mistake(ctx: Context) -> str:
    """The mistake ex3.depths named, or ""."""
    try:
        return ctx.verdict("ex3.depths").mistake
    except StudentError:
        return ""


def _order_measured(ctx: Context) -> bool:
    """True when ex3.depths measured the layers running in another order than their numbers."""
    return _depths_mistake(ctx) == LAYER_ORDER.id


def _first_layers(ctx: Context, crashed: dict[str, ObservationError]) -> tuple[str, Mistake] | None:
    """Words for cases whose crashes all show the input's features meeting a later layer's weights, the same layer
    k in each or the last in each (layers in reverse, or every layer the last one: told apart on the deep case of
    equal widths, which runs), at least two cases; None otherwise (a layer skipped shows another layer's output
    meeting them, not the input)."""
    first = {case: _first_layer_run(shapes_met(error), CASES[case][0]) for case, error in crashed.items()}
    if len(first) < 2 or None in first.values():
        return None
    depths = {case: len(CASES[case][0]) - 1 for case in first}
    case = next(iter(first))
    widths, k = CASES[case][0], first[case]
    example = f"{_describe(case)}: its {widths[0]} features met layer{k}'s {widths[k - 1]} rows"
    if all(first[case] == depths[case] for case in first):
        said = f"; measured: in every case that crashed, the input met the last layer's weights first ({example})"
        every = _every_layer_the_last(ctx)
        if every:
            return f"{said}, and {every}", LATE_BINDING
        return f"{said}: the layers ran in reverse order", LAYER_ORDER
    if len(set(first.values())) == 1:
        return (f"; measured: in every case that crashed, the input met layer{k}'s weights first ({example}): "
                f"layer{k} ran before layer1"), LAYER_ORDER
    return None


def _every_layer_the_last(ctx: Context) -> str:
    """Words for a deep case (equal widths) whose output is its last layer run as every layer, ReLU between; ""
    otherwise."""
    c = _case(ctx, DEEP_CASE)
    try:
        got = np.asarray(ctx.got(f"out/{DEEP_CASE}"), np.float64)
    except (StudentError, TypeError, ValueError):
        return ""
    names = npref.layer_names(c["params"])
    last = c["params"][names[-1]]
    if not _up_to_output(got, npref.mlp({name: last for name in names}, np.asarray(c["x"], np.float64))):
        return ""
    return (f"on {_describe(DEEP_CASE)}, which runs, the output is {names[-1]} run {len(names)} times with ReLU "
            "between: every layer computed with the last layer's weights")


LATE_BINDING = Mistake(
    "ex3.every_layer_the_last", "every layer computed with the last layer's weights",
    "Each layer must use its own weights. Functions made in a loop or a comprehension (lambda h: h @ params[n]['w'] "
    "...) read the loop variable when they are called, by which time it names the last layer: bind it when the "
    "function is made (lambda h, n=n: ...), or apply each layer inside the loop itself.")


def _first_layer_run(shapes: list[tuple[int, ...]], widths: tuple[int, ...]) -> int | None:
    """k, when a crash's shapes are the input's features (widths[0]) against the rows of layer k's weights alone
    (a product's contracting sizes, JAX's "got (20,) and (16,)"), k > 1: layer k ran first; None otherwise."""
    if len(shapes) != 2 or any(len(s) != 1 for s in shapes) or shapes[0][0] != widths[0]:
        return None
    owners = [k for k in range(2, len(widths)) if widths[k - 1] == shapes[1][0]]
    return owners[0] if len(owners) == 1 and widths[0] != shapes[1][0] else None


def _fixed_depth(ctx: Context) -> str:
    """Words for a forward pass that runs the same number of layers k whatever params holds, read off every graded
    case: right where the depth is k, the first k layers' answer where it is more, a KeyError for layer<depth + 1>
    where it is less; "" when no one k fits every case, or k fits only where it is the depth."""
    candidates = set(range(1, 13))
    for case in (*DEPTH_CASES, DEEP_CASE):
        c = _case(ctx, case)
        depth = len(c["params"])
        try:
            got = np.asarray(ctx.got(f"out/{case}"), np.float64)
        except StudentError as exc:
            if exc.error.summary() == f"KeyError: 'layer{depth + 1}'":
                candidates &= set(range(depth + 1, 13))
                continue
            return ""
        fits = {k for k in range(1, depth + 1) if _up_to_output(got, npref.mlp(npref.prefix(c["params"], k), c["x"]))}
        candidates &= fits
    if len(candidates) != 1:
        return ""
    k = candidates.pop()
    said = f"it ran {k} layer{'s' if k > 1 else ''} (layer1 to layer{k}) whatever the depth of params"
    try:
        first = len(_case(ctx, "d2")["params"]) if ctx.student.has("first/d2") else None
    except (KeyError, TypeError):
        first = None
    if k == first:
        said += (f", the depth of the params of mlp_forward's first call here ({first} layers): a depth fixed in the "
                 "code, or worked out on the first call and kept")
    return said


def _one_mistake(named: list[set]) -> Mistake | None:
    """The one mistake every wrong case shows, or None: a hint names a cause only when all the evidence agrees.

    A case explained by a computation mistake in the dict's order (the reversed
    case) still names the computation mistake when the other cases need no
    order mistake; the order is then the judge's second finding, not a guess.
    """
    if not named or any(not found for found in named):
        return None
    computations = [{c for c, _ in found} for found in named]
    common = set.intersection(*computations)
    if len(common) == 1 and None not in common:
        return next(iter(common))
    orders = [{o for _, o in found if o is not None} for found in named]
    if common == {None} and all(orders):
        shared = set.intersection(*orders)
        if len(shared) == 1:
            return next(iter(shared))
    return None


WEIGHTS_SIZED = Mistake(
    "ex3.depends_on_weight_size", "a forward pass that changes weights past some size",
    "mlp_forward is x @ w + b with ReLU between the layers for any weights, however large: the answer is right on "
    "the usual params but not on the same params ten times larger, so something in the forward pass caps, clips or "
    "normalises the weights (or what they give) past some size. A max-norm constraint belongs to training, applied "
    "after an update, not to the forward pass.")


def depths(ctx: Context) -> Verdict:
    """Agreement at depths 1, 2, 3 and 5, with equal and unequal widths and any dict order; and on the 3-layer case
    with params LARGE_SCALE times larger, computed here (a forward pass that depends on the weights' size)."""
    verdict = _judge_cases(ctx, DEPTH_CASES)
    if verdict.passed and (small := _small_inputs(ctx)):
        return fail(small[0], small[1], fraction=0.5)
    if not verdict.passed or not ctx.student.has("measure/large/d3"):
        return verdict
    c = _case(ctx, "d3")
    try:
        got = np.asarray(ctx.got("measure/large/d3"), np.float64)
        usual = np.asarray(ctx.got("out/d3"), np.float64)
    except StudentError:
        return verdict
    # judged only where the usual call is exactly right (nothing excused here and charged elsewhere), the params
    # were left as they were, and the answer is not the usual call's again (a result kept, charged in ex3.jit)
    if (array_mismatch(usual, np.asarray(ctx.want("out/d3"), np.float64)) is not None
            or any(mutated(ctx, f"input/params_after/{case}", _case(ctx, case)["params"]) for case in CASES)
            or (got.shape == usual.shape and array_mismatch(got, usual) is None)):
        return verdict
    large = {name: {k: np.asarray(v, np.float32) * np.float32(LARGE_SCALE) for k, v in layer.items()}
             for name, layer in c["params"].items()}
    want = npref.mlp(large, np.asarray(c["x"], np.float64))
    problem = array_mismatch(got, want)
    if problem is None:
        return verdict
    return fail(f"{_describe('d3')} with its params {LARGE_SCALE:g} times larger (computed by the grader; the case "
                f"itself agrees): {problem}", WEIGHTS_SIZED, fraction=0.5)


def _small_inputs(ctx: Context) -> tuple[str, Mistake] | None:
    """Words and hint for a forward pass right on the depth cases but not on a batch of one example (ONE_ROW_CASE's
    first row) or on a hidden layer one unit wide, up to an activation on the output (judged by output_linear);
    None where both are right, or where a depth case is not exactly right or its params were changed (charged
    where they show)."""
    if any(array_mismatch(np.asarray(ctx.got(f"out/{case}"), np.float64),
                          np.asarray(ctx.want(f"out/{case}"), np.float64)) is not None for case in DEPTH_CASES):
        return None
    if any(mutated(ctx, f"input/params_after/{case}", _case(ctx, case)["params"]) for case in CASES):
        return None
    c, unit_wide = _case(ctx, ONE_ROW_CASE), unit_wide_case()
    runs = {"measure/one_row": (f"{_describe(ONE_ROW_CASE)} on its first example alone (x of shape "
                                f"(1, {np.shape(c['x'])[1]}))", c["params"], np.asarray(c["x"], np.float64)[:1],
                                BATCH_OF_ONE),
            "measure/unit_wide": ("a 2-layer network whose hidden layer is one unit wide (widths [5, 1, 3], B=4)",
                               unit_wide["params"], unit_wide["x"], UNIT_WIDE)}
    for name, (said, params, x, mistake) in runs.items():
        if name not in ctx.student.errors and not ctx.student.has(name):
            continue
        try:
            got = np.asarray(ctx.got(name), np.float64)
        except StudentError as exc:  # named where shapes failed to fit; another error says what it says
            return (f"the depth cases agree, but {said} raised {exc.error.summary()}",
                    mistake if crash_kind(exc.error) == "shape" else SMALL_INPUTS)
        except (TypeError, ValueError):
            return f"the depth cases agree, but {said} returned something that is not an array of numbers", mistake
        want = npref.mlp(params, np.asarray(x, np.float64))
        if not _up_to_output(got, want):
            return f"the depth cases agree, but {said}: {array_mismatch(got, want)}", mistake
    return None


SMALL_INPUTS = ("mlp_forward computes x @ w + b layer by layer for any batch size and any widths the params "
                "give: one example, and layers one unit wide, too (the message says which input failed).")
BATCH_OF_ONE = Mistake(
    "ex3.batch_of_one", "a batch of one example mishandled",
    "A batch of one example is a batch: x of shape (1, d) gives an output of shape (1, n_out). Keep the batch axis "
    "through every layer (no squeeze, no special case for one row).")
UNIT_WIDE = Mistake(
    "ex3.unit_wide_layer", "a layer one unit wide mishandled",
    "A layer may be one unit wide: its values have shape (B, 1) and the next weight matrix shape (1, n). Keep every "
    "axis (no squeeze of the hidden values) and run each layer as x @ w + b whatever its width.")


SQUARE_TRANSPOSED = Mistake(
    "ex3.square_weights_transposed", "square weights transposed (a layout test that cannot tell (in, out) from "
    "(out, in))",
    "A square weight has the same shape either way round, so a test of the layout by shape (w.shape[1] == width, "
    "then w.T) transposes it: the 12 equal-width layers were multiplied by w.T. The params are always (in, out): use "
    "x @ w as given, with no layout test.")


def _square_transposed(ctx: Context) -> str:
    """Words for a 12-layer answer (every weight square) that is x @ w.T + b at every layer, where the cases whose
    weights are not square agree; "" otherwise."""
    if f"out/{DEEP_CASE}" in ctx.student.errors:
        return ""
    c = _case(ctx, DEEP_CASE)
    got = np.asarray(ctx.got(f"out/{DEEP_CASE}"), np.float64)
    want = np.asarray(ctx.want(f"out/{DEEP_CASE}"), np.float64)
    if not _up_to_output(got, weights_transposed(c["params"], np.asarray(c["x"], np.float64))):
        return ""
    width = CASES[DEEP_CASE][0][0]
    return (f"{_describe(DEEP_CASE)}: {array_mismatch(got, want)}; measured: it is x @ w.T + b at every layer, where "
            f"every weight is square ({width} x {width}); the cases of depth 1 to 5, whose weights are not square, "
            "agree: the weights are transposed only where their shape allows both layouts")


def deep(ctx: Context) -> Verdict:
    """Twelve equal-width layers run in numeric order, where string order silently gives a wrong answer.

    This check is about the order. When the 12-layer answer is the numeric-order
    result of a computation mistake already named by ex3.depths (sigmoid for
    ReLU, no bias, ...), the order is right and the mistake is not charged twice;
    when depths named a mistake in which layers run, the order cannot be judged.
    """
    verdict = _judge_cases(ctx, (DEEP_CASE,))
    if verdict.passed:
        other = _unusual_networks(ctx) if ctx.passed("ex3.depths") else None  # else the computation is charged there
        return fail(other[0], other[1], fraction=0.5) if other else verdict
    if verdict.mistake in {STRING_ORDER.id, DICT_ORDER.id}:
        return verdict
    if _depths_mistake(ctx) == LATE_BINDING.id and (every := _every_layer_the_last(ctx)):
        got, want = (np.asarray(ctx.got(f"out/{DEEP_CASE}"), np.float64),
                     np.asarray(ctx.want(f"out/{DEEP_CASE}"), np.float64))
        return fail(f"{_describe(DEEP_CASE)}: {array_mismatch(got, want)}; measured: {every} (as in ex3.depths)",
                    LATE_BINDING)
    if verdict.mistake != LAYER_ORDER.id and f"out/{DEEP_CASE}" not in ctx.student.errors and _order_measured(ctx):
        # what the measurement networks read assumes layer1 runs first, which the graded cases showed it does not
        got, want = (np.asarray(ctx.got(f"out/{DEEP_CASE}"), np.float64),
                     np.asarray(ctx.want(f"out/{DEEP_CASE}"), np.float64))
        return fail(f"{_describe(DEEP_CASE)}: {array_mismatch(got, want)}; ex3.depths measured another layer run "
                    "first than layer1, so the layers do not run in numeric order here either", LAYER_ORDER)
    if not verdict.mistake and ctx.passed("ex3.depths") and (square := _square_transposed(ctx)):
        return fail(square, SQUARE_TRANSPOSED)
    model = _model(_measure_networks(ctx))  # as measured: a computation that shows only on equal widths is told here
    if model is not None and f"out/{DEEP_CASE}" not in ctx.student.errors:
        c, got = _case(ctx, DEEP_CASE), np.asarray(ctx.got(f"out/{DEEP_CASE}"), np.float64)
        if _up_to_output(got, _run_model(c["params"], c["x"], model)):
            if ctx.passed("ex3.depths"):  # nothing charged that computation: it shows only on equal widths
                text, _ = _measured_words(_measure_networks(ctx))
                return fail(f"{verdict.message}{text}; the cases of depth 1 to 5, whose hidden layers differ in width "
                            "from their output layer, agree: the activation differs only where a hidden layer has "
                            "the output layer's width (here every layer is 16 wide, and the 1-unit measurement "
                            "network's two layers are alike)", RELU_BY_WIDTH)
            return Verdict(True, "the 12 layers ran in numeric order: the answer is what the computation measured "
                                 "in ex3.depths gives in that order")
        if _up_to_output(got, _run_model(c["params"], c["x"], model, "string")):
            return fail(verdict.message + "; with the computation measured in ex3.depths, it is what the layers in "
                        "string order (layer1, layer10, layer11, ...) give", STRING_ORDER)
    if not verdict.mistake:
        return verdict
    named = _depths_mistake(ctx)
    if verdict.mistake != named and named not in {m.id for m in ALL_LAYERS}:
        return verdict
    if verdict.mistake == named and named in (ROWS_DROPPED.id, ROWS_ADDED.id, EXTRA_AXIS.id):  # right values
        return Verdict(True, f"the 12 layers ran in numeric order (the values are right, laid out otherwise, "
                             f"{verdict.mistake}, charged in ex3.depths)")
    c = _case(ctx, DEEP_CASE)
    try:  # the pass below needs the 12-layer answer itself to be that mistake in numeric order
        got = np.asarray(ctx.got(f"out/{DEEP_CASE}"), np.float64)
        explained = {m.id for m, order in explain(c["params"], c["x"], got) if m is not None and order is None}
    except StudentError:
        explained = set()
    if named in {m.id for m in ALL_LAYERS} & explained:  # depths' mistake, in numeric order, gives this answer too
        return Verdict(True, f"the 12 layers ran in numeric order (the values differ by {named}, "
                             "charged in ex3.depths)")
    if verdict.mistake != named:
        return verdict
    return skip(f"not judged: the 12-layer answer shows the mistake charged in ex3.depths ({named}); the layer "
                "order is judged once every layer runs")


def _unusual_networks(ctx: Context) -> tuple[str, Mistake | str] | None:
    """Words and hint for a forward pass right on the 12-layer case but not on its layers listed with only the ends
    in place, on a network of VERY_DEEP layers (its
    layer order measured: as text, by the number's last two digits) or on three layers given as one dict object
    (ReLU decided by comparing the layer objects); None where both are right, or were not observed."""
    c = _case(ctx, DEEP_CASE)
    got = _measured(ctx, "measure/middle_shuffled")
    if got is not None and not _up_to_output(got, npref.mlp(c["params"], c["x"])):
        listed = middle_shuffled(c["params"])
        said = (f"the 12-layer case is right, but the same layers listed as {', '.join(listed)} (the first and the last "
                "in place, the others not) returned other values than they give in numeric order")
        if _up_to_output(got, npref.mlp(listed, c["x"], "dict")):
            return f"{said}; measured: they are the layers run in the order the dict lists them", ORDER_BY_ENDS
        if ctx.passed("ex3.jit"):  # else an order that follows the listing is charged there (ex3.listing_order)
            return said, LAYER_ORDER
    c = very_deep_case()
    got = _measured(ctx, "measure/very_deep")
    if got is not None and not _up_to_output(got, npref.mlp(c["params"], c["x"])):
        said = (f"the 12-layer case is right, but a network of {VERY_DEEP} layers (layer1 to layer{VERY_DEEP}, each a "
                "permutation plus a bias) returned other values than its layers in numeric order give")
        orders = {"as text (layer1, layer10, layer100, ...)": sorted(c["params"]),
                  "by the last two digits of their number (layer105 read as 5)":
                      sorted(c["params"], key=lambda name: npref.layer_number(name) % 100),
                  "by the first two digits of their number (layer105 read as 10)":
                      sorted(c["params"], key=lambda name: int(str(npref.layer_number(name))[:2]))}
        for words, names in orders.items():
            if _up_to_output(got, npref.mlp({n: c["params"][n] for n in names}, c["x"], "dict")):
                return f"{said}; measured: they are the layers run in the order their names take {words}", LAYER_ORDER
        return said, LAYER_ORDER
    c = shared_layer_case()
    got = _measured(ctx, "measure/shared_layer")
    if got is not None and not _up_to_output(got, npref.mlp(c["params"], c["x"])):
        said = ("the 12-layer case is right, but three layers given as one dict object (the same weights three times) "
                "returned other values than x @ w + b three times with ReLU after the first two")
        if _up_to_output(got, npref.mlp(c["params"], c["x"], act_after=())):
            return (f"{said}; measured: no ReLU ran at all: every layer was taken for the last, as the layer objects "
                    "are compared (is, ==) where the layer's place in the order decides"), RELU_BY_IDENTITY
        return said, ("Each of layer1..layerN runs once, in numeric order, with the weights params holds for it in this "
                      "call, whatever objects the layers are: nothing kept from an earlier call stands for them.")
    return None


ORDER_BY_ENDS = Mistake(
    "ex3.order_checked_at_the_ends", "the dict's order kept when its first and last layers are in place",
    "The layers ran in the order the params dict lists them when its first and last names were in place: an order "
    "cannot be told by its ends (nor by any few names). Sort the names by their number on every call, sorted(params, "
    "key=lambda name: int(name.removeprefix('layer'))), and take each layer by its name.")


RELU_BY_IDENTITY = Mistake(
    "ex3.relu_by_identity", "the last layer told by its object, not its place",
    "ReLU goes after every layer but the last, and the last is the last in the order, not the layer whose object "
    "is the last one's: layers may share one dict (tied weights). Decide by position: for i, name in "
    "enumerate(names): ... if i < len(names) - 1.")


RELU_BY_WIDTH = Mistake(
    "ex3.relu_by_width", "where ReLU goes decided by a layer's width",
    "ReLU goes after every layer but the last, whatever the layers' widths: decide it by the layer's place in the "
    "order (for i, name in enumerate(names): ... if i < len(names) - 1), not by comparing its output's shape with "
    "the last layer's.")


def output_linear(ctx: Context) -> Verdict:
    """No activation after the last layer, at any depth (one layer too): outputs can be negative."""
    for case in (*DEPTH_CASES, DEEP_CASE):
        try:
            got = np.asarray(ctx.got(f"out/{case}"), dtype=np.float64)
        except StudentError:
            continue
        want = np.asarray(ctx.want(f"out/{case}"), dtype=np.float64)
        if got.shape != want.shape or array_mismatch(got, want) is None:
            continue
        if array_mismatch(got, npref.relu(want)) is None:
            return fail(f"{_describe(case)}: every negative output came back as 0", OUTPUT_RELU)
        if array_mismatch(got, npref.softmax(want)) is None:
            return fail(f"{_describe(case)}: the outputs are softmax probabilities", OUTPUT_SOFTMAX)
    return PASS


PARAMS_CHANGED_FIRST = (
    "This call failed because an earlier call changed params (see ex3.params_unchanged): mlp_forward must leave "
    "the dict and the arrays it is given as they are, so that every call sees the caller's params. Build what you "
    "need (a transposed copy, a new dict) in local variables; dict(params) copies only the top level, so its inner "
    "dicts are still the caller's.")


def jit_agrees(ctx: Context) -> Verdict:
    """Same result under jax.jit and on a repeated call; no leaked tracers; jax.grad flows through it.

    A case whose eager call raised is left out: that crash is charged in depths
    or deep, and there is nothing to agree with. A jitted call that raises is
    charged here.
    """
    problems, compared, crashed = [], 0, None
    deep = f"out/{DEEP_CASE}"
    for name, ref, label in ((f"jit/{DEEP_CASE}", deep, "jax.jit, 12 layers"), ("jit/d5", "out/d5", "jax.jit, 5 layers"),
                             (f"again/{DEEP_CASE}", deep, "a second call, 12 layers")):
        try:
            eager = ctx.got(ref)
        except StudentError as exc:
            crashed = crashed or exc
            continue
        compared += 1
        try:
            later = ctx.got(name)
        except StudentError as exc:
            if not (params_changed := params_unchanged(ctx)).passed:
                return fail(f"{label}: raised {exc.error.summary()}, after the first calls changed the params they were "
                            f"given ({params_changed.message}; charged in ex3.params_unchanged): the later calls met "
                            "other arrays than the caller's", PARAMS_CHANGED_FIRST)
            raise
        problem = array_mismatch(later, eager)
        if problem:
            problems.append(f"{label}: {problem}")
    if not compared and crashed:
        raise crashed
    stale = _stale(ctx)
    if not problems:
        if stale:
            return fail(stale, STALE, fraction=0.5)
        gradient = _gradient(ctx)
        return fail(*gradient) if gradient else PASS
    if _jit_ran_in_string_order(ctx, eager_right=False) and ctx.verdict("ex3.depths").mistake == DICT_ORDER.id:
        return skip("not judged: the layers follow the dict's own order (charged in ex3.depths), and jax.jit "
                    "lists the keys in another order")
    if any(mutated(ctx, f"input/params_after/{case}", _case(ctx, case)["params"]) for case in CASES):
        return skip("not judged: the calls changed params (charged in ex3.params_unchanged), so later calls "
                    "ran on other params and cannot be compared")
    if _jit_ran_in_string_order(ctx):
        return fail("; ".join(problems), JIT_DICT_ORDER)
    if stale:
        return fail("; ".join(problems + [stale]), STALE)
    if _eager_right(ctx) and _follows_listing(ctx):
        return fail("; ".join(problems) + "; measured: called eagerly on the same params listed as jax.jit lists them "
                    "(keys sorted as text: layer1, layer10, layer11, layer12, layer2, ...), mlp_forward gives what it "
                    "gave under jax.jit, not the expected output: which layer runs when depends on the order the "
                    "dict lists its keys", LISTING_ORDER)
    if not any(p.startswith("a second call") for p in problems) and not _eager_right(ctx):
        # Only jit changes the answer, and the eager answer is wrong too: nothing measured says impure.
        return fail("; ".join(problems) + "; the eager output differs from the expected one as well",
                    HINT_JIT_EAGER_WRONG)
    other = _jit_computes_other(ctx) if _eager_right(ctx) else ""
    if other:
        return fail("; ".join(problems) + f"; measured: {other}", JIT_OTHER_PATH)
    return fail("; ".join(problems), HINT_JIT)


def _jit_computes_other(ctx: Context) -> str:
    """Words for jitted outputs that differ from the (right) eager ones and are, in every jitted case that differs,
    what one known wrong computation gives (ReLU on the output too, a layer without its bias, ...); "" otherwise."""
    found = []
    for name, case in ((f"jit/{DEEP_CASE}", DEEP_CASE), ("jit/d5", "d5")):
        try:
            got = np.asarray(ctx.got(name), np.float64)
            eager = np.asarray(ctx.got(f"out/{case}"), np.float64)
        except (StudentError, TypeError, ValueError):
            return ""
        if got.shape != eager.shape:
            return ""
        if array_mismatch(got, eager) is None:
            continue
        c = _case(ctx, case)
        if array_mismatch(got, npref.relu(eager)) is None:
            found.append("ReLU after the last layer too")
            continue
        mistakes = {m for m, order in explain(c["params"], c["x"], got) if m is not None and order is None}
        if len(mistakes) != 1:
            return ""
        found.append(next(iter(mistakes)).name)
    if not found or len(set(found)) != 1:
        return ""
    return (f"under jax.jit the outputs are what {found[0]} gives, while the eager outputs are right: under jit "
            "another computation ran")


JIT_OTHER_PATH = Mistake(
    "ex3.jit_other_path", "another computation under jax.jit",
    "Under jax.jit mlp_forward computed another network than eagerly (the message says which): a check on values "
    "(bool(), float(), .item(), jnp.isfinite read in Python) cannot run on jit's traced values, and a try/except "
    "or a branch that then takes another path runs other code. Keep one code path for every input and drop checks "
    "on values.")


GRADIENT_BLOCKED = Mistake(
    "ex3.gradient_blocked", "a forward pass the gradient does not flow back through",
    "Training takes jax.grad through mlp_forward, so every layer must stay a JAX computation the gradient flows "
    "through: x @ w + b and jax.nn.relu, with nothing that stops it (jax.lax.stop_gradient, or values taken out to "
    "NumPy or Python and put back).")
HINT_GRADIENT = ("jax.grad through mlp_forward must give the gradient of the values it returns: compute each layer "
                 "with jax.numpy (x @ w + b, jax.nn.relu) and no custom derivative rules.")


def _gradient(ctx: Context) -> tuple[str, Mistake | str] | None:
    """Words and hint for a gradient through mlp_forward (of the sum of the 3-layer case's outputs) that is not the
    one its forward values have, where those values are right; None when it is, or it cannot be judged."""
    name = f"measure/grad/{GRAD_CASE}"
    if not ctx.student.observed(name):
        return None
    c = _case(ctx, GRAD_CASE)
    try:
        got_out, want_out = (np.asarray(v(f"out/{GRAD_CASE}"), np.float64) for v in (ctx.got, ctx.want))
        right = got_out.shape == want_out.shape and array_mismatch(got_out, want_out) is None
    except StudentError:
        return None
    if not right or any(mutated(ctx, f"input/params_after/{case}", _case(ctx, case)["params"]) for case in CASES):
        return None  # other values, or other params: charged in ex3.depths or ex3.params_unchanged
    taken = (f"measured: jax.grad of the sum of mlp_forward's outputs ({_describe(GRAD_CASE)}, whose outputs are "
             "right)")
    try:
        got = ctx.got(name)
    except StudentError as exc:
        return f"{taken} raised {exc.error.summary()}", HINT_GRADIENT
    want = npref.output_sum_grads(c["params"], c["x"])
    if not isinstance(got, dict) or set(got) != set(want):
        return None
    differ = [path for path in sorted(want, key=_leaf_order) if np.shape(got[path]) != want[path].shape
              or array_mismatch(np.asarray(got[path], np.float64), want[path])]
    if not differ:
        return None
    zero = [path for path in differ if np.shape(got[path]) == want[path].shape and not np.any(got[path])]
    if zero == differ:
        right_leaves = sorted(set(want) - set(differ), key=_leaf_order)
        return (f"{taken} is 0 for {_names(zero)}" + (f" and right for {_names(right_leaves)}" if right_leaves else "")
                + ": the gradient does not flow back through mlp_forward to those parameters", GRADIENT_BLOCKED)
    path = differ[0]
    return f"{taken} differs on {_names(differ)} ({path}: {array_mismatch(got[path], want[path])})", HINT_GRADIENT


def _leaf_order(path: str) -> tuple[int, str]:
    layer, _, leaf = path.partition("/")
    return npref.layer_number(layer), leaf


LISTING_ORDER = Mistake(
    "ex3.listing_order", "a layer order that depends on the order the dict lists its keys",
    "The layer order must come from the numbers in the names alone, however the dict lists them (jax.jit lists "
    "them sorted as text): sorted(params, key=lambda name: int(name.removeprefix('layer'))).")


def _follows_listing(ctx: Context) -> bool:
    """The jitted 12-layer output is what the eager call gives on the dict listed as jax.jit lists it, and that
    is not the expected output: with the eager answer right, the answer follows the listing order (False when not
    observed)."""
    name = f"measure/listed_as_jit/{DEEP_CASE}"
    try:
        listed = np.asarray(ctx.got(name), dtype=np.float64) if ctx.student.has(name) else None
        jitted = np.asarray(ctx.got(f"jit/{DEEP_CASE}"), dtype=np.float64)
    except StudentError:
        return False
    want = np.asarray(ctx.want(f"out/{DEEP_CASE}"), dtype=np.float64)
    return (listed is not None and listed.shape == jitted.shape == want.shape and npref.near(jitted, listed)
            and not _up_to_output(listed, want))


def _stale(ctx: Context) -> str:
    """Words for a call with other params of the same shapes (the 3-layer case's, times 1.5) that returned the
    first params' output; "" when it did not, or this was not observed."""
    try:
        if not ctx.student.has("other_params/d3"):
            return ""
        got, first = (np.asarray(ctx.got(name), dtype=np.float64) for name in ("other_params/d3", "out/d3"))
    except StudentError:
        return ""
    want = np.asarray(ctx.want("other_params/d3"), dtype=np.float64)
    if got.shape != want.shape or npref.near(got, want) or not npref.near(got, first):
        return ""
    return ("measured: called again with the 3-layer case's params times 1.5 (same shapes), mlp_forward returned "
            "exactly what it returned for the first params")


def _eager_right(ctx: Context) -> bool:
    """The eager calls of the jitted cases (12 and 5 layers) give the expected outputs."""
    try:
        return all(_up_to_output(np.asarray(ctx.got(f"out/{case}"), dtype=np.float64),
                                 np.asarray(ctx.want(f"out/{case}"), dtype=np.float64)) for case in ("d12", "d5"))
    except StudentError:
        return False


def _jit_ran_in_string_order(ctx: Context, eager_right: bool = True) -> bool:
    """(Eagerly right on 12 layers, and) in string order under jit, which sorts dict keys as text."""
    try:
        eager, jitted = (np.asarray(ctx.got(n), dtype=np.float64) for n in (f"out/{DEEP_CASE}", f"jit/{DEEP_CASE}"))
    except StudentError:
        return False
    c = _case(ctx, DEEP_CASE)
    want = np.asarray(ctx.want(f"out/{DEEP_CASE}"), dtype=np.float64)
    return (eager.shape == jitted.shape == want.shape and (_up_to_output(eager, want) or not eager_right)
            and _up_to_output(jitted, npref.mlp(c["params"], c["x"], order="string")))


def params_unchanged(ctx: Context) -> Verdict:
    """mlp_forward leaves params as it found them (and usable), judged on every case whose call returned (a call that
    raised is charged in depths or deep), and on a call whose output has a weight matrix's shape, where a jax.jit
    that donates params may delete them."""
    cases = [(f"input/params_after/{case}", _case(ctx, case)["params"], f"out/{case}") for case in CASES]
    if ctx.student.observed("input/params_after/square_batch"):  # a call whose output a donation may alias
        cases.append(("input/params_after/square_batch", _case(ctx, "d2")["params"], "measure/square_batch"))
    return unchanged_where_returned(ctx, cases, _call_on)


def _call_on(call: str) -> str:
    """The call an observation made, for a message: "call on 2 layers, widths [...], B=..."."""
    case = call.removeprefix("out/")
    return "call on " + (_describe(case) if case in CASES else "a batch as large as the last layer's input")


_DEPTHS = ("ex3.depths",)

CHECKS = [
    Check("ex3.depths", "agrees at depths 1, 2, 3 and 5 with any widths", depths, ("mlp_forward",), error_hint),
    Check("ex3.deep", "12 layers run in numeric order (layer10 after layer9)", deep, ("mlp_forward",), error_hint,
          reads=(*_DEPTHS, "ex3.jit")),
    Check("ex3.output_linear", "no activation after the last layer", output_linear, ("mlp_forward",), error_hint,
          requires=_DEPTHS),
    Check("ex3.jit", "agrees under jax.jit and on repeated calls; jax.grad flows through it", jit_agrees,
          ("mlp_forward",), error_hint, requires=_DEPTHS, reads=_DEPTHS),
    Check("ex3.params_unchanged", "params are not modified", params_unchanged, ("mlp_forward",), error_hint,
          requires=_DEPTHS),
]
