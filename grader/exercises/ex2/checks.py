"""Exercise 2 rubric: per-example gradients, their norms, and the largest one."""

from __future__ import annotations

import itertools

from dataclasses import replace

import numpy as np

from grader.checks import PASS, Check, Context, Missing, Mistake, StudentError, Verdict, fail, skip
from grader.checks import npref
from grader.checks.common import (BATCH_SIZE_CRASHES, PARAMETERS, STALE, TRACING_CRASHES, crash_kind, numpy_on_tracer,
                                 parameters_words, unchanged_where_returned)
from grader.checks.compare import SIXTEEN_BIT_WORDS, array_mismatch, close, common_factor, rounding_error, tree_mismatch
from grader.exercises.accuracy.shared import BATCH as LESSON_BATCH
from grader.inputs import flatten
from grader.exercises.ex2.shared import GRAD_CASES as CASES
from grader.exercises.ex2.shared import (LARGE_INPUTS, LARGEST_CASES, LEAF_UNIT_PLACES, NUM_CLASSES, SAME_PARAMS,
                                         BOUNDARY_CASES, MANY_EXAMPLES, OTHER_PARAMS_SCALE, RELABEL_SHIFT,
                                         TINY_SCALE, ZERO_EXAMPLE,
                                         UNIT_EXAMPLES, UNIT_NORMS, VECTOR_BATCHES)

GROUPED = Mistake(
    "ex2.grouped_examples", "one gradient per group of examples (microbatches), not one per example",
    "per_example_grads returns one gradient per example: vmap over the batch axis itself (in_axes=0 for x and y), "
    "with no reshape of the batch into groups, so every leaf's leading axis is B.")
BATCH_GRAD = Mistake(
    "ex2.batch_gradient", "the batch's mean gradient for every example",
    "This is the gradient of the batch's mean loss, not one gradient per example. Differentiate the loss "
    "of a single example and map it over the batch: jax.vmap(jax.grad(single_loss), in_axes=(None, 0, 0)).")
LABELS_AXES = Mistake(
    "ex2.labels_not_mapped", "each example paired with every label of the batch",
    "Each example was paired with every label of the batch, not its own. Map the labels with the examples "
    "(jax.vmap(f, in_axes=(None, 0, 0)): x and y get axis 0, params None), and inside the per-example loss use the "
    "label it is given, not the batch's y of the enclosing function.")
MEAN_SCALE = Mistake(
    "ex2.mean_scaled", "each example's gradient divided by the batch size",
    "Each example's gradient is 1/B of what it should be (B the batch size): somewhere the batch size divides it, "
    "as in the batch mean's gradient, a per-example loss divided by B, or the gradients divided by B afterwards. "
    "Slice i is the gradient of example i's loss alone, unscaled: loss_fn on a batch of one (xi[None], "
    "yi[None]) under jax.vmap, with nothing divided by B.")
GRAD_WRT_X = Mistake(
    "ex2.grad_wrt_x", "gradients with respect to x, not params",
    "These are gradients with respect to the input x: jax.grad differentiates the first argument only "
    "(argnums=0). Differentiate a loss whose first argument is params, jax.grad(single_loss)(params, xi, yi), "
    "and map it with jax.vmap(..., in_axes=(None, 0, 0)).")
AXIS_OF_ONE = Mistake(
    "ex2.batch_axis_of_one_dropped", "the leading axis lost when the batch holds one example",
    "With a batch of one example the leaves lost their leading axis of size 1, which every larger batch keeps: "
    "something drops axes of size 1 (a .squeeze(), jnp.squeeze, or an index [0]). Keep the batch axis whatever "
    "B is: a batch of one gives leaves of shape (1, *param.shape).")
HINT_VALUES = "Slice i must equal jax.grad(loss_fn)(params, x[i:i+1], y[i:i+1]); compare one slice by hand."
HINT_SHAPES = (
    "Return a pytree shaped like params (same keys) whose every leaf has a leading axis of size B: "
    "params['layer1']['w'] of shape (784, 256) becomes (B, 784, 256)."
)
LOOP = Mistake(
    "ex2.python_loop", "a Python loop over the examples",
    "The traced computation grows with the batch size: that is a Python loop over examples. Use "
    "jax.vmap over jax.grad so one vectorised program handles any batch.")
HINT_LAX_LOOP = (
    "The computation loops over the batch ({loops}); it is sequential, not vectorised. Use jax.vmap over "
    "jax.grad instead."
)
NO_SQRT = Mistake("ex2.norms_no_sqrt", "squared norms",
    "These are squared norms: take the square root of the summed squares.")
HINT_MISSING_LEAF = "The norm leaves out {what}: sum the squares over every leaf, weights and biases."
LEAF_NORMS = Mistake(
    "ex2.sum_of_leaf_norms", "the sum of the leaves' norms",
    "This adds up the norms of the leaves; the global norm is the square root of the sum of all squares "
    "(over every element of every leaf).")
LAYER_NORMS = Mistake(
    "ex2.sum_of_layer_norms", "the sum of the layers' norms",
    "This adds up each layer's norm (its weights and biases together); the global norm is the square root of the "
    "sum of all squares over every leaf: combine the layers' norms as sqrt(sum of their squares), or take "
    "jax.vmap(optax.tree.norm)(grads).")
MEAN_SQUARES = Mistake(
    "ex2.norms_mean_of_squares", "the mean of each leaf's squares where their sum belongs",
    "Each leaf's squares were averaged (jnp.mean) where the global norm sums them: the norm of example i is "
    "sqrt(sum over every leaf of the sum of squares of slice i).")
NORMS_ACROSS_EXAMPLES = Mistake(
    "ex2.norms_across_examples", "norms that mix the examples' values",
    "Each norm mixes values of several examples: keep the batch axis apart through every reshape. Flatten each "
    "leaf with the batch axis first, leaf.reshape(leaf.shape[0], -1), reduce every axis but that one, and add "
    "the leaves' (B,) sums of squares together (or stack them on axis 1, (B, L), and sum over axis 1). A leaf "
    "reshaped to (-1, B), a reduction over axis 0, or a flat vector laid out leaf by leaf reshaped to (B, L) puts "
    "several examples' values in one row.")
HINT_NORM_SHAPE = "Return one norm per example: shape (B,), reducing every axis but the leading one."
HINT_NORM_ORDER = ("Keep the norms in the examples' order, norms[i] for example i: do not sort them (the largest "
                   "one's index is what largest_gradient_example returns).")
NORM_POWER = Mistake(
    "ex2.norm_power", "a p-norm other than the L2 norm",
    "Each norm is measured to be (sum of |g|**p) ** (1/p) over the example's elements with the p in the message, "
    "not p = 2: the global norm is sqrt(sum of g**2) over every element of every leaf (optax.global_norm). "
    "p = 1 is a sum of absolute values; a very large p is the largest absolute value.")
ZERO_GRADS = Mistake(
    "ex2.zero_gradients", "gradients that are all zero",
    "Every gradient is exactly 0: the loss per_example_grads differentiates does not change with params. Find "
    "what makes it constant; for example, a loss that computes with another params than its argument (a "
    "module-level params left from a notebook cell) ignores the one jax.grad varies, a log_softmax over an axis of "
    "length 1 (for one example under vmap, axis 0 of a (1, 10) batch) is 0 whatever the logits (the class axis "
    "is the last one, axis=-1), and "
    "jax.lax.stop_gradient on params, or on anything computed from them, hides them from jax.grad (it does not "
    "mean read-only: jax.grad never changes params).")
GRADS_SCALED = Mistake(
    "ex2.gradients_scaled", "each gradient times a constant factor",
    "Every gradient is the expected one times the constant factor in the message: the loss that is differentiated "
    "is scaled, or the rule that differentiates it (a jax.custom_vjp backward that divides or multiplies by "
    "something else than the loss does). Each example's loss is the cross-entropy of that one example, "
    "-sum(one_hot(y) * log_softmax(logits)), with no other factor (a factor of -1 is a missing minus sign).")
OTHER_LOSS = Mistake(
    "ex2.other_loss", "a per-example loss other than the softmax cross-entropy at the label",
    "Each example's loss is the lesson's softmax cross-entropy at its integer label y[i]: -log_softmax(logits)[y[i]], "
    "what loss_fn gives on that one example. Differentiate loss_fn itself rather than a loss of your own.")
#: Losses other than the softmax cross-entropy, by their gradient with respect to the logits z (p = softmax(z),
#: t = one_hot(y), C classes), as a message words them.
def _logits_as_probabilities(z, p, t, y):
    """The gradient of -log(clip(z[y] / sum(z))) with respect to z: the logits read as probabilities, normalised by
    their sum (a probability cross-entropy, Keras' from_logits=False); 0 where the clip holds the ratio."""
    s = z.sum(axis=1, keepdims=True)
    ratio = (z * t).sum(axis=1, keepdims=True) / s
    at_label = np.divide(t, z, out=np.zeros_like(z), where=t > 0)
    return np.where((ratio > 1e-7) & (ratio < 1 - 1e-7), 1 / s - at_label, 0.0)


def _phantom_class(extra: str):
    """The gradient with respect to the logits of -z[y] + log(exp(c) + sum(exp(z))): a softmax with an extra class of
    logit c, 0 (``"zero"``: log1p of the sum of exponentials), or the largest logit held constant (``"max"``: log1p
    after the max shift, the max under stop_gradient) or differentiated (``"max_grad"``)."""
    def dz(z, p, t, y):
        top = z.max(axis=1, keepdims=True)
        c = np.zeros_like(top) if extra == "zero" else top
        m = np.maximum(top, c)
        e, extra_e = np.exp(z - m), np.exp(c - m)
        total = extra_e + e.sum(axis=1, keepdims=True)
        grad = e / total - t
        if extra == "max_grad":  # the extra class's logit is the largest one: its share flows back to it
            grad = grad + (z == top) * extra_e / total
        return grad
    return dz


#: The words for a log-sum-exp taken with log1p after the max shift, whether the max is held constant or not.
_SHIFTED_LOG1P = ("a cross-entropy whose normaliser is m + log(1 + sum(exp(logits - m))) with m the largest logit "
                  "(log1p where log belongs: an extra class of logit m), where log-sum-exp is "
                  "m + log(sum(exp(logits - m)))")
_OTHER_LOSSES = (
    ("a cross-entropy of the logits read as probabilities: -log(logits[y] / sum(logits)), the logits normalised by "
     "their sum and not by a softmax (a probability loss given logits, as Keras' from_logits=False takes them)",
     _logits_as_probabilities),
    ("a sigmoid binary cross-entropy against one_hot(y), summed over the classes",
     lambda z, p, t, y: npref.sigmoid(z) - t),
    ("a sigmoid binary cross-entropy against one_hot(y), averaged over the classes",
     lambda z, p, t, y: (npref.sigmoid(z) - t) / t.shape[1]),
    ("a squared error between the logits and one_hot(y), summed over the classes", lambda z, p, t, y: 2 * (z - t)),
    ("a squared error between the logits and one_hot(y), averaged over the classes",
     lambda z, p, t, y: 2 * (z - t) / t.shape[1]),
    ("-y * sum(log_softmax(logits)): the integer label multiplies every log-probability, as if y were a one-hot row",
     lambda z, p, t, y: np.asarray(y, np.float64)[:, None] * (t.shape[1] * p - 1)),
    ("a cross-entropy whose normaliser has a 1 added, log(1 + sum(exp(logits))) (log1p of the sum of exponentials: "
     "an extra class of logit 0), where the softmax's is log(sum(exp(logits)))", _phantom_class("zero")),
    *((_SHIFTED_LOG1P, _phantom_class(kind)) for kind in ("max", "max_grad")),
    *((f"the softmax cross-entropy with the largest logit {sign} (its gradient has an extra {s:+g} at the "
       "largest logit, 0 elsewhere): the log-sum-exp's max shift m is differentiated on one side only, "
       "m + log(sum(exp(z - m))) with jax.lax.stop_gradient on one m of the two",
       lambda z, p, t, y, s=s: p - t + s * npref.one_hot(np.argmax(z, axis=1), z.shape[1]))
      for sign, s in (("added", 1.0), ("taken away", -1.0))),
)
HINT_SMOOTHED = ("Each example's loss is the cross-entropy against its own label, one_hot(y[i], 10), exactly: no "
                 "label smoothing (the message measures the targets the gradients come from).")
HINT_PENALTY = ("Each example's loss is its cross-entropy alone: the gradients carry an extra multiple of the params "
                "(the message measures it), which a weight-decay or L2 term in the loss adds. Leave it out of "
                "per_example_grads; an optimizer can apply weight decay later.")
GRADS_CLIPPED = Mistake(
    "ex2.gradients_clipped", "each example's gradient clipped to a largest norm",
    "Each example's gradient was clipped to a largest norm (the value in the message), as DP-SGD does: "
    "per_example_grads returns every example's own gradient as it is. Clipping, if wanted, comes after it.")
INPUTS_OTHER = Mistake(
    "ex2.inputs_other", "each example's loss given another example's input",
    "Each example's loss must see its own input with its own label: map x with the labels (jax.vmap(f, in_axes=(None, "
    "0, 0))), or, when indexing by hand, take row i of x (x[i], or jax.lax.dynamic_slice(x, (i, 0), (1, D)): one "
    "start index per axis, the row first).")
INPUTS_SCALED = Mistake(
    "ex2.inputs_scaled", "the input rescaled before the loss",
    "The loss must see x as it is given: the gradients are those at x times a constant (the message gives it), "
    "as rescaling the input inside per_example_grads or the loss gives (x / 255 for pixels, a normalisation, a "
    "heuristic on x's range). Preparing the data is the caller's business: differentiate the loss at x itself.")
LABELS_OTHER = Mistake(
    "ex2.wrong_labels", "gradients of the loss at other labels",
    "Some examples' gradients are those of the cross-entropy at another label than their own (the message "
    "says which): each example must be paired with its own label, y[i], as one_hot(y[i], 10).")
ONE_NORM = Mistake(
    "ex2.one_norm_for_batch", "one norm for the whole batch",
    "This is one norm over the whole batch: the batch axis was reduced along with the others. Reduce every axis "
    "of each leaf but the leading one, e.g. jax.vmap(optax.global_norm)(grads). Things that reduce the batch axis "
    "too: optax.global_norm(grads) on the stacked tree, or a leading axis of 1 added to every leaf (a guard that "
    "takes the batched tree for a single example's, say by the rank of its first leaf, a bias).")


SEQUENTIAL = Mistake("ex2.sequential_loop", "a sequential loop over the batch", HINT_LAX_LOOP)
MISSING_LEAVES = Mistake("ex2.norms_missing_leaves", "a norm that leaves out {what}", HINT_MISSING_LEAF)


def _missing(what: str) -> Mistake:
    return replace(MISSING_LEAVES, name=MISSING_LEAVES.name.format(what=what),
                   hint=MISSING_LEAVES.hint.format(what=what))
ARGMIN = Mistake("ex2.argmin", "argmin in place of argmax",
    "This is the example with the smallest gradient norm: use argmax, not argmin.")
OFFSET = Mistake("ex2.index_offset", "an index shifted from the argmax",
    "Every index is the largest norm's shifted by the same amount (in the message): return the position jnp.argmax "
    "gives, counted from 0 as Python counts, with nothing added or taken away.")
NORMS_FIXED_KEYS = Mistake(
    "ex2.norms_fixed_keys", "a norm that reads fixed keys of the tree",
    "per_example_grad_norms looked up a key the tree it was given does not have (the message says which): it gets "
    "whatever gradient tree it is given, of any depth, so cover every leaf it has, e.g. with "
    "jax.tree_util.tree_leaves(grads), weights and biases of every layer.")
FLAT_INDEX = Mistake(
    "ex2.flat_index", "an argmax over a flattened array with the examples along its last axis",
    "The index counts over more than the B examples (it is the right example modulo B): the argmax ran over a "
    "flattened array, such as a (leaves, B) matrix of per-leaf norms. Reduce to one norm per example first "
    "(shape (B,)) and take the argmax of that.")
FROZEN = Mistake(
    "ex2.params_frozen", "some params kept out of the gradient",
    "Some leaves' gradients are exactly 0 while the others are right (the message names them): the loss reached "
    "those params through jax.lax.stop_gradient, or as values closed over instead of through the params argument. "
    "Differentiate with respect to every leaf of params, as jax.grad(loss_fn) does.")
NORM_NOT_INDEX = Mistake(
    "ex2.norm_not_index", "the largest norm in place of its position",
    "largest_gradient_example returns which example has the largest norm, its position i in the batch (an int "
    "from 0 to B - 1): int(jnp.argmax(norms)), not the norm itself (max).")
LABEL = Mistake("ex2.label_not_index", "the label of the largest example in place of its position",
    "This returns the label of the example with the largest gradient norm, y[i], not its position i in the "
    "batch: return int(jnp.argmax(norms)) itself.")
MISCLASSIFIED_ONLY = Mistake(
    "ex2.misclassified_only", "the largest norm among the misclassified examples only",
    "largest_gradient_example ranks every example of the batch: a correctly classified example can have the "
    "largest gradient too. Take the argmax over all the norms, int(jnp.argmax(norms)), with no mask on the "
    "predictions.")
FURTHEST = Mistake(
    "ex2.furthest_from_others", "the norm furthest from the others in place of the largest",
    "This is the example whose norm lies furthest from the others' (from their mean or median: the message says "
    "which), which can be an unusually small one: return the largest norm's position, int(jnp.argmax(norms)), with nothing subtracted first.")
BEST_OVERWRITTEN = Mistake(
    "ex2.running_best_overwritten", "a running maximum whose best norm is replaced by every norm",
    "A loop that tracks the largest norm must keep the best norm seen so far when the current one is not larger: "
    "here the best norm takes every example's norm, so each norm is compared only with the one before it and the "
    "index returned is the last one larger than its predecessor. In the 'not larger' branch keep both the best "
    "index and the best norm (in a lax.fori_loop or lax.scan, carry them unchanged), or return "
    "int(jnp.argmax(norms)).")
INDEX_HELD = Mistake(
    "ex2.index_in_a_tuple", "the index returned inside a tuple or list",
    "largest_gradient_example returns the index alone, a plain Python int (int(jnp.argmax(norms))), not a tuple or "
    "list that holds it (alone, as jnp.unravel_index gives it, or with other values such as the norm): take the index "
    "out, and compute anything else elsewhere.")
INT = Mistake("ex2.index_not_int", "an array in place of a Python int",
    "Return a plain Python int, e.g. int(jnp.argmax(norms)), not a JAX or numpy array.")
HINT_JIT = (
    "Under jax.jit the function failed or changed its result: keep it pure (no Python side effects, no "
    "int()/float() on traced values, no Python loops over array values)."
)


def _case(ctx: Context, case: str) -> dict:
    return ctx.inputs["ex2"][case]


def _expected_shapes(ctx: Context, case: str) -> dict[str, tuple[int, ...]]:
    c = _case(ctx, case)
    b = c["x"].shape[0]
    return {path: (b, *leaf.shape) for path, leaf in flatten(c["params"]).items()}


def _input_gradient(ctx: Context, case: str, got) -> str:
    """What an array shaped like x is, measured: "" unless it is each example's gradient with respect to x."""
    c = _case(ctx, case)
    if isinstance(got, dict) or np.shape(got) != np.shape(c["x"]):
        return ""
    own = npref.input_grads(c["params"], c["x"], npref.one_hot(c["y"]))
    for variant, words in ((own, "each example's gradient with respect to its own x"),
                           (own / len(c["y"]), "the gradient of the batch's mean loss with respect to x")):
        if array_mismatch(np.asarray(got, np.float64), variant, rtol=1e-3) is None:
            return words
    return ""


PER_CLASS = Mistake(
    "ex2.per_class", "one gradient per class, of the losses summed over the examples",
    "Each example's loss sums -log_softmax(logits) * one_hot(y) over the classes (axis=-1). A loss vector reduced "
    "over the batch axis (axis=0) instead holds one entry per class, the summed loss of the examples of that "
    "label, and its Jacobian (jax.jacrev) one slice per class. Reduce over the class axis to get one loss per "
    "example, shape (B,), or map jax.grad of one example's loss with jax.vmap.")


def _per_class(ctx: Context) -> str:
    """Words for gradients with one slice per class on every batch, whatever B, slice c the sum of the right
    gradients of the examples labelled c; "" otherwise."""
    sizes, classes = [], 0
    for case in CASES:
        try:
            got = ctx.got(f"grads/{case}")
        except StudentError:
            return ""
        want = ctx.want(f"grads/{case}")
        if not isinstance(got, dict) or set(got) != set(want):
            return ""
        y = np.asarray(_case(ctx, case)["y"]).reshape(-1)
        classes = np.shape(want[_output_bias(_case(ctx, case)["params"])])[-1]
        if any(np.shape(got[k])[:1] != (classes,) or np.shape(got[k])[1:] != np.shape(want[k])[1:] for k in want):
            return ""
        summed = {k: np.stack([np.asarray(want[k], np.float64)[y == c].sum(axis=0) for c in range(classes)])
                  for k in want}
        if tree_mismatch(got, summed) is not None:
            return ""
        sizes.append(len(y))
    if not sizes or all(b == classes for b in sizes):
        return ""
    return (f"measured: on every batch (B = {', '.join(map(str, sizes))}) each leaf's leading axis is {classes}, the "
            f"number of classes, and slice c is the sum of the right gradients of the examples labelled c: the "
            "losses were summed over the examples and kept per class")


def shapes(ctx: Context) -> Verdict:
    """Every leaf has the params leaf's shape with a leading axis B, on every batch whose call returned (a call
    that raised is charged in ex2.values; if none returned, there is nothing to judge)."""
    crashed, returned = None, 0
    for case in CASES:
        try:
            got = ctx.got(f"grads/{case}")
        except StudentError as exc:
            crashed = crashed or exc
            continue
        returned += 1
        expected = _expected_shapes(ctx, case)
        if not isinstance(got, dict) or set(got) != set(expected):
            found = sorted(got) if isinstance(got, dict) else type(got).__name__
            wrt_x = _input_gradient(ctx, case, got)
            if wrt_x:
                return fail(f"batch '{case}': expected leaves {sorted(expected)}, got one array of shape "
                            f"{tuple(np.shape(got))}, the shape of x: it equals {wrt_x}", GRAD_WRT_X)
            pairs = _renaming(got, expected)
            if pairs is not None and _values_credit(ctx) >= 1:  # renamed, and every value right under params' names
                named = _pairs_words(pairs)
                return fail(f"batch '{case}': expected leaves {sorted(expected)}, got {found}: the same leaves, "
                            f"right in shape and value, under other names ({named})", LEAVES_RENAMED)
            return fail(f"batch '{case}': expected leaves {sorted(expected)}, got {found}", HINT_SHAPES)
        wrong = _wrong_shapes(got, expected)
        if wrong:
            path, (have, want) = next(iter(wrong.items()))
            pairs = _renaming(got, expected)
            if pairs is not None and _values_credit(ctx) >= 1:  # params' names on each other's leaves, values right
                named = _pairs_words(pairs)
                return fail(f"batch '{case}' (B={want[0]}): leaf '{path}' has shape {have}, expected {want}: the same "
                            f"leaves, right in shape and value, under each other's names ({named})", LEAVES_RENAMED)
            unbatched = all(have == want[1:] for have, want in wrong.values())
            words = f"batch '{case}' (B={want[0]}): leaf '{path}' has shape {have}, expected {want}"
            if unbatched and want[0] == 1:  # with one example, params-shaped leaves say nothing about the mean
                if _batched_elsewhere(ctx, case):
                    return fail(f"{words}; every larger batch keeps its leading axis", AXIS_OF_ONE)
                return fail(words, HINT_SHAPES)
            if all(len(want) == 3 and tuple(have) == (want[0], want[2], want[1]) for have, want in wrong.values()):
                leaves = ", ".join(sorted(wrong))
                return fail(f"{words}: every weight leaf ({leaves}) has its two last axes swapped, (B, out, in) "
                            "where params' w is (in, out)", GRADS_TRANSPOSED)
            grouped = _grouped(ctx, case, got, expected)
            if grouped:
                return fail(f"{words}; {grouped}", GROUPED)
            padded = _padded_rows(ctx)
            if padded:
                return fail(f"{words}; {padded}", PADDED_BATCH)
            rows = {have[0] for have, _ in wrong.values() if len(have) == len(want) and have[1:] == want[1:]}
            if len(rows) == 1 and len(wrong) == len(expected) and 0 < min(rows) < want[0]:
                return fail(f"{words}: {min(rows)} of the {want[0]} examples got a slice, in every leaf",
                            HINT_ANY_BATCH)
            mapped = _params_mapped(wrong, expected)
            if mapped:
                return fail(f"{words}; {mapped}", PARAMS_MAPPED)
            per_class = _per_class(ctx)
            if per_class:
                return fail(f"{words}; {per_class}", PER_CLASS)
            return fail(words, BATCH_GRAD if unbatched and len(wrong) == len(expected) else HINT_SHAPES)
    if crashed is not None and not returned:
        raise crashed
    nested = _nesting(ctx)
    if nested:
        return fail(nested, NESTING)
    short = _traced_leading_axes(ctx)
    if short:
        return fail(short, HINT_ANY_BATCH)
    if _values_credit(ctx) <= 0:  # zeros (or anything) in the right shape compute nothing
        return skip("not judged: the shapes are right, but no batch's values agree with each example's gradient "
                    "(charged in ex2.values); shapes earn credit once the values do")
    return PASS


PARAMS_MAPPED = Mistake(
    "ex2.params_mapped", "params leaves mapped by vmap along with the batch",
    "vmap mapped the params leaves whose first axis is as long as the batch (the message names them) as if they "
    "were examples: in_axes worked out from the arrays' lengths (or a filter that maps every array whose leading "
    "axis is B) slices those params per example, so the gradients are wrong for such batch sizes (and shapes "
    "fail for others). Broadcast params and map only x and y: jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)).")


def _params_mapped(wrong: dict[str, tuple], expected: dict[str, tuple]) -> str:
    """Words for per-example gradients whose only leaves without the batch axis are those of params whose first
    axis is as long as the batch (B): what vmap gives when it maps those params leaves too; "" otherwise."""
    b = next(iter(expected.values()))[0]
    mapped = sorted(path for path, want in expected.items() if len(want) > 1 and want[1] == b)
    if not mapped or len(mapped) == len(expected) or sorted(wrong) != mapped or any(
            tuple(have) != tuple(want[1:]) for have, want in wrong.values()):
        return ""
    return (f"the leaves without a batch axis are exactly those whose params leaf's first axis is B={b} long "
            f"({', '.join(mapped)}), and every other leaf has it: vmap mapped those params along with the examples")


GRADS_TRANSPOSED = Mistake(
    "ex2.grads_transposed", "weight gradients in the (out, in) layout",
    "Each gradient leaf has its parameter's own shape after the batch axis: params['layer1']['w'] is (784, 256), "
    "so its per-example gradient is (B, 784, 256). Return jax.grad's gradients as they come, not transposed to "
    "PyTorch's (out, in) weight layout.")
def _transposed_back(got, want) -> dict | None:
    """``got`` with its weight leaves' two last axes swapped back, when every leaf whose shape differs from
    ``want``'s is a (B, out, in) weight (and at least one does); None otherwise."""
    if not isinstance(got, dict) or not isinstance(want, dict) or set(got) != set(want):
        return None
    swapped = [k for k in want if np.shape(got[k]) != np.shape(want[k])]
    if not swapped or any(len(np.shape(want[k])) != 3 or np.shape(got[k]) != (
            np.shape(want[k])[0], np.shape(want[k])[2], np.shape(want[k])[1]) for k in swapped):
        return None
    return {k: np.swapaxes(np.asarray(v), 1, 2) if k in swapped else v for k, v in got.items()}


def _cut_back(got, want) -> dict | None:
    """``got`` cut back to its first B slices, when every leaf has as many slices, more than ``want``'s B, and
    ``want``'s shape otherwise (a padded batch's gradients); None otherwise."""
    if not isinstance(got, dict) or not isinstance(want, dict) or set(got) != set(want) or not want:
        return None
    rows = {np.shape(v)[0] if np.ndim(v) else -1 for v in got.values()}
    b = np.shape(next(iter(want.values())))[0]
    if len(rows) != 1 or rows.pop() <= b or any(np.shape(got[k])[1:] != np.shape(want[k])[1:] for k in want):
        return None
    return {k: np.asarray(v)[:b] for k, v in got.items()}


def _renaming(got, want_shapes: dict[str, tuple]) -> dict[str, str] | None:
    """For each of params' leaf paths, the path of ``got``'s leaf that stands for it, when ``got``'s names differ
    (kernel and bias, weight and bias, W and b for w and b), or are params' own names on each other's leaves (w and
    b swapped), and each of its leaves pairs with exactly one: the same path but for the last name, and a shape no
    other leaf there has; None otherwise (and where every leaf pairs with its own name)."""
    if not isinstance(got, dict) or len(got) != len(want_shapes):
        return None

    def by_parent(paths) -> dict[str, list[str]]:
        parents: dict[str, list[str]] = {}
        for path in paths:
            parents.setdefault(path.rpartition("/")[0], []).append(path)
        return parents

    theirs, ours = by_parent(got), by_parent(want_shapes)
    if set(theirs) != set(ours):
        return None
    pairs = {}
    for parent, paths in ours.items():
        shapes = [tuple(np.shape(got[path])) for path in theirs[parent]]
        if len(shapes) != len(paths) or len(set(shapes)) != len(shapes):
            return None
        for path in paths:
            if tuple(want_shapes[path]) not in shapes:
                return None
            pairs[path] = theirs[parent][shapes.index(tuple(want_shapes[path]))]
    return None if all(ours == theirs for ours, theirs in pairs.items()) else pairs


def _pairs_words(pairs: dict[str, str]) -> str:
    """``"'kernel' for 'w', ..."``: each of params' leaf paths with the one of the gradients that stands for it
    (:func:`_renaming`), where they differ."""
    return ", ".join(f"'{theirs}' for '{ours}'" for ours, theirs in sorted(pairs.items()) if ours != theirs)


def _renamed_back(got, want) -> dict | None:
    """``got`` under ``want``'s leaf names (see :func:`_renaming`); None when it does not pair up so."""
    pairs = _renaming(got, {path: np.shape(leaf) for path, leaf in want.items()}) if isinstance(want, dict) else None
    return None if pairs is None else {path: got[theirs] for path, theirs in pairs.items()}


LEAVES_RENAMED = Mistake(
    "ex2.leaves_renamed", "gradient leaves under other names than params'",
    "The gradients are right, under other leaf names than params' (the message pairs them): per_example_grads "
    "returns a pytree shaped like params, with its keys ('layer1', 'w', 'b', ...), as jax.grad gives it. Return "
    "jax.grad's tree as it comes, without renaming its leaves.")


PADDED_BATCH = Mistake(
    "ex2.batch_padded", "a batch padded to a larger size and the padding's gradients returned",
    "per_example_grads returns one slice per example, B in all. Where the batch is padded (to a bucket size, so "
    "that fewer shapes compile), slice every leaf back to the first B, e.g. jax.tree.map(lambda g: g[:B], grads), "
    "and take the argmax over those B only.")


def _padded_rows(ctx: Context) -> str:
    """Words for gradients with more slices than examples on some batch, as many in every leaf, whose first B
    slices are the examples' right gradients on every batch that returned: a batch padded and not cut back; ""
    otherwise."""
    said, sizes = [], []
    for case in CASES:
        try:
            got = ctx.got(f"grads/{case}")
        except StudentError:
            continue
        want = ctx.want(f"grads/{case}")
        b = len(_case(ctx, case)["y"])
        cut = _cut_back(got, want)
        if cut is None:  # no slices past the batch: then its shapes are right
            if not isinstance(got, dict) or set(got) != set(want) or any(
                    np.shape(got[k]) != np.shape(want[k]) for k in want):
                return ""
            cut = got
        if not all(close(np.asarray(cut[k]), want[k], rtol=1e-3, atol_scale=1e-3) for k in want):
            return ""
        n = np.shape(next(iter(got.values())))[0]
        said.append(f"{n} for B={b}")
        sizes.append((n, b))
    if not any(n > b for n, b in sizes):
        return ""
    words = (f"measured: every leaf's leading axis is {', '.join(said)}, and the first B slices are the examples' "
             "right gradients: the batch was padded")
    step = np.gcd.reduce([n for n, _ in sizes])
    if step > 1 and all(n == -(-b // step) * step for n, b in sizes):
        words += f" to a multiple of {step}"
    return words + ", and the padding's slices were returned with them"


HINT_ANY_BATCH = ("Give every example of the batch its slice, whatever B is: jax.vmap over the whole batch handles "
                  "any B; splitting the batch into chunks must keep the last, shorter chunk.")


def _traced_leading_axes(ctx: Context) -> str:
    """Words for per_example_grads traced on the larger vectorisation batch (13 examples) giving leaves whose
    leading axis is not 13; "" when every leaf has it, or this was not observed."""
    b = VECTOR_BATCHES[-1]
    try:
        traced = ctx.got(f"vector/b{b}") if ctx.student.has(f"vector/b{b}") else None
    except StudentError:
        return ""
    shapes = traced.get("out_shapes") if isinstance(traced, dict) else None
    if not shapes:
        return ""
    leading = sorted({shape[0] if shape else None for shape in shapes}, key=str)
    if leading == [b]:
        return ""
    if len(leading) == 1 and isinstance(leading[0], int) and leading[0] < b:
        return (f"traced on a batch of {b} examples (B={b}), per_example_grads returns leaves with a leading axis "
                f"of {leading[0]}: {b - leading[0]} of the {b} examples get no gradient")
    return (f"traced on a batch of {b} examples (B={b}), per_example_grads returns leaves whose leading axes are "
            f"{', '.join(str(n) for n in leading)}, not {b}")


NESTING = Mistake(
    "ex2.tree_restructured", "gradients in another tree than params (flattened or re-nested)",
    "Return the gradients in the tree jax.grad gives, shaped like params: grads['layer1']['w'], not a flattened "
    "or re-keyed copy. jax.vmap(jax.grad(...)) already returns that tree; return it as it is.")


def _nesting(ctx: Context) -> str:
    """Words for gradients whose leaves sit elsewhere in the tree than params' do ("" when they sit alike, or
    this was not observed: the observations read the tree flattened, where ``{"layer1/w": ...}`` and
    ``{"layer1": {"w": ...}}`` look alike)."""
    try:
        got = ctx.got("grads/paths") if ctx.student.has("grads/paths") else None
    except StudentError:
        return ""
    want = [_jax_path(p) for p in sorted(flatten(_case(ctx, "small")["params"]))]
    if not isinstance(got, list) or sorted(got) == sorted(want):
        return ""
    return (f"batch 'small': the gradients' leaves are at {', '.join(got[:4])}{', ...' if len(got) > 4 else ''}; "
            f"params has them at {', '.join(sorted(want)[:4])}{', ...' if len(want) > 4 else ''}")


def _jax_path(path: str) -> str:
    """``layer1/w`` as jax.tree_util.keystr writes a dict's path: ``['layer1']['w']``."""
    return "".join(f"[{part!r}]" for part in path.split("/"))


def _grouped(ctx: Context, case: str, got: dict, expected: dict[str, tuple[int, ...]]) -> str:
    """Words for leaves with a leading axis of B / m whose every slice is the mean (or sum) of m consecutive
    examples' gradients, measured against the reference's; "" otherwise."""
    size = next(iter(expected.values()))[0]
    leading = {np.shape(got[p])[0] if np.ndim(got[p]) else 0 for p in expected}
    if len(leading) != 1 or not ctx.reference.has(f"grads/{case}"):
        return ""
    k = leading.pop()
    if not 0 < k < size or size % k or any(tuple(np.shape(got[p]))[1:] != s[1:] for p, s in expected.items()):
        return ""
    m, want = size // k, ctx.want(f"grads/{case}")
    for how, reduce in (("mean", np.mean), ("sum", np.sum)):
        groups = {p: reduce(np.asarray(want[p], np.float64).reshape(k, m, *s[1:]), axis=1) for p, s in expected.items()}
        if close(got, groups, rtol=1e-3, atol_scale=1e-3):
            return (f"measured: every leaf has a leading axis of {k} = B / {m}, and slice j is the {how} of the "
                    f"gradients of examples {m}j to {m}j + {m - 1}: one gradient per group of {m} examples")
    return ""


def _wrong_shapes(got: dict, expected: dict[str, tuple[int, ...]]) -> dict[str, tuple[tuple, tuple]]:
    """``{leaf: (its shape, the expected one)}`` for the leaves of ``got`` (which has the expected leaves) whose
    shape differs."""
    return {p: (tuple(np.shape(got[p])), s) for p, s in expected.items() if tuple(np.shape(got[p])) != s}


def _batched_elsewhere(ctx: Context, case: str) -> bool:
    """Whether every other batch (each larger than one) came back with the expected leaves and shapes."""
    for other in (c for c in CASES if c != case):
        got, expected = ctx.got(f"grads/{other}"), _expected_shapes(ctx, other)
        if not isinstance(got, dict) or set(got) != set(expected) or _wrong_shapes(got, expected):
            return False
    return True


def _values_credit(ctx: Context) -> float:
    try:
        return ctx.verdict("ex2.values").credit
    except StudentError:
        return 0.0


def _diagnose_grads(ctx: Context, case: str, got: dict) -> tuple[str, str]:
    """What the wrong gradients of one batch are, measured: (words for the message, the hint); the hint is ""
    when the batch cannot tell which of several mistakes it shows."""
    c = _case(ctx, case)
    params, x, y = c["params"], c["x"], c["y"]
    b = len(y)
    if _input_gradient(ctx, case, got):
        return "", GRAD_WRT_X
    own = npref.per_example_grads(params, x, npref.one_hot(y))
    variants = {
        LABELS_AXES: npref.per_example_grads(params, x, np.repeat(npref.one_hot(y).mean(0, keepdims=True), b, 0)),
        MEAN_SCALE: {k: v / b for k, v in own.items()},
        BATCH_GRAD: {k: np.repeat(v.mean(0, keepdims=True), b, 0) for k, v in own.items()},
    }
    for hint, variant in variants.items():
        if b > 1 and close(got, variant, rtol=1e-3, atol_scale=1e-3):
            return (f"measured: every gradient is the expected one divided by the batch size, {b}"
                    if hint is MEAN_SCALE else ""), hint
    got = _as_arrays(got, own)
    if got is None:
        return "", HINT_VALUES
    if not any(np.any(v) for v in got.values()):
        return "every gradient is exactly 0", ZERO_GRADS
    narrow = _zero_from_label(got, y)
    if narrow:
        return narrow, NARROW_TARGETS
    zero = sorted(k for k, v in got.items() if not np.any(v) and np.any(own[k]))
    if zero and all(k in zero or close(got[k], own[k], rtol=1e-3, atol_scale=1e-3) for k in got):
        return (f"the gradients of {', '.join(zero)} are exactly 0 and every other leaf's are right: those params "
                "were not differentiated"), FROZEN
    scale = _common_scale(got, own)
    if scale is not None and b == 1:  # one example's factor cannot tell a scaled loss from a rescaled example
        return f"its one example's gradient is the expected one times {scale:.6g}", ""
    if scale is not None:
        return f"every gradient is the expected one times {scale:.6g}{_one_over(scale)}", GRADS_SCALED
    per_example = _example_scales(got, own)
    if per_example is not None:
        return per_example
    padded = _padded(params, x, got, own)
    if padded is not None:
        return padded
    decay = _weight_decay(got, own, flatten(params))
    if decay is not None:
        return decay, HINT_PENALTY
    offset = _labels_offset(params, x, y, got)
    if offset:
        return offset, LABELS_OTHER
    reordered = _params_reordered(params, x, y, got)
    if reordered:
        return reordered, PARAMS_REORDERED
    labels = _implied_labels(params, x, got)
    if labels is not None and not np.array_equal(labels, y):
        wrong = [i for i in range(b) if labels[i] != y[i]]
        shown = ", ".join(f"example {i} (label {int(y[i])}) has label {int(labels[i])}'s" for i in wrong[:3])
        return f"the gradients are the cross-entropy's at other labels: {shown}", LABELS_OTHER
    scaled = _input_scale(params, x, y, got)
    if scaled:
        return scaled, INPUTS_SCALED
    inputs = _inputs_used(params, x, y, got)
    if inputs:
        return inputs, INPUTS_OTHER
    seen = _labels_seen(params, x, y, got)
    if seen:
        return seen, HINT_LABELS_SEEN
    words = _output_gradient_words(params, y, got, own)
    smoothed = _smoothed_targets(params, y, got, own)
    if smoothed:
        return (f"{words}; {smoothed[0]}" if words else smoothed[0]), smoothed[1]
    other = _other_loss(params, x, y, got, own)
    if other:
        return (f"{words}; {other[0]}" if words else other[0]), other[1]
    seen = _logits_seen(params, x, y, got)
    if seen:
        return (f"{words}; {seen[0]}" if words else seen[0]), seen[1]
    return words, HINT_VALUES


HINT_TEMPERATURE = ("The loss is the softmax cross-entropy of the forward pass's logits as they are: nothing divides "
                    "or multiplies them (no temperature) between forward(params, x) and log_softmax.")
HINT_OTHER_LOGITS = ("The loss must see exactly forward(params, x) for the example: the lesson's MLP on the input as "
                     "given, no dropout, noise or change to x, the hidden values or the logits inside the loss.")


def _logits_seen(params: dict, x, y, got: dict) -> tuple[str, str] | None:
    """What logits the loss saw, where each example's gradient with respect to the logits (the output bias's) has
    a softmax cross-entropy's form at its label: positive at the other classes, negative at the label. There it
    is c * softmax(z'), so log(gradient) at the other classes is z' up to a constant, measured against the forward
    pass's logits z: the slope of that line (z' = a z: a temperature of 1 / a), or no line at all (other logits).
    None when the form does not hold, or the logits seen are the forward pass's."""
    z, g = npref.mlp(params, x), got[_output_bias(params)]
    labels = np.asarray(y)
    others = npref.one_hot(labels, z.shape[1]) == 0
    if g.shape != z.shape or not (np.all(g[others] > 0) and np.all(g[~others] < 0)):
        return None
    slopes, misfit = [], []
    for i in range(len(labels)):
        usable = others[i] & (g[i] > 1e-6 * np.max(g[i][others[i]]))  # classes whose float32 values have digits
        if usable.sum() < 4:  # too few to fit a line (an example the loss is sure of): says nothing
            slopes.append(np.nan)
            misfit.append(0.0)
            continue
        design = np.stack([z[i][usable], np.ones(int(usable.sum()))], axis=1)
        target = np.log(g[i][usable])
        coef = np.linalg.lstsq(design, target, rcond=None)[0]
        slopes.append(float(coef[0]))
        misfit.append(float(np.max(np.abs(design @ coef - target))))
    if np.isnan(slopes).all():
        return None
    slopes = [a for a in slopes if not np.isnan(a)]
    slope = float(np.median(slopes))
    if max(misfit) < 1e-2 and np.ptp(slopes) < 1e-2 * abs(slope) and abs(slope - 1) > 1e-2:
        return (f"at every class but the label, log(gradient) follows {slope:.3g} times the lesson's logits: the "
                f"loss is the softmax cross-entropy of the logits times {slope:.3g} (divided by {1 / slope:.3g}, a "
                "temperature)"), HINT_TEMPERATURE
    if max(misfit) > 0.1:
        i = int(np.argmax(misfit))
        return (f"each example's gradient has a softmax cross-entropy's form (positive at the other classes, "
                f"negative at the label), but not that of the logits forward(params, x) gives: at example {i}, "
                "log(gradient) at the other classes is off any line in those logits by up to "
                f"{misfit[i]:.2g}: the loss saw other logits than the forward pass gives"), HINT_OTHER_LOGITS
    return None


NARROW_TARGETS = Mistake(
    "ex2.targets_too_narrow", "targets that cover only the lowest labels",
    "Examples with the higher labels got zero gradients: the targets built from the labels have fewer classes "
    "than the logits (a one_hot width read from the wrong axis, for one example under vmap the batch axis of "
    "length 1). Build them with the number of classes, 10: jax.nn.one_hot(y, 10), or logits.shape[-1].")


def _zero_rows(got: dict, b: int) -> np.ndarray:
    """Which examples' gradients are exactly 0 on every leaf."""
    return np.array([not any(np.any(np.asarray(v)[i]) for v in got.values()) for i in range(b)])


def _narrow_label(got: dict, y) -> int | None:
    """k, when the gradients are exactly 0 for exactly the examples whose label is k or more, and some are not;
    None otherwise."""
    labels = np.asarray(y).reshape(-1)
    zero = _zero_rows(got, len(labels))
    if zero.all() or not zero.any():
        return None
    k = int(labels[zero].min())
    return k if (labels[~zero] < k).all() else None


def _all_zero_above(ctx: Context) -> bool:
    """Every failing batch is zero exactly from one label k up: some partly, the others wholly (labels >= k)."""
    ks, whole = [], []
    for case in CASES:
        y = np.asarray(_case(ctx, case)["y"]).reshape(-1)
        try:
            got = ctx.got(f"grads/{case}")
            zero = _zero_rows(got, len(y))
        except (StudentError, AttributeError, IndexError, TypeError):  # failed, or not a tree of (B, ...) leaves
            return False
        if zero.all():
            whole.append(int(y.min()))
        elif zero.any():
            k = _narrow_label(got, y)
            if k is None:
                return False
            ks.append(k)
    return bool(ks) and len(set(ks)) == 1 and all(low >= ks[0] for low in whole)


def _zero_from_label(got: dict, y) -> str:
    """Words for gradients that are exactly 0 for exactly the examples whose label is k or more, when some are;
    "" otherwise."""
    labels = np.asarray(y).reshape(-1)
    k = _narrow_label(got, labels)
    if k is None:
        return ""
    zero = _zero_rows(got, len(labels))
    return (f"the gradients of examples {', '.join(str(i) for i in np.flatnonzero(zero)[:6])} (labels "
            f"{', '.join(str(int(v)) for v in labels[zero][:6])}) are exactly 0, and every example with a label "
            f"below {k} has a gradient: the targets reach the loss only for labels below {k}")


def _example_scales(got: dict, own: dict) -> tuple[str, str | Mistake] | None:
    """When each example's gradient is its own multiple of the right one, but not all by the same factor: the
    factors measured, and whether they cap every example's norm at one value (per-example clipping). None else."""
    b = len(next(iter(own.values())))
    factors = []
    for i in range(b):
        factor = common_factor({k: v[i] for k, v in got.items()}, {k: v[i] for k, v in own.items()})
        if factor is None:
            return None
        factors.append(factor)
    factors = np.asarray(factors)
    if b < 2 or np.ptp(factors) <= 1e-3 * np.max(np.abs(factors)):
        return None
    shown = ", ".join(f"{f:.3g}" for f in factors[:8]) + (", ..." if b > 8 else "")
    words = f"each example's gradient is the right one times a factor of its own ({shown})"
    norms, right = npref.per_example_norms(got), npref.per_example_norms(own)
    scaled = np.abs(factors - 1) > 1e-3
    cap = float(np.max(norms[scaled]))
    if (np.all(factors > 0) and np.ptp(norms[scaled]) <= 1e-3 * cap and np.all(right[scaled] > cap)
            and np.all(right[~scaled] <= cap * (1 + 1e-3))):
        return (words + f": every example whose gradient norm exceeds {cap:.3g} comes back with norm {cap:.3g}, "
                "the others unchanged, as clipping each example's gradient does", GRADS_CLIPPED)
    return words, HINT_VALUES


PADDED = Mistake(
    "ex2.padded_into_batch", "each example's loss taken over a batch of B rows padded with filler",
    "Each example's loss must be that example's alone: vmap a loss over one example (x[i][None], y[i][None]), "
    "with no other rows. A batch of B rows with the example in one of them averages the filler rows' gradients "
    "in and divides the example's own by B.")


def _padded(params: dict, x, got: dict, own: dict) -> tuple[str, str | Mistake] | None:
    """When each example's gradient is the right one times 1/B plus one term the same for every example: the loss
    of a batch of B rows, the example in one and filler in the others (rows of zeros labelled 0, when the term is
    theirs). Measured from the differences between examples, which the common term cancels; None otherwise."""
    b = len(next(iter(own.values())))
    if b < 2:
        return None
    factor = common_factor({k: v[1:] - v[:1] for k, v in got.items()}, {k: v[1:] - v[:1] for k, v in own.items()},
                           rtol=1e-3)
    if factor is None or abs(factor * b - 1) > 1e-3:
        return None
    term = {k: got[k][0] - own[k][0] / b for k in own}
    if not any(np.any(np.abs(v) > 1e-6) for v in term.values()):
        return None  # the batch mean's gradient, told before
    words = (f"each example's gradient is its own divided by B={b} plus one term, the same for every example: the "
             f"loss of a batch of {b} rows with the example in one of them and filler in the other {b - 1}")
    zeros = npref.per_example_grads(params, np.zeros((1, np.shape(x)[1])), npref.one_hot(np.zeros(1, int)))
    if close(term, {k: v[0] * (b - 1) / b for k, v in zeros.items()}, rtol=1e-3, atol_scale=1e-3):
        words += " (rows of zeros labelled 0)"
    return words, PADDED


def _weight_decay(got: dict, own: dict, params: dict) -> str | None:
    """Words for gradients that are the right ones plus one multiple of the params (of every leaf, or of the
    weights only, the biases right): the gradient of an L2 penalty added to each example's loss. None else."""
    diff = {k: got[k] - own[k] for k in own}
    like = {k: np.broadcast_to(np.asarray(params[k], np.float64), own[k].shape) for k in own}
    for leaves, which in ((sorted(own), "every leaf"), ([k for k in own if k.endswith("/w")], "the weights")):
        rest = [k for k in own if k not in leaves]
        if not leaves or any(not close(diff[k], np.zeros_like(diff[k])) for k in rest):
            continue
        factor = common_factor({k: diff[k] for k in leaves}, {k: like[k] for k in leaves}, rtol=0.1, of_got=True)
        if factor is not None and abs(factor) > 1e-9:
            spared = f", the biases' right" if rest else ""
            return (f"each example's gradient is the right one plus {factor:.3g} times the params on {which}"
                    f"{spared}: the gradient of an L2 penalty ({factor / 2:.3g} * sum of squares) in the loss")
    return None


def _as_arrays(got, like: dict) -> dict | None:
    """``got`` as float64 arrays when it has ``like``'s leaves and shapes; None otherwise."""
    if not isinstance(got, dict) or set(got) != set(like):
        return None
    try:
        arrays = {k: np.asarray(v, np.float64) for k, v in got.items()}
    except (TypeError, ValueError):
        return None
    if any(arrays[k].shape != like[k].shape or not np.all(np.isfinite(arrays[k])) for k in like):
        return None
    return arrays


def _common_scale(got: dict, want: dict) -> float | None:
    """The one factor c (not 1) with got = c * want over every leaf and example, measured; None if there is none."""
    scale = common_factor(got, want)
    return None if scale is None or abs(scale - 1) < 1e-3 else scale


def _output_bias(params: dict) -> str:
    return f"{npref.layer_names(params)[-1]}/b"


PARAMS_REORDERED = Mistake(
    "ex2.params_reordered", "gradients taken at weights whose elements were rearranged",
    "Each example's loss must see the params as they are. Here the weights it saw hold the right elements in other "
    "places: flattened in one order and reshaped back in the other (ravel(order='F') then reshape in C order, as a "
    "MATLAB-style unroll of theta and roll back does). Flatten and unflatten in one order, or better, take the "
    "gradient with respect to the params dict itself: jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)).")


def _params_reordered(params: dict, x, y, got: dict) -> str:
    """Words for gradients that are each example's own at params whose weight matrices were flattened in one order
    and reshaped back in the other (column-major then row-major, or the reverse); "" otherwise."""
    flat = flatten(params)
    if not any(np.ndim(v) >= 2 and min(np.shape(v)) > 1 for v in flat.values()):
        return ""
    for words, move, back in npref.ORDER_SWAPS:
        moved = {name: {k: move(v) if np.ndim(v) >= 2 else np.asarray(v) for k, v in layer.items()}
                 for name, layer in params.items()}
        at_moved = npref.per_example_grads(moved, x, npref.one_hot(np.asarray(y)))
        # as taken at the moved weights, or carried back to the params' own layout (the gradient of a loss that
        # rearranges the params inside it)
        carried = {k: np.stack([back(g) for g in v]) if np.ndim(v) >= 3 else v for k, v in at_moved.items()}
        for grads in (at_moved, carried):
            if close(got, grads, rtol=1e-3, atol_scale=1e-3):
                return (f"every example's gradient is its own cross-entropy's at weights {words}: the loss saw the "
                        "right elements of each weight matrix in other places")
    return ""


def _zero_at_edge(ctx: Context, failed: list[str]) -> bool:
    """Every failing batch whose gradients are all exactly 0 holds only the first or only the last label (which a
    label shifted by one takes out of 0..9)."""
    for case in failed:
        try:
            got = ctx.got(f"grads/{case}")
        except StudentError:
            return False
        if isinstance(got, dict) and not any(np.any(np.asarray(v)) for v in got.values()):
            labels = set(np.asarray(_case(ctx, case)["y"]).reshape(-1).tolist())
            classes = np.shape(ctx.want(f"grads/{case}")[_output_bias(_case(ctx, case)["params"])])[-1]
            if not (labels <= {0} or labels <= {classes - 1}):
                return False
    return True


def _labels_offset(params: dict, x, y, got: dict) -> str:
    """Words for gradients that are every example's cross-entropy at its label plus or minus one, a label that
    falls outside 0..9 giving no target at all (as jax.nn.one_hot gives a row of zeros there); "" otherwise."""
    labels = np.asarray(y).reshape(-1)
    classes = np.shape(got[_output_bias(params)])[-1]
    for shift, wraps in ((-1, False), (1, False), (-1, True), (1, True)):
        moved = (labels + shift) % classes if wraps else labels + shift
        if wraps and np.array_equal(moved, labels + shift):
            continue  # no label wraps round: the same as without
        targets = np.zeros((len(labels), classes))
        inside = (moved >= 0) & (moved < classes)
        if not inside.any():
            continue  # no example keeps a target: all zeros, said as such
        targets[np.flatnonzero(inside), moved[inside]] = 1.0
        # -sum(log_softmax * 0) is 0 whatever the params: an example without a target has no gradient at all
        grads = {k: np.where(inside.reshape((-1,) + (1,) * (np.ndim(v) - 1)), v, 0.0)
                 for k, v in npref.per_example_grads(params, x, targets).items()}
        if close(got, grads, rtol=1e-3, atol_scale=1e-3):
            edge = "0" if shift < 0 else str(classes - 1)
            outside = (f"; label {edge}'s examples have no target at all (one_hot of {int(edge) + shift} is a row "
                       "of zeros) and a gradient of 0") if not inside.all() else ""
            if wraps:
                outside = f" (modulo {classes}: label {edge}'s examples have label {(int(edge) + shift) % classes}'s)"
            return (f"every example's gradient is the cross-entropy's at its label {shift:+d}{outside}: the labels "
                    f"were counted from {1 if shift < 0 else -1}, or the classes compared with {'1..10' if shift < 0 else '-1..8'}")
    return ""


def _implied_labels(params: dict, x, got: dict) -> np.ndarray | None:
    """Each example's label as its gradient says, when every example's gradient is the cross-entropy's at some label.

    The gradient with respect to the output bias is the loss's gradient with respect to the logits, softmax(z) -
    one_hot(label): the label is where it is most negative. Each example's whole gradient is then compared with
    the cross-entropy's at that label. None when some example's gradient is no cross-entropy's.
    """
    bias = got[_output_bias(params)]
    labels = np.argmin(bias, axis=1)
    at_labels = npref.per_example_grads(params, x, npref.one_hot(labels))
    return labels if close(got, at_labels, rtol=1e-3, atol_scale=1e-3) else None


HINT_LABELS_SEEN = ("Each example's loss must be the cross-entropy at its own label, one_hot(y[i], 10): follow y "
                    "from per_example_grads' arguments to the loss (which argument, column or in_axes carries it, "
                    "and what it is converted to on the way), and x beside it.")


def _labels_seen(params: dict, x, y, got: dict) -> str:
    """Words for the labels each example's loss put its target at, read off the gradient with respect to the
    logits (the output bias's) where it has the form softmax(z) - one_hot(k) whatever the logits z: summing to 0,
    negative at one class k only, and between -1 and 1; "" unless every readable example has that form (and at
    least half are readable: a sure example's gradient is all zeros) and some example's k is not its label."""
    g = got[_output_bias(params)]
    labels = np.asarray(y).reshape(-1)
    if g.ndim != 2 or len(g) != len(labels) or len(labels) < 2:
        return ""
    seen: dict[int, int] = {}
    for i, row in enumerate(g):
        scale = float(np.max(np.abs(row)))
        if scale < 1e-6:
            continue  # nothing to read
        negative = row < -1e-6 * scale
        if abs(row.sum()) > 1e-3 * scale or negative.sum() != 1 or scale >= 1 + 1e-6:
            return ""
        seen[i] = int(np.argmin(row))
    wrong = [i for i, k in seen.items() if k != labels[i]]
    if 2 * len(seen) < len(labels) or not wrong:
        return ""
    if len(set(seen.values())) == 1 and len(wrong) > 1:
        k = next(iter(seen.values()))
        what = f"every example's loss put its target at class {k}, whatever its label"
    else:
        what = "the loss's target is at another class than the label: " + ", ".join(
            f"example {i} (label {int(labels[i])}) at class {seen[i]}" for i in wrong[:4])
    targets = labels.copy()
    targets[list(seen)] = list(seen.values())
    rest = {k: v[list(seen)] for k, v in npref.per_example_grads(params, x, npref.one_hot(targets)).items()}
    also = ("" if close({k: v[list(seen)] for k, v in got.items()}, rest, rtol=1e-3, atol_scale=1e-3) else
            "; and at those classes the other leaves' gradients are not those of the example's own input x[i] "
            "either: the input the loss saw differs too")
    return (f"measured: each example's gradient with respect to the logits (the output bias's) has the form "
            f"softmax(logits) - one_hot(k), negative at class k only; {what} ({len(wrong)} of {len(labels)} "
            f"examples): the labels do not reach the loss as given{also}")


def _input_scale(params: dict, x, y, got: dict) -> str:
    """Words for gradients that are all the cross-entropy's at x times one constant s (found by a search over s on
    the output bias's gradients, then held to every leaf); "" otherwise."""
    x, targets = np.asarray(x, np.float64), npref.one_hot(np.asarray(y))
    seen = np.asarray(got[_output_bias(params)], np.float64)  # softmax(logits) - targets, at the logits the loss saw
    if seen.shape != (len(x), targets.shape[1]):
        return ""

    def misfit(scale: float) -> float:
        return float(np.max(np.abs(npref.softmax(npref.mlp(params, x * scale)) - targets - seen)))

    logs = np.linspace(-4.0, 4.0, 161)  # s from 1e-4 to 1e4, then narrowed around the best
    for _ in range(4):
        best = logs[int(np.argmin([misfit(10.0 ** v) for v in logs]))]
        step = logs[1] - logs[0]
        logs = np.linspace(best - step, best + step, 21)
    scale = float(10.0 ** best)
    if abs(scale - 1.0) < 1e-4 or not close(got, npref.per_example_grads(params, x * scale, targets), rtol=1e-3,
                                            atol_scale=1e-3):
        return ""
    k = _whole_inverse(scale, rtol=1e-4)  # the search finds s to about 1e-5
    named = f" (x / {k})" if k else ""
    return (f"measured: every gradient is the cross-entropy's at the input times {scale:.4g}{named}: the loss saw x "
            "rescaled, not x as it was given")


def _inputs_used(params: dict, x, y, got: dict) -> str:
    """Words for gradients that are each the cross-entropy's at its own label but at another example's input (the
    same one for all, or others), found by trying every input with every label; "" otherwise."""
    b = len(y)
    if b < 2:
        return ""
    tried = npref.per_example_grads(params, np.repeat(x, b, 0), np.tile(npref.one_hot(y), (b, 1)))  # (k, i) pairs
    used = []
    for i in range(b):
        found = [k for k in range(b)
                 if close({n: v[i] for n, v in got.items()}, {n: v[k * b + i] for n, v in tried.items()},
                          rtol=1e-3, atol_scale=1e-3)]
        if len(found) != 1:
            return ""
        used.append(found[0])
    if used == list(range(b)):
        return ""
    if len(set(used)) == 1:
        return (f"measured: every example's gradient is the one at input {used[0]} (x[{used[0]}]) with the example's "
                "own label: each example's loss saw the same input, not its own")
    wrong = [i for i in range(b) if used[i] != i]
    shown = ", ".join(f"example {i}'s is at input {used[i]}" for i in wrong[:3])
    return f"measured: each gradient is at its own label but at another example's input: {shown}"


def _output_gradient_words(params: dict, y, got: dict, own: dict) -> str:
    """The measured gradient with respect to the logits (the output bias's) of the first wrong example, beside the
    cross-entropy's, softmax(logits) - one_hot(y), read off ``own`` (each example's right gradients)."""
    bias, want = got[_output_bias(params)], own[_output_bias(params)]
    wrong = [i for i in range(len(y)) if array_mismatch(bias[i], want[i], rtol=1e-3) is not None]
    if not wrong:
        return ""
    i = wrong[0]
    fmt = lambda v: "[" + ", ".join(f"{t:.3g}" for t in v) + "]"  # noqa: E731
    return (f"measured: example {i}'s gradient with respect to the output bias (the loss's gradient with respect "
            f"to the logits) is {fmt(bias[i])}; the cross-entropy at label {int(y[i])} gives softmax(logits) - "
            f"one_hot({int(y[i])}) = {fmt(want[i])}")


def _other_loss(params: dict, x, y, got: dict, own: dict) -> tuple[str, Mistake | str] | None:
    """Words for gradients that are another loss's (:data:`_OTHER_LOSSES`), each example's whole gradient measured
    against that loss's; else, when the gradient with respect to the logits does not sum to 0 over the classes,
    what that rules out; None otherwise."""
    z = npref.mlp(params, x)
    p, t = npref.softmax(z), npref.one_hot(np.asarray(y), z.shape[1])
    for words, dz in _OTHER_LOSSES:
        if close(got, npref.per_example_grads(params, x, p - dz(z, p, t, y)), rtol=1e-3, atol_scale=1e-3):
            return f"every example's gradient is that of {words}, not of the softmax cross-entropy at its label", \
                OTHER_LOSS
    sums = got[_output_bias(params)].sum(axis=1)
    i = int(np.argmax(np.abs(sums)))
    if abs(sums[i]) > 1e-3 * max(1.0, float(np.abs(got[_output_bias(params)][i]).max())):
        return (f"example {i}'s gradient with respect to the logits sums to {sums[i]:.3g} over the classes, where a "
                "softmax cross-entropy's, softmax(logits) - targets, sums to 0 whatever the targets: the loss is not "
                "a softmax cross-entropy"), HINT_VALUES
    return None


def _smoothed_targets(params: dict, y, got: dict, own: dict) -> tuple[str, Mistake | str] | None:
    """Words and hint for gradients that are a cross-entropy's against smoothed labels (the same weight at every
    label, the same at every other class), read off the gradient with respect to the logits; when that weight is
    the same at the label as elsewhere, the loss does not see the label at all (uniform targets). None otherwise."""
    bias, want = got[_output_bias(params)], own[_output_bias(params)]
    one_hot = npref.one_hot(np.asarray(y), want.shape[1])
    targets = want + one_hot - bias  # softmax(logits) - gradient: the targets such a cross-entropy has
    label = targets[np.arange(len(y)), np.asarray(y)]
    others = np.where(one_hot > 0, np.nan, targets)
    spread = np.nanmax(others, axis=1) - np.nanmin(others, axis=1)
    if not (np.allclose(targets.sum(axis=1), 1, atol=1e-3) and np.all(targets > -1e-4) and np.all(spread < 1e-3)
            and np.ptp(label) < 1e-3 and label[0] < 1 - 1e-3):
        return None
    if abs(label[0] - np.nanmean(others)) < 1e-3:
        return (f"every example's gradient is a cross-entropy's against targets of {label[0]:.3g} at every class, "
                "its label included: the loss does not see the label"), LABEL_UNSEEN
    return (f"every example's gradient is a cross-entropy's against targets of {label[0]:.3g} at its label and "
            f"{np.nanmean(others):.3g} at every other class, not one_hot(y): smoothed labels"), HINT_SMOOTHED


LABEL_UNSEEN = Mistake(
    "ex2.label_unseen", "a loss whose targets are the same at every class",
    "Each example's loss must pick out its own label: here the targets weigh every class alike, as when the one-hot "
    "does not line up with the log-probabilities (jax.nn.one_hot(y, 10, axis=0) of one label is a (10, 1) column, "
    "which broadcasts against a (1, 10) row into every class) or the log-probabilities are averaged over the "
    "classes. Build one_hot(y[i], 10) along the last axis (the default) and sum its product with log_softmax over "
    "that axis.")


OVERFLOW = Mistake(
    "ex2.logits_overflow", "a cross-entropy whose exp overflows on large logits",
    "The gradients are right on the usual batches but not where the logits are large (several hundred): exp of a "
    "logit above about 88 overflows float32, so a softmax or log-sum-exp written out as log(sum(exp(z))) gives inf "
    "and NaN there. Subtract the largest logit first (log-sum-exp's shift: m + log(sum(exp(z - m)))), or use "
    "jax.nn.log_softmax, as the given loss_fn does.")


def _large_logits(ctx: Context) -> Verdict | None:
    """On the small batch with its inputs LARGE_INPUTS times larger, the gradients are still each example's own
    (computed here in float64); None when they are, or this was not observed or failed (a crash there is a crash
    of the code judged above). Judged only once the usual batches agree."""
    if not ctx.student.has("measure/large_logits"):
        return None
    try:
        got = ctx.got("measure/large_logits")
    except StudentError:
        return None
    c = _case(ctx, "small")
    x = np.asarray(c["x"], np.float32) * np.float32(LARGE_INPUTS)
    logits = npref.mlp(c["params"], np.asarray(x, np.float64))
    want = npref.per_example_grads(c["params"], np.asarray(x, np.float64), npref.one_hot(c["y"]))
    problem = tree_mismatch(got, want)
    if problem is None:
        return None
    leaves = [np.asarray(v, np.float64) for v in (got.values() if isinstance(got, dict) else [got])]
    broken = any(not np.all(np.isfinite(v)) for v in leaves)
    words = (f"; measured: the gradients hold NaN or inf where the largest logit is {np.abs(logits).max():.0f}"
             if broken else "")
    return fail(f"the small batch (B={len(c['y'])}) with its inputs {LARGE_INPUTS:g} times larger, logits up to "
                f"{np.abs(logits).max():.0f} (the usual batches agree): {problem}{words}",
                OVERFLOW if broken else "Each example's gradient must hold for any logits, large ones too: compute "
                "the loss as the given loss_fn does (jax.nn.log_softmax), without a step that loses precision or "
                "range when the logits are large.", fraction=5 / 6)


def _stale(ctx: Context) -> Verdict | None:
    """On the small batch again with other labels, then with other params, the gradients are those arguments' own
    (computed here in float64); None when they are, or this was not observed or failed (a crash there is a crash of
    the code judged above). Judged only once the usual batches agree: a result kept from an earlier call shows."""
    c = _case(ctx, "small")
    x = np.asarray(c["x"], np.float64)
    calls = {"again/relabelled": (f"its labels moved one class on (y + {RELABEL_SHIFT}) % {NUM_CLASSES}", "y",
                                  c["params"], (np.asarray(c["y"]) + RELABEL_SHIFT) % NUM_CLASSES),
             "again/other_params": (f"its params times {OTHER_PARAMS_SCALE:g}", "params",
                                    _scaled_params(c["params"], OTHER_PARAMS_SCALE), np.asarray(c["y"]))}
    for name, (words, changed, params, y) in calls.items():
        if not ctx.student.has(name):
            continue
        try:
            got = ctx.got(name)
        except StudentError:
            continue
        problem = tree_mismatch(got, npref.per_example_grads(params, x, npref.one_hot(y)))
        if problem is None:
            continue
        said = f"the small batch (B={len(y)}) again with {words} (the usual batches agree): {problem}"
        if tree_mismatch(got, ctx.got("grads/small")) is None:
            return fail(f"{said}; measured: these are exactly the gradients of the earlier call on the same x with "
                        f"the {changed} it had then", STALE_GRADS, fraction=0.5)
        return fail(said, f"per_example_grads must read all three of its arguments on every call: with only the "
                          f"{changed} changed, the gradients changed otherwise than they should.", fraction=0.5)
    return None


def _scaled_params(params: dict, factor: float) -> dict:
    """``params`` with every leaf times ``factor``, in float32 as the probe scales them."""
    return {name: {k: np.asarray(v, np.float32) * np.float32(factor) for k, v in layer.items()}
            for name, layer in params.items()}


STALE_GRADS = Mistake(
    "ex2.gradients_kept_from_earlier_call", "gradients kept from an earlier call",
    "per_example_grads returned the gradients of an earlier call whose x was the same but another argument was not "
    "(the message says which): a result kept from that call, such as a cache keyed on x alone (or on the shapes), "
    "came back. Compute the gradients from all three arguments on every call, or key any cache on every one of "
    "them (jax.jit's own cache already keys compiled code on shapes and dtypes, never on values).")


def values(ctx: Context) -> Verdict:
    """Each slice equals the gradient of that example's loss (three batches)."""
    problems, hint, errors, measured, turned, renamed = [], "", [], [], False, False
    given = _given_code_changed(ctx)
    forward_changed = given is not None and given[1] is GIVEN_FORWARD_CHANGED
    for case in CASES:
        try:
            got = ctx.got(f"grads/{case}")
        except StudentError as exc:
            errors.append(exc)
            problems.append(f"batch '{case}': {exc.error.summary()}")
            continue
        back = _transposed_back(got, ctx.want(f"grads/{case}"))
        if back is not None:  # the (B, out, in) layout is charged in ex2.shapes; the values are judged as they are
            got, turned = back, True
        named_back = _renamed_back(got, ctx.want(f"grads/{case}"))
        if named_back is not None:  # other leaf names are charged in ex2.shapes; the values are judged as they are
            got, renamed = named_back, True
        cut = _cut_back(got, ctx.want(f"grads/{case}"))
        if cut is not None:  # slices past the batch (padding) are charged in ex2.shapes; the first B are judged
            got = cut
        problem = tree_mismatch(got, ctx.want(f"grads/{case}"))
        if problem:
            c = _case(ctx, case)
            # gradients of another network's logits: measured against the lesson's they would name the wrong loss
            words, found = ("", "") if forward_changed else _diagnose_grads(ctx, case, got)
            if found:  # "" when the batch cannot tell (one example)
                measured.append(found)
            named = isinstance(found, Mistake) and not isinstance(hint, Mistake)
            words = words if (named or not hint) else ""  # one measurement in the message, the one named
            problems.append(f"batch '{case}' (B={len(c['y'])}): {problem}" + (f"; {words}" if words else ""))
            hint = found if (named or not hint) else hint
    if errors and len(errors) == len(CASES):
        raise errors[0]
    if not problems:
        if turned or renamed:
            return Verdict(True, "the values are right " + " and ".join(
                (["with the weight leaves transposed back"] if turned else []) +
                (["under params' leaf names"] if renamed else [])) + " (charged in ex2.shapes)")
        return _stale(ctx) or _large_logits(ctx) or PASS
    failed = [case for case in CASES if any(p.startswith(f"batch '{case}'") for p in problems)]
    if not errors and (per_class := _per_class(ctx)):
        return fail("; ".join(problems) + f"; {per_class}", PER_CLASS, fraction=1 - len(problems) / len(CASES))
    by_size = _by_batch_size(ctx, failed)
    if by_size:
        return fail("; ".join(problems) + f"; measured: {by_size[0]}", by_size[1],
                    fraction=1 - len(problems) / len(CASES))
    if NARROW_TARGETS in measured and set(measured) <= {NARROW_TARGETS, ZERO_GRADS} and _all_zero_above(ctx):
        hint = NARROW_TARGETS  # batches of higher labels only are all zero: the same narrow targets
    elif set(measured) == {MEAN_SCALE, GRADS_SCALED} and _one_factor(ctx, failed):
        hint = GRADS_SCALED  # 1 / B on one batch is the factor every other batch shows: a constant, not the mean
    elif LABELS_OTHER in measured and set(measured) <= {LABELS_OTHER, ZERO_GRADS} and _zero_at_edge(ctx, failed):
        hint = LABELS_OTHER  # a batch of only 0s or 9s has no target left after the shift: all zero, the same cause
    elif OTHER_LOSS in measured and _one_other_loss(ctx, failed):
        hint = OTHER_LOSS  # one loss gives every failing batch (some where it gives exactly 0, say)
    elif isinstance(hint, Mistake) and any(found is not hint for found in measured):
        hint = HINT_VALUES  # another failing batch measured something else: name nothing the others do not show
    if not isinstance(hint, Mistake) and given:
        problems.append(f"measured: {given[0]}")
        # the module's forward measured off is the cause; of a loss_fn measured off, a measured hint says more
        hint = given[1] if given[1] is GIVEN_FORWARD_CHANGED or not hint or hint == HINT_VALUES else hint
    return fail("; ".join(problems), hint or HINT_VALUES, fraction=1 - len(problems) / len(CASES))


GIVEN_FORWARD_CHANGED = Mistake(
    "ex2.given_forward_changed", "the module's forward pass is not the lesson's MLP",
    "forward(params, x) is given code: the lesson's MLP, ReLU after layers 1 and 2, h @ w + b in each layer. The "
    "module's forward gives other logits (the message says how far), so the loss each gradient is taken of is not "
    "the lesson's. Put forward back as the exercise file gives it.")
GIVEN_LOSS_CHANGED = Mistake(
    "ex2.given_loss_changed", "the module's loss_fn is not the mean cross-entropy",
    "loss_fn(params, x, y) is given code: the mean softmax cross-entropy of forward's logits. The module's forward "
    "is right and its loss_fn gives another value (the message says which), so each gradient is taken of another "
    "loss. Put loss_fn back as the exercise file gives it.")


#: Ways the module's forward differs from the lesson's MLP, each measured on its logits: words, the forward.
_FORWARD_VARIANTS = (
    ("the lesson's logits with every negative one set to 0 (a ReLU on the output layer)",
     lambda p, x: npref.mlp(p, x, out_act=npref.relu)),
    ("the lesson's logits turned into softmax probabilities (a softmax on the output layer)",
     lambda p, x: npref.mlp(p, x, out_act=npref.softmax)),
    ("the lesson's MLP without the ReLU after layer 1", lambda p, x: npref.mlp(p, x, act_after={2})),
    ("the lesson's MLP without the ReLU after layer 2", lambda p, x: npref.mlp(p, x, act_after={1})),
    ("the lesson's MLP without any ReLU", lambda p, x: npref.mlp(p, x, act_after=set())),
    ("the lesson's MLP without any bias", lambda p, x: npref.mlp(p, x, bias=False)),
)


def _given_code_changed(ctx: Context) -> tuple[str, Mistake] | None:
    """Words and the mistake when the module's own forward or loss_fn (given code), called on the small batch,
    is not the lesson's; None when they are right or were not recorded."""
    c = _case(ctx, "small")
    params, x, y = c["params"], np.asarray(c["x"], np.float64), np.asarray(c["y"])
    try:
        own = np.asarray(ctx.got("forward/own"), np.float64) if ctx.student.has("forward/own") else None
    except (StudentError, TypeError, ValueError):
        own = None
    if own is not None and (problem := array_mismatch(own, npref.mlp(params, x))):
        variant = next((words for words, mlp in _FORWARD_VARIANTS
                        if own.shape == (len(y), 10) and array_mismatch(own, mlp(params, x)) is None), "")
        return (f"the module's forward(params, x) on batch 'small' gives other logits than the lesson's MLP: "
                f"{problem}" + (f"; measured: they are {variant}" if variant else "")), GIVEN_FORWARD_CHANGED
    try:
        own_loss = float(np.asarray(ctx.got("loss/own"))) if ctx.student.has("loss/own") else None
    except (StudentError, TypeError, ValueError):
        return None
    right = npref.cross_entropy(params, x, y)
    if own is None or own_loss is None or abs(own_loss - right) <= 1e-4 * max(1.0, abs(right)):
        return None
    return (f"the module's forward is the lesson's MLP, and its loss_fn on batch 'small' gives {own_loss:.6g}, where "
            f"the mean cross-entropy is {right:.6g}"), GIVEN_LOSS_CHANGED


def _one_other_loss(ctx: Context, cases: list[str]) -> bool:
    """One loss of :data:`_OTHER_LOSSES` gives the gradients of every one of ``cases``."""
    def gives(dz, case: str) -> bool:
        c = _case(ctx, case)
        x, y = np.asarray(c["x"], np.float64), np.asarray(c["y"])
        z = npref.mlp(c["params"], x)
        p, t = npref.softmax(z), npref.one_hot(y, z.shape[1])
        want = npref.per_example_grads(c["params"], x, p - dz(z, p, t, y))
        got = _as_arrays(ctx.got(f"grads/{case}"), want)
        return got is not None and close(got, want, rtol=1e-3, atol_scale=1e-3)

    with np.errstate(all="ignore"):
        return any(all(gives(dz, case) for case in cases) for _, dz in _OTHER_LOSSES)


def _one_factor(ctx: Context, cases: list[str]) -> bool:
    """Every one of ``cases``' gradients is the expected one times one and the same factor."""
    factors = []
    for case in cases:
        c = _case(ctx, case)
        own = npref.per_example_grads(c["params"], c["x"], npref.one_hot(c["y"]))
        got = _as_arrays(ctx.got(f"grads/{case}"), own)
        factors.append(None if got is None else _common_scale(got, own))
    return None not in factors and np.ptp(factors) <= 1e-3 * max(abs(f) for f in factors)


SOME_SIZES = Mistake(
    "ex2.some_batch_sizes", "per-example gradients that work for some batch sizes only",
    "per_example_grads must work for any B, odd ones and 1 included (the message lists which sizes failed): vmap "
    "over the whole batch; a split into equal parts (jnp.split), a reshape into pairs or a fixed number of rows "
    "needs B to fit it.")


BATCH_AS_CLASSES = Mistake(
    "ex2.batch_read_as_classes", "a batch of 10 examples taken for the 10 classes",
    f"The labels are int32 of shape (B,) for any B, and a batch of {NUM_CLASSES} examples is one among others: "
    "nothing may tell labels from one-hot rows, or the batch axis from the classes axis, by an axis's length "
    f"(y.shape[-1] == {NUM_CLASSES}). Take y as the contract gives it and one-hot it inside the loss "
    f"(jax.nn.one_hot(y, {NUM_CLASSES})).")


def _by_batch_size(ctx: Context, failed: list[str]) -> tuple[str, Mistake] | None:
    """Whether the failing batches are told apart by their size or by coming later: read off the norms of the
    student's gradients on the other batches of the first batch's size (``own_norms``). (words, mistake) when
    one reading holds; None otherwise."""
    right = [case for case in CASES if case not in failed]
    sizes = {case: len(_case(ctx, case)["y"]) for case in CASES}
    same = [case for case in LARGEST_CASES if case not in CASES and ctx.student.has(f"own_norms/{case}")]
    if not right or not same:
        return None
    agree = {}
    for case in same:
        try:
            got = np.asarray(ctx.got(f"own_norms/{case}"), np.float64).reshape(-1)
        except (StudentError, TypeError, ValueError):
            agree[case] = False
            continue
        agree[case] = array_mismatch(got, _right_norms(_case(ctx, case)), rtol=1e-3) is None
    first = CASES[0]
    if first in right and len(right) == 1 and not any(agree.values()) and all(
            len(_case(ctx, case)["y"]) == sizes[first] for case in same):
        return (f"right on batch '{first}', the first it was given (B={sizes[first]}), and wrong or failing on every "
                f"later one, batches of the same size included ({', '.join(repr(c) for c in same)}: their gradient "
                "norms are not each example's): something from the first call was kept for later ones"), STALE
    ok_sizes = {sizes[case] for case in right}
    if all(agree.values()) and not any(sizes[case] in ok_sizes for case in failed):
        right_for = f"right for B={', '.join(map(str, sorted(ok_sizes)))} (also on {', '.join(repr(c) for c in same)})"
        if any(_mapped_in(ctx, case) for case in failed):
            return (f"{right_for}, wrong or failing for B={', '.join(str(sizes[c]) for c in failed)}, where some "
                    "params leaves have a first axis as long as the batch (measured in ex2.shapes)"), PARAMS_MAPPED
        if {sizes[c] for c in failed} == {NUM_CLASSES} and all(_batch_kept(ctx, c) for c in failed):
            return (f"{right_for}, wrong or failing for B={NUM_CLASSES} only, a batch with as many examples as there "
                    f"are classes: its labels of shape ({NUM_CLASSES},) have the shape of one one-hot row"), \
                BATCH_AS_CLASSES
        odd = all(sizes[c] % 2 for c in failed) and not any(s % 2 for s in ok_sizes)
        return (f"{right_for}, wrong or failing for B={', '.join(str(sizes[c]) for c in failed)}"
                f"{': the odd batch sizes' if odd else ''}: it works for some batch sizes only"), SOME_SIZES
    return None


def _mapped_in(ctx: Context, case: str) -> str:
    """:func:`_params_mapped`'s words for the gradients observed on ``case``; "" when they show nothing of it."""
    try:
        got = ctx.got(f"grads/{case}")
    except StudentError:
        return ""
    expected = _expected_shapes(ctx, case)
    if not isinstance(got, dict) or set(got) != set(expected):
        return ""
    return _params_mapped(_wrong_shapes(got, expected), expected)


def _batch_kept(ctx: Context, case: str) -> bool:
    """per_example_grads on ``case`` returned leaves of B rows each, or raised something other than a split that B
    does not divide: what failed was not how the batch was cut."""
    if f"grads/{case}" in ctx.student.errors:
        return crash_kind(ctx.student.errors[f"grads/{case}"]) not in BATCH_SIZE_CRASHES
    b = len(_case(ctx, case)["y"])
    try:
        leaves = flatten(ctx.got(f"grads/{case}"))
    except (StudentError, TypeError, ValueError, AttributeError):
        return False
    return bool(leaves) and all(np.ndim(v) >= 1 and np.shape(v)[0] == b for v in leaves.values())


def vectorised(ctx: Context) -> Verdict:
    """The traced program does not grow with the batch and has no loop over it.

    Read off per_example_grads' traced program (jax.make_jaxpr): code that cannot be traced, as ex2.jit charges,
    is not judged here again."""
    try:
        small, large = (ctx.got(f"vector/b{b}") for b in VECTOR_BATCHES)
    except StudentError as exc:
        jitted = ctx.student.errors.get("jit/grads")
        if crash_kind(exc.error) in TRACING_CRASHES and jitted is not None and crash_kind(jitted) in TRACING_CRASHES:
            return skip("not judged: per_example_grads cannot be traced (charged in ex2.jit), and whether it loops "
                        "over the batch is read off its traced program (jax.make_jaxpr)")
        raise
    if large["loops"]:
        return fail(f"the jaxpr contains loop primitives {large['loops']}",
                    replace(SEQUENTIAL, hint=SEQUENTIAL.hint.format(loops=", ".join(large["loops"]))))
    if large["eqns"] > 1.5 * small["eqns"] + 10:
        return fail(f"the jaxpr has {small['eqns']} operations for B={VECTOR_BATCHES[0]} and {large['eqns']} for "
                    f"B={VECTOR_BATCHES[-1]}", LOOP)
    return PASS


def _leaves_covered(got: np.ndarray, squares: dict[str, np.ndarray]) -> list[str]:
    """The leaves whose squares alone give ``got`` (some leaves left out of every norm), when some proper subset
    does; [] when none does."""
    names = sorted(squares)
    for size in range(len(names) - 1, 0, -1):
        for some in itertools.combinations(names, size):
            if array_mismatch(got, np.sqrt(sum(squares[k] for k in some))) is None:
                return list(some)
    return []


def _summed_over_batch(got: np.ndarray, squares: dict[str, np.ndarray]) -> list[str]:
    """The leaves whose sum of squares the norms took over the whole batch (the rest per example), when some
    such split of the leaves gives ``got``; [] when none does."""
    names = sorted(squares)
    for size in range(1, len(names)):
        for whole in itertools.combinations(names, size):
            variant = np.sqrt(sum(np.sum(squares[k]) if k in whole else squares[k] for k in names))
            if array_mismatch(got, variant, rtol=1e-3) is None:
                return list(whole)
    return []


def norms(ctx: Context) -> Verdict:
    """The norms of a given per-example gradient tree cover every leaf."""
    kept = _norms_kept(ctx)
    if kept:
        return fail(kept, NORMS_STATE_KEPT)
    try:
        got = np.asarray(ctx.got("norms/tree"), dtype=np.float64)
    except StudentError as exc:
        differ = parameters_words(ctx, "per_example_grad_norms") if crash_kind(exc.error) == "signature" else ""
        if differ:
            return fail(f"per_example_grad_norms(grads) raised {exc.error.summary()}; measured: {differ}", PARAMETERS)
        raise
    want = ctx.want("norms/tree")
    problem = array_mismatch(got, want)
    if not problem:
        found = [words for words in (_tiny_norms(ctx), _one_example_norms(ctx), _many_norms(ctx)) if words]
        sizes = [hint for _, hint in found if hint in (NORMS_BATCH_OF_ONE, NORMS_CAPPED)]
        hint = NORMS_CAPPED if len(sizes) == 2 else found[0][1] if found else None  # two sizes: not one's own case
        return fail("; ".join(w for w, _ in found), hint, fraction=0.5) if found else PASS
    tree = flatten(ctx.inputs["ex2"]["norm_tree"])
    message = f"per_example_grad_norms on a tree of {len(tree)} leaves with B=6: {problem}"
    if _same_for_other_tree(ctx, got):
        return fail(message + "; measured: it returned exactly these values for another gradient tree too (one of "
                    "single entries, of the same shapes): the norms do not come from the gradients it is given",
                    ARGUMENT_UNREAD)
    squares = {k: np.sum(np.asarray(v, np.float64).reshape(6, -1) ** 2, axis=1) for k, v in tree.items()}
    if got.shape != np.shape(want):
        whole = np.sqrt(sum(float(np.sum(np.asarray(v, np.float64) ** 2)) for v in tree.values()))
        if got.size == 1 and abs(float(got.reshape(-1)[0]) - whole) <= 1e-3 * whole:
            return fail(message + f"; measured: its one value, {float(got.reshape(-1)[0]):.6g}, is the norm of all "
                        "six examples' gradients together", ONE_NORM)
        matrix = _matrix_norm(float(got.reshape(-1)[0]), tree) if got.size == 1 else ""
        if matrix:
            return fail(message + f"; measured: {matrix}", MATRIX_NORM)
        layers = len(ctx.inputs["ex2"]["norm_tree"])
        counted = ("the tree's number of layers (its top-level keys)" if got.shape == (layers,) != (len(tree),) else
                   "the tree's number of leaves" if got.shape == (len(tree),) != (layers,) else "")
        if counted:
            return fail(message + f"; measured: its length is {counted}, {got.shape[0]}, not the batch size B=6",
                        HINT_NORM_SHAPE + " B is the leading axis of every leaf (leaf.shape[0]); len() of the tree "
                                          "counts its keys.")
        table = _broadcast_table(got, squares)
        if table:
            return fail(message + f"; measured: {table}", KEEPDIMS)
        return fail(message, HINT_NORM_SHAPE)
    weights = np.sqrt(sum(s for k, s in squares.items() if k.endswith("/w")))
    biases = np.sqrt(sum(s for k, s in squares.items() if k.endswith("/b")))
    means = {k: np.mean(np.asarray(v, np.float64).reshape(6, -1) ** 2, axis=1) for k, v in tree.items()}
    running = np.sqrt(np.cumsum(np.asarray(want, np.float64) ** 2))
    if array_mismatch(got, running, rtol=1e-3) is None:
        return fail(message + "; measured: entry i is the norm of examples 0 to i together, the square root of "
                    "their sums of squares added up: the sum of squares was carried from one example to the next",
                    RUNNING_TOTAL)
    for variant, hint in (
        (np.asarray(want) ** 2, NO_SQRT),
        (np.sqrt(sum(means.values())), MEAN_SQUARES),
        (weights, _missing("the biases")),
        (biases, _missing("the weights")),
        (sum(np.sqrt(s) for s in squares.values()), LEAF_NORMS),
        (sum(np.sqrt(sum(layer.values())) for layer in npref.grouped(squares, npref.layer_of).values()), LAYER_NORMS),
    ):
        if array_mismatch(got, variant, rtol=1e-3) is None:
            return fail(message, hint)
    for name in {k.split("/")[0] for k in tree}:
        partial = np.sqrt(sum(s for k, s in squares.items() if not k.startswith(name + "/")))
        if array_mismatch(got, partial, rtol=1e-3) is None:
            return fail(message, _missing(f"the leaves of {name}"))
    covered = _leaves_covered(got, squares)
    if covered:
        left_out = sorted(set(squares) - set(covered))
        return fail(message + f"; measured: these are the norms of {', '.join(covered)} alone, without "
                    f"{', '.join(left_out)}", _missing(", ".join(left_out)))
    unsquared = _leaf_unsquared(got, squares)
    if unsquared:
        return fail(message + f"; measured: {unsquared}", LEAF_UNSQUARED)
    whole = _summed_over_batch(got, squares)
    if whole:
        return fail(message + f"; measured: the sums of squares of {', '.join(whole)} were taken over every example "
                    "at once (the same for each example), the other leaves' per example",
                    "Each leaf's sum of squares is taken per example: over every axis but the leading (batch) one, "
                    "whatever the leaf's rank: a bias leaf of shape (B, n) too, e.g. "
                    "jnp.sum(leaf.reshape(leaf.shape[0], -1) ** 2, axis=1).")
    power = _norm_power(got, tree)
    if power is not None:
        words = "inf (the largest absolute value)" if power == np.inf else f"{power:.3g}"
        return fail(message + f"; measured: every example's value is (sum of |g|**p) ** (1/p) over its elements with "
                    f"p = {words}, not p = 2", NORM_POWER)
    product = _matrix_product(got, tree)
    if product:
        return fail(message + f"; measured: {product}", MATRIX_PRODUCT)
    if array_mismatch(got, np.max([np.sqrt(v) for v in squares.values()], axis=0), rtol=1e-3) is None:
        return fail(message + "; measured: each example's value is the largest of its per-leaf norms, not the norm "
                    "over all its leaves together", "The norm of example i is taken over every leaf at once: "
                    "sqrt(sum over every leaf of the sum of squares of slice i), not the largest leaf's norm.")
    whole = _whole_squares(got, np.asarray(want, np.float64))
    if whole:
        return fail(message + f"; measured: {whole}", INTEGER_SUMS)
    related = _related_to_right(got, np.asarray(want, np.float64))
    if related:
        return fail(message + f"; measured: {related}", "The norm of example i is sqrt(sum over every leaf of the sum "
                    "of squares of slice i), as it is: nothing applied to it after (the message says what was).")
    halved = _scaled_power(got, np.asarray(want, np.float64))
    if halved:
        return fail(message + f"; measured: {halved[0]}", halved[1])
    off = rounding_error(got, want)
    dtype = np.asarray(ctx.got("norms/tree")).dtype
    if off is not None and (dtype.itemsize < 4 or (np.any(got > want) and np.any(got < want))):
        # rounding errs both ways (or the dtype says it): a one-sided error is something else, left out or added
        kind = f", returned as {dtype}" if dtype.itemsize < 4 else ""
        return fail(message + f"; measured: every norm is within {off:.2%} of the right one{kind}: {SIXTEEN_BIT_WORDS}, "
                    "where float32 keeps 7", LOW_PRECISION)
    order = _reordering(got, np.asarray(want, np.float64))
    if order is not None:
        return fail(message + f"; measured: the right norms in another order ({order}): example i's norm is at "
                    "position i", HINT_NORM_ORDER)
    total, want_total = float(np.sum(got ** 2)), float(np.sum(np.asarray(want, np.float64) ** 2))
    if abs(total - want_total) <= 1e-5 * want_total:  # a share-out keeps the total up to float32 rounding
        laid_out = _leaf_major(got, squares)
        return fail(message + f"; measured: the squared norms add up to the right total over the batch "
                    f"({want_total:.6g}), shared out among the examples differently: each example's norm took "
                    "values of other examples" + (f"; {laid_out}" if laid_out else ""), NORMS_ACROSS_EXAMPLES)
    rooted = _rooted_per_leaf(got, squares)
    if rooted:
        return fail(message + f"; measured: {rooted}", ROOT_PER_LEAF)
    weighted = _leaf_weights(got, squares)
    if weighted:
        return fail(message + f"; measured: {weighted}", LEAF_WEIGHTS)
    unit, mistake = _unit_words(ctx)
    if unit:
        return fail(message + f"; measured: {unit}", mistake or (
            "The norm of example i is sqrt(sum over every leaf of the sum of squares of slice i): square every "
            "element, then sum (the message says what this one returned on gradients of one or two entries)."))
    return fail(message, "The norm of example i is sqrt(sum over every leaf of the sum of squares of slice i).")


def _leaf_major(got: np.ndarray, squares: dict) -> str:
    """Words for norms that are the roots of the rows of the leaves' per-example sums of squares laid out leaf by
    leaf (one leaf's B examples, then the next leaf's) and reshaped to (B, L), in the order jax.tree.leaves or the
    params' own order gives the leaves; "" otherwise."""
    b = len(got)
    for order, keys in (("jax.tree.leaves' order", sorted(squares)), ("params' order", list(squares))):
        flat = np.concatenate([squares[k] for k in keys])
        if array_mismatch(got, np.sqrt(flat.reshape(b, -1).sum(axis=1)), rtol=1e-4) is None:
            return (f"each value is the root of {len(keys)} consecutive entries of the leaves' per-example sums of "
                    f"squares laid out leaf by leaf ({order}): a ({len(keys) * b},) vector, leaf after leaf, "
                    f"reshaped to ({b}, {len(keys)}), where its layout is ({len(keys)}, {b})")
    return ""


LEAF_UNSQUARED = Mistake(
    "ex2.leaf_norm_unsquared", "one leaf's norm added where its square belongs",
    "Every leaf enters by its squared norm: sqrt(sum over leaves of ||g_leaf||**2). One leaf's norm went in "
    "unsquared: the first value of a reduction that squares as it accumulates and is given no initial value "
    "(jax.tree.reduce(lambda acc, n: acc + n**2, norms) or functools.reduce starts from the first norm as it "
    "is). Square each norm before summing (sum(n**2 for n in norms)), or give the reduction an initial 0.")


def _leaf_unsquared(got: np.ndarray, squares: dict) -> str:
    """Words for norms in which exactly one leaf's per-example norm was added in place of its squared norm
    (sqrt(||g_k|| + the other leaves' squared norms)), measured for each leaf; "" when no leaf's fits."""
    if got.ndim != 1 or len(squares) < 2:
        return ""
    total = sum(squares.values())
    for key, square in squares.items():
        if not np.any(np.abs(square - np.sqrt(square)) > 1e-3 * np.maximum(square, 1e-12)):
            continue  # a norm of 0 or 1 is its own square: this leaf cannot tell
        if array_mismatch(got, np.sqrt(total - square + np.sqrt(square)), rtol=1e-4) is None:
            return (f"each example's value is sqrt(||g|| of leaf '{key}' + the other leaves' squared norms): that "
                    "leaf's norm was added unsquared, every other leaf's squared")
    return ""


MATRIX_PRODUCT = Mistake(
    "ex2.norms_matrix_product", "a matrix leaf's sum of squares taken as the sum of a matrix product (jnp.inner, @)",
    "Square every element, then sum: jnp.sum(g ** 2), or jnp.vdot(g, g), which flattens. jnp.inner(g, g) and g @ g.T "
    "contract one axis only, so on a weight matrix their sum adds products of different rows or columns (the square "
    "of its column or row sums), not each element's square.")


def _matrix_product(got: np.ndarray, tree: dict) -> str:
    """Words for norms whose matrix leaves' sums of squares were taken as the sum of a product of the leaf with
    itself (sum(g @ g.T) = jnp.inner(g, g) summed: the squares of the column sums; sum(g.T @ g): of the row sums),
    the vectors' right; "" when neither fits ``got``, or the tree has no matrix leaf."""
    b = len(got)
    if got.ndim != 1 or not any(np.ndim(v) >= 3 for v in tree.values()):
        return ""
    for axis, words in ((1, "sum(g @ g.T), as jnp.inner(g, g) gives: the squared norm of the column sums"),
                        (-1, "sum(g.T @ g): the squared norm of the row sums")):
        total = np.zeros(b)
        for v in tree.values():
            a = np.asarray(v, np.float64)
            part = a.sum(axis=axis) if a.ndim >= 3 else a
            total += np.sum(part.reshape(b, -1) ** 2, axis=1)
        if array_mismatch(got, np.sqrt(total), rtol=1e-3) is None:
            return (f"each weight matrix g counts as {words}, not the sum of its squared elements; the bias vectors "
                    "count right")
    return ""


KEEPDIMS = Mistake(
    "ex2.norms_broadcast_table", "per-leaf sums of shapes (B, 1) and (B,) added into a B x B table",
    "Reduce every leaf to shape (B,) before adding the leaves' sums: a sum with keepdims=True (or over the wrong "
    "axes) leaves a (B, 1) column, which broadcasts against the (B,) sums into a B x B table. Sum over every axis but "
    "the first, jnp.sum(leaf ** 2, axis=tuple(range(1, leaf.ndim))), or vmap a norm over the examples.")
INTEGER_SUMS = Mistake(
    "ex2.norms_integer_sums", "sums of squares cut to whole numbers (an integer accumulator)",
    "Keep the sums of squares in float32: an accumulator made with an integer dtype (jnp.zeros(B, dtype=int), "
    "jnp.zeros_like(y)) casts every float added to it (.at[].add and += keep its dtype), or a cast to int cuts them. "
    "Start from jnp.zeros(B) (float32), or add the (B,) sums themselves.")


MATRIX_NORM = Mistake(
    "ex2.norms_matrix_norm", "one norm of the whole (B, n) matrix instead of a norm per row",
    "jnp.linalg.norm(flat, 1) reads the 1 as ord, the kind of norm, and with no axis takes one norm of the whole "
    "matrix: give the axis by keyword, jnp.linalg.norm(flat, axis=1), for one L2 norm per example (row).")


def _matrix_norm(value: float, tree: dict) -> str:
    """Words for one number that is a matrix norm (ord 1, inf, 2, nuclear) of the (B, n) array of every example's
    flattened gradient; "" when none is."""
    b = len(next(iter(tree.values())))
    flat = np.concatenate([np.asarray(v, np.float64).reshape(b, -1) for v in tree.values()], axis=1)
    for ord_, words in ((1, "ord=1, the largest column sum of absolute values"),
                        (np.inf, "ord=inf, the largest row sum of absolute values"),
                        (2, "ord=2, the largest singular value"), ("nuc", "ord='nuc', the sum of singular values")):
        norm = float(np.linalg.norm(flat, ord_))
        if abs(value - norm) <= 1e-3 * norm:
            return (f"that number is a norm of the whole ({b}, {flat.shape[1]}) matrix of the examples' flattened "
                    f"gradients, {words}: jnp.linalg.norm(flat, {ord_!r}) with no axis")
    return ""


def _broadcast_table(got: np.ndarray, squares: dict[str, np.ndarray]) -> str:
    """Words for a (B, B) result whose entry [i, j] is some leaves' squared norms of example i plus the others' of
    example j (under a square root or not); "" when no split of the leaves gives it."""
    b = len(next(iter(squares.values())))
    if got.shape != (b, b):
        return ""
    names = sorted(squares)
    for size in range(1, len(names)):
        for rows in itertools.combinations(names, size):
            table = (sum(squares[k] for k in rows)[:, None] + sum(squares[k] for k in names if k not in rows)[None, :])
            for root, words in ((np.sqrt, "the square root of "), (lambda t: t, "")):
                if array_mismatch(got, root(table), rtol=1e-3) is None:
                    rest = [k for k in names if k not in rows]
                    return (f"a ({b}, {b}) table whose entry [i, j] is {words}the sum of squares of {', '.join(rows)} "
                            f"for example i plus that of {', '.join(rest)} for example j: sums of shape (B, 1) "
                            "(keepdims=True) added to sums of shape (B,) broadcast into a B x B table")
    return ""


def _whole_squares(got: np.ndarray, want: np.ndarray) -> str:
    """Words for norms whose squares are all whole numbers where the right ones' are not; "" otherwise."""
    if got.shape != want.shape or got.ndim != 1 or not np.all(np.isfinite(got)):
        return ""
    squares, right = got ** 2, want ** 2
    if not np.allclose(squares, np.round(squares), atol=1e-3 * np.maximum(1.0, squares) / 100):
        return ""
    if np.allclose(right, np.round(right), atol=1e-3):
        return ""
    shown = ", ".join(f"{v:.6g}" for v in squares[:6])
    return (f"every squared norm is a whole number ({shown}), where the right ones are "
            f"{', '.join(f'{v:.6g}' for v in right[:6])}: the sums of squares were cut to whole numbers")


UNSQUARED = Mistake(
    "ex2.norms_unsquared", "norms of the entries summed without squaring them",
    "Square every element before summing: the norm of example i is sqrt(sum over every leaf of the sum of g**2 "
    "over slice i); a sum of the entries themselves lets signs cancel (and goes negative under the root).")
SUMMED_FIRST = Mistake(
    "ex2.norms_summed_then_squared", "each leaf summed before squaring",
    "Square each element, then sum: sum(g**2) over slice i of every leaf, not sum(g)**2, in which entries of "
    "opposite sign cancel.")


def _unit_words(ctx: Context) -> tuple[str, Mistake | str | None]:
    """What per_example_grad_norms returned on gradients of one or two entries (``UNIT_EXAMPLES``, and a single 1
    at each of ``LEAF_UNIT_PLACES``), in words, and the mistake that shows when one reading fits them; ("", None)
    when not observed or right there."""
    try:
        got = np.asarray(ctx.got("norms/unit"), np.float64).reshape(-1) if ctx.student.has("norms/unit") else None
    except (StudentError, TypeError, ValueError):
        return "", None
    want = np.asarray(UNIT_NORMS)
    lost = _entries_lost(ctx)
    if got is None or got.shape != want.shape or np.allclose(got, want, rtol=1e-4, atol=1e-6):
        return (lost, ENTRIES_LOST) if lost else ("", None)
    said = "; ".join(f"{g:.4g} for {what} (L2: {w:.4g})" for what, g, w in zip(UNIT_EXAMPLES, got, want))
    if lost:
        return f"{said}; {lost}", ENTRIES_LOST

    def near(value: float, target: float) -> bool:
        return bool(abs(value - target) < 1e-4)

    one, minus, cancel, double = got[0], got[1], got[2], got[4]
    if not near(one, 1):
        summed, named = _summed_per_element(got, _elements_per_example(ctx))
        return (f"{said}: {summed}" if summed else said), (HINT_PER_ELEMENT if named else None)
    if not near(minus, 1):
        return f"{said}: a -1 counts otherwise than a 1, so the entries are not squared before they are summed", \
            UNSQUARED
    if near(double, 2 ** 0.5) and (near(cancel, 0) or near(cancel, 2 ** 0.5)):
        # sqrt(sum(g)) cancels a 1 and a -1; sqrt(sum(|g|)) adds them as 2: either way no entry is squared
        cancelled = ", and a 1 and a -1 cancel" if near(cancel, 0) else ""
        return (f"{said}: doubling an entry multiplies the norm by 1.414, not 2{cancelled}: the square root of a sum "
                "of the entries, not of their squares"), UNSQUARED
    if near(cancel, 0) and near(double, 2):
        return f"{said}: a 1 and a -1 in one leaf cancel, so each leaf's entries are summed before they are squared", \
            SUMMED_FIRST
    return said, None


ENTRIES_LOST = Mistake(
    "ex2.norm_entries_lost", "entries of the gradient that never reach the norm",
    "Some entries of the gradient count for nothing in the norm (the message says which): every entry of every "
    "leaf must be squared and summed. A leaf left out, a slice that stops short, or leaves packed into one flat "
    "buffer at offsets that overlap (an offset set to a leaf's size, off = n, where it must advance, off += n) do "
    "this; jax.vmap(optax.tree.norm)(grads) covers every entry.")


def _entries_lost(ctx: Context) -> str:
    """Words for gradients of a single 1 (norm 1) at the places ``LEAF_UNIT_PLACES`` says, when some give 0 (that
    entry never reached the norm) and others 1; "" otherwise, or where not observed."""
    try:
        got = np.asarray(ctx.got("norms/leaf_units"), np.float64).reshape(-1) \
            if ctx.student.has("norms/leaf_units") else None
    except (StudentError, TypeError, ValueError):
        return ""
    if got is None or got.shape != (len(LEAF_UNIT_PLACES),):
        return ""
    lost = [k for k, g in enumerate(got) if abs(g) < 1e-6]
    if not lost or not any(abs(g - 1) < 1e-4 for g in got):
        return ""

    def place(k: int) -> str:
        layer, leaf, index = LEAF_UNIT_PLACES[k]
        return f"the {'first' if index == 0 else 'last'} entry of {layer}/{leaf}"

    counted = [k for k in range(len(got)) if k not in lost]
    return (f"measured: a gradient that is a single 1 gives 0 at {', '.join(place(k) for k in lost)}, and its norm, "
            f"1, at {', '.join(place(k) for k in counted)}: those entries never reach the norm")


NORMS_STATE_KEPT = Mistake(
    "ex2.norms_state_kept", "norms that keep something from one call to the next",
    "per_example_grad_norms must give the same norms whenever it is given the same gradients: nothing may outlive "
    "a call. A list or total made once (a class attribute, a global, a default argument such as parts=[]) and "
    "added to on every call carries the earlier calls' squares into the later ones; make it inside the call, or "
    "return jax.vmap(optax.tree.norm)(grads).")


ARGUMENT_UNREAD = Mistake(
    "ex2.norms_argument_unread", "norms that do not read the gradients they are given",
    "per_example_grad_norms must compute the norms of its own argument, grads, on every call: it gave the same "
    "values for two different trees. Check that the name its body reads is the parameter, not a module-level value "
    "of the same name (left from a notebook cell) or one computed once at import.")


def _same_for_other_tree(ctx: Context, got: np.ndarray) -> bool:
    """per_example_grad_norms gave exactly ``got`` for the unit tree too, whose right norms are other ones."""
    if not ctx.student.has("norms/unit"):
        return False
    try:
        unit = np.asarray(ctx.got("norms/unit"), np.float64)
    except (StudentError, TypeError, ValueError):
        return False
    return unit.shape == got.shape and bool(np.array_equal(unit, got)) and \
        array_mismatch(np.asarray(UNIT_NORMS), np.asarray(ctx.want("norms/tree"), np.float64)) is not None


def _norms_mistake(ctx: Context) -> str:
    """The mistake ex2.norms named ("" when none, or when it ended in an error)."""
    try:
        return ctx.verdict("ex2.norms").mistake
    except StudentError:
        return ""


def _norms_kept(ctx: Context) -> str:
    """Words for norms that are right on the very first call and differ (or raise) on the second, with the same
    gradient tree; "" otherwise (or when not observed)."""
    if not ctx.student.observed("norms/first"):
        return ""
    try:
        first = np.asarray(ctx.got("norms/first"), np.float64)
    except (StudentError, TypeError, ValueError):
        return ""
    if array_mismatch(first, ctx.want("norms/tree")) is not None:
        return ""
    try:
        second = np.asarray(ctx.got("norms/second"), np.float64)
    except StudentError as exc:
        return (f"per_example_grad_norms gave the right norms the first time it was called, and called again with "
                f"the same gradients raised {exc.error.summary()}: the second call met something the first left "
                "behind")
    except (TypeError, ValueError):
        return ""
    differs = array_mismatch(second, first)
    if differs is None:
        return ""
    return (f"per_example_grad_norms gave the right norms the first time it was called, and other norms when "
            f"called again with the same gradients: {differs}: the second call met something the first left behind")


def _elements_per_example(ctx: Context) -> int:
    """How many numbers one example's slice of the unit tree holds (every leaf's, without the batch axis)."""
    return int(sum(np.prod(np.shape(v)[1:]) for v in flatten(ctx.inputs["ex2"]["norm_tree"]).values()))


#: Functions of one gradient entry a norm might sum by mistake, for :func:`_summed_per_element` to name.
_PER_ELEMENT = (("g**2", np.square), ("2**g (the base and the exponent the other way round)", np.exp2),
                ("exp(g)", np.exp), ("|g|", np.abs), ("g", lambda g: g), ("g**2 / 2", lambda g: g * g / 2),
                ("2 * g**2", lambda g: 2 * g * g))


HINT_PER_ELEMENT = ("The norm sums another function of each entry than its square (the message says which): square "
                    "each entry, g ** 2 or jnp.square(g) (in jnp.power(a, b), a is the base), sum over every leaf, "
                    "then take the square root.")


def _summed_per_element(got: np.ndarray, n: int) -> tuple[str, bool]:
    """What the norm sums for each entry, read off the unit examples when it is sqrt(sum of f(g) over an example's
    ``n`` entries): f(0) from the all-zeros example, f(1), f(-1) and f(2) from the single entries, checked against
    the two examples of two entries. Words naming f when one of :data:`_PER_ELEMENT` fits; "" when the model does
    not hold; and whether f was named."""
    if n < 3 or got.shape != (len(UNIT_EXAMPLES),) or np.any(got < 0):
        return "", False
    squares = got ** 2
    f0 = squares[5] / n
    f = {1.0: squares[0] - (n - 1) * f0, -1.0: squares[1] - (n - 1) * f0, 2.0: squares[4] - (n - 1) * f0, 0.0: f0}
    scale = max(1.0, float(np.max(squares)))
    predicted = (n - 2) * f0 + f[1.0] + f[-1.0], (n - 2) * f0 + 2 * f[1.0]
    if any(abs(p - squares[i]) > 1e-4 * scale for p, i in zip(predicted, (2, 3))):
        return "", False
    values = ", ".join(f"f({a:g}) = {f[a]:.3g}" for a in (0.0, 1.0, -1.0, 2.0))
    for name, fn in _PER_ELEMENT[1:]:
        if all(abs(f[a] - float(fn(np.float64(a)))) <= 2e-3 * max(1.0, abs(float(fn(np.float64(a))))) for a in f):
            return (f"each value is sqrt of the sum over the example's {n} entries of f(g) with {values}: f is "
                    f"{name}, not g**2 (which is 0 at 0)"), True
    return (f"each value is sqrt of the sum over the example's {n} entries of f(g) with {values}, where g**2 gives "
            "0, 1, 1, 4"), False


LOW_PRECISION = Mistake(
    "ex2.norms_low_precision", "norms computed in a 16-bit float",
    "Compute the norms in the gradients' own dtype (float32): no cast to float16 or bfloat16 for the squares, "
    "their sums or the square root.")


def _of_batch(factor: float, b: int) -> str:
    """Words for a factor that is the batch size B, its square root or their inverses (a count or a mean taken
    over the batch axis too); "" otherwise."""
    for value, words in ((b, f"B={b}, the batch size"), (1 / b, f"1 / B, B={b} the batch size"),
                         (b ** 0.5, f"the square root of B={b}, the batch size"),
                         (b ** -0.5, f"1 / sqrt(B), B={b} the batch size")):
        if b > 1 and abs(factor / value - 1) <= 1e-3:
            return f" ({words}: the batch axis counted in with each example's entries)"
    return ""


def _related_to_right(got: np.ndarray, want: np.ndarray) -> str:
    """How ``got`` follows from the right norms, when one number relates them all: a factor (k * norm) or a power
    (norm ** p); "" when none does."""
    if got.shape != want.shape or got.ndim != 1 or not np.all(want > 0) or not np.all(got > 0):
        return ""
    factor = common_factor(got, want, rtol=1e-4)
    if factor is not None and abs(factor - 1) > 1e-3:
        largest = " (one over the largest norm: each divided by the largest)" if abs(
            factor * np.max(want) - 1) <= 1e-3 else _of_batch(factor, got.shape[0])
        return f"every value is the right norm times {factor:.4g}{largest}"
    logs = np.log(want)
    if np.all(np.abs(logs) > 1e-3):
        power = float(np.median(np.log(got) / logs))
        if abs(power - 1) > 1e-3 and array_mismatch(got, want ** power, rtol=1e-3) is None:
            root = " (a square root too many)" if abs(power - 0.5) < 1e-3 else ""
            return f"every value is the right norm to the power {power:.3g}{root}"
    return ""


def _scaled_power(got: np.ndarray, want: np.ndarray) -> tuple[str, Mistake | str] | None:
    """Words and hint for values that are a * norm ** p for one a and one p fitted on every example (neither a
    factor alone nor a power alone: those are :func:`_related_to_right`'s); None when no such pair fits."""
    if got.shape != want.shape or got.ndim != 1 or got.size < 3 or not np.all(want > 0) or not np.all(got > 0):
        return None
    logs = np.log(want)
    if np.ptp(logs) < 1e-2:
        return None
    power, offset = np.polyfit(logs, np.log(got), 1)
    factor = float(np.exp(offset))
    if array_mismatch(got, factor * want ** power, rtol=1e-4) is not None:
        return None
    words = f"every value is {factor:.4g} times the right norm to the power {power:.3g}"
    if abs(power - 2) < 1e-3 and abs(factor - 0.5) < 1e-3:
        return (f"{words}: half the sum of squares, with no square root (s ** 1/2 is (s ** 1) / 2 in Python)",
                HALF_FOR_ROOT)
    return words, "The norm of example i is sqrt(sum over every leaf of the sum of squares of slice i), as it is."


HALF_FOR_ROOT = Mistake(
    "ex2.power_precedence", "the sum of squares halved where its square root belongs",
    "s ** 1/2 is (s ** 1) / 2 in Python: ** binds tighter than /, so it halves the sum of squares. Write "
    "s ** 0.5, or jnp.sqrt(s).")


def _rooted_per_leaf(got: np.ndarray, squares: dict[str, np.ndarray]) -> str:
    """Words for values that are a square root taken after each leaf's sum of squares (``squares``, by path) is
    added (r = sqrt(r + s) leaf after leaf, in the tree's order), not once at the end; "" otherwise."""
    if got.ndim != 1:
        return ""
    sums = [squares[name] for name in sorted(squares)]  # jax.tree.leaves' order: each dict's keys sorted
    for first, shown in ((np.sqrt(sums[0]), "sqrt(s1)"), (sums[0], "s1")):  # the first leaf rooted, or taken as it is
        running = first
        for leaf in sums[1:]:
            running = np.sqrt(running + leaf)
        if got.shape == running.shape and array_mismatch(got, running, rtol=1e-4) is None:
            return (f"each value is sqrt(... sqrt({shown} + s2) ... + sN) over the leaves' sums of squares s1..sN in "
                    "turn: the square root was taken after each leaf was added, not once over the total")
    return ""


ROOT_PER_LEAF = Mistake(
    "ex2.root_per_leaf", "a square root taken after each leaf",
    "Add up the sums of squares of every leaf first, then take one square root of the total: a running value "
    "rooted at each step (an accumulate or reduce whose step is sqrt(total + s)) roots the earlier leaves again "
    "and again.")


def _leaf_weights(got: np.ndarray, squares: dict[str, np.ndarray]) -> str:
    """Words for squared values that are, on every example, a weighted sum of the leaves' sums of squares with
    whole weights not all 1 (a leaf counted twice, or left out), fitted on the examples; "" otherwise."""
    names = sorted(squares)
    matrix = np.stack([squares[k] for k in names], axis=1)
    if got.ndim != 1 or got.shape[0] != matrix.shape[0] or matrix.shape[0] <= matrix.shape[1]:
        return ""
    weights, *_ = np.linalg.lstsq(matrix, got ** 2, rcond=None)
    whole = np.round(weights)
    if np.allclose(whole, 1) or np.any(whole < 0) or np.max(np.abs(weights - whole)) > 1e-3:
        return ""
    if array_mismatch(got, np.sqrt(matrix @ whole), rtol=1e-4) is not None:
        return ""
    counted = [f"{name}'s {int(w)} times" if w != 0 else f"{name}'s not at all"
               for name, w in zip(names, whole) if w != 1]
    return (f"each value is the square root of the leaves' sums of squares with {', '.join(counted)} and every other "
            "leaf's once")


LEAF_WEIGHTS = Mistake(
    "ex2.leaf_counted_wrongly", "a leaf counted more than once, or not at all, in the norm",
    "Every leaf's sum of squares is added exactly once (the message says which was not): a reduce or sum started "
    "at the first leaf and then run over all of them counts it twice; start at 0, or use "
    "jax.vmap(optax.tree.norm)(grads).")


def _reordering(got: np.ndarray, want: np.ndarray) -> str | None:
    """How ``got`` orders ``want``'s values, when it holds exactly them in another order ("sorted largest first",
    or the permutation); None otherwise."""
    if got.shape != want.shape or got.ndim != 1 or array_mismatch(np.sort(got), np.sort(want), rtol=1e-3) is not None:
        return None
    if array_mismatch(got, np.sort(want)[::-1], rtol=1e-3) is None:
        return "sorted largest first"
    if array_mismatch(got, np.sort(want), rtol=1e-3) is None:
        return "sorted smallest first"
    held = [int(np.argmin(np.abs(want - g))) for g in got]
    if held == list(range(len(got))):  # each in its own place: not an order, the values differ
        return None
    return "position i holds the norm of example " + ", ".join(str(i) for i in held)


def _norm_power(got: np.ndarray, tree: dict) -> float | None:
    """The one p (not 2) for which every example's value is its p-norm over all its elements, measured; None if none.

    A p-norm falls as p grows, from the sum of absolute values (p = 1) to the largest one (p = inf), so each
    example's p is found by bisection; the p of every example must agree.
    """
    flat = np.concatenate([np.abs(np.asarray(v, np.float64)).reshape(len(got), -1) for v in tree.values()], axis=1)
    if got.ndim != 1 or len(got) != len(flat) or not np.all(np.isfinite(got)):
        return None
    if np.allclose(got, flat.max(axis=1), rtol=1e-4):
        return np.inf

    def p_norm(row: np.ndarray, p: float) -> float:
        top = row.max()
        return float(top * np.sum((row / top) ** p) ** (1 / p))

    powers = []
    for row, value in zip(flat, got):
        low, high = 0.25, 64.0
        if not (p_norm(row, high) <= value <= p_norm(row, low)):
            return None
        for _ in range(60):
            mid = np.sqrt(low * high)
            low, high = (mid, high) if p_norm(row, mid) > value else (low, mid)
        powers.append(np.sqrt(low * high))
    p = float(np.median(powers))
    if max(powers) - min(powers) > 1e-3 * p or abs(p - 2) < 1e-2:
        return None
    return round(p, 3)


RUNNING_TOTAL = Mistake(
    "ex2.norms_running_total", "a sum of squares carried from one example to the next",
    "Each example's norm starts from zero: sum that example's squares over every leaf, then take the square root. "
    "An accumulator set once before the loop over the examples keeps the earlier ones' squares; set it inside the "
    "loop, or compute all the norms at once with jax.vmap(optax.tree.norm)(grads).")


def _tiny_norms(ctx: Context) -> tuple[str, Mistake | str] | None:
    """Words and hint for norms right on the norm tree but not on that tree scaled by TINY_SCALE with one example's
    gradient all zero (``norms/tiny``): a constant added inside or outside the root shows there; None where they
    are right, or this was not observed."""
    if not ctx.student.observed("norms/tiny"):
        return None
    said = (f"per_example_grad_norms is right on the tree, but on the same tree times {TINY_SCALE:g} with example "
            f"{ZERO_EXAMPLE}'s gradient all zero")
    try:
        got = np.asarray(ctx.got("norms/tiny"), np.float64).reshape(-1)
    except StudentError as exc:
        return f"{said} it raised {exc.error.summary()}", "The norm of a gradient of zeros is 0: nothing may fail there."
    except (TypeError, ValueError):
        return None
    want = np.asarray(ctx.want("norms/tiny"), np.float64).reshape(-1)
    if got.shape != want.shape or np.all(np.abs(got - want) <= 1e-4 * np.abs(want) + 1e-30):
        return None
    shown = (f"{said} it returned {np.array2string(got, precision=3)}, where the norms are "
             f"{np.array2string(want, precision=3)}")
    inside = got ** 2 - want ** 2
    outside = got - want
    usual = np.asarray(ctx.want("norms/tree"), np.float64).reshape(-1)  # right there, as the student's were
    # one value for all, to float32's precision, the zero gradient's too: a floor (a constant inside the root
    # leaves these norms' differences in its result)
    floor = float(np.max(got))
    if floor > 0 and np.allclose(got, floor, rtol=1e-6, atol=0) and np.all(want < floor) and np.all(usual >= floor):
        return (f"{shown}: every one of these norms, all below {floor:.4g}, came out as {floor:.4g}, while the usual "
                f"tree's norms, all at least {floor:.4g}, are right: the norm is floored, max(norm, {floor:.4g})"), \
            NORM_FLOORED
    for spread, name, constant, law in (
            (inside, "inside the square root: sqrt(sum of squares + c)", np.median(inside),
             lambda n, c: np.sqrt(n * n + c)),
            (outside, "to the root: sqrt(sum of squares) + c", np.median(outside), lambda n, c: n + c)):
        if (constant > 0 and np.allclose(spread, constant, rtol=1e-2, atol=0)
                and array_mismatch(law(usual, constant), usual) is None):  # the usual norms agree with it too
            return (f"{shown}: every norm is the right one with a constant c = {constant:.3g} added {name} "
                    f"(example {ZERO_EXAMPLE}'s norm, 0, came out {got[ZERO_EXAMPLE]:.3g})", NORM_EPSILON)
    return shown, "The norm of each example is exactly sqrt(sum of its squares), small and zero gradients too."


NORM_FLOORED = Mistake(
    "ex2.norm_floored", "a norm raised to a minimum",
    "per_example_grad_norms returns each example's exact norm, small and zero ones included: a minimum on it "
    "(max(norm, c), jnp.clip with a lower bound, or optax.safe_norm, whose second argument is such a minimum, "
    "min_norm, not the order of the norm) changes every norm below it. Take sqrt(sum of squares) as it is.")


def _many_norms(ctx: Context) -> tuple[str, Mistake | str] | None:
    """Words and hint for norms right on the norm tree but not on one of MANY_EXAMPLES examples (``norms/many``):
    a buffer, table or loop bound sized for fewer examples shows there; None where they are right, or this was not
    observed."""
    if not ctx.student.observed("norms/many"):
        return None
    said = f"per_example_grad_norms is right on the tree, but on a tree of {MANY_EXAMPLES} examples"
    try:
        got = np.asarray(ctx.got("norms/many"), np.float64)
    except StudentError as exc:
        return f"{said} it raised {exc.error.summary()}", NORMS_CAPPED
    except (TypeError, ValueError):
        return f"{said} it returned something that is not an array of numbers", NORMS_CAPPED
    want = np.asarray(ctx.want("norms/many"), np.float64)
    problem = array_mismatch(got, want)
    if problem is None:
        return None
    if got.ndim == 1 and 0 < got.size < MANY_EXAMPLES and array_mismatch(got, want[:got.size]) is None:
        return (f"{said} it returned {got.size} norms, those of the first {got.size} examples: the rest were cut, "
                f"as a buffer, table or loop bound sized for {got.size} examples does"), NORMS_CAPPED
    if got.shape == want.shape:
        right = int(np.argmax(~np.isclose(got, want, rtol=1e-4, atol=0))) if problem else got.size
        if right > 0 and array_mismatch(got[:right], want[:right]) is None:
            return (f"{said}: {problem}; measured: the first {right} norms are right and the later ones are not, as a "
                    f"buffer, table or loop bound sized for {right} examples gives"), NORMS_CAPPED
    return f"{said}: {problem}", NORMS_CAPPED


NORMS_CAPPED = Mistake(
    "ex2.norms_batch_size_capped", "norms right for some batch sizes only",
    "per_example_grad_norms returns one norm per example for any batch size B, which is each leaf's leading axis, "
    "read at call time: nothing sized in advance (a buffer, a table of indices, a loop bound, a reshape to a fixed "
    "number of rows) may stand for it.")


def _one_example_norms(ctx: Context) -> tuple[str, Mistake | str] | None:
    """Words and hint for norms right on the norm tree but not on a tree of one example (``norms/single``, B=1):
    a squeeze or a special case for one example shows there; None where they are right, or this was not observed."""
    if not ctx.student.observed("norms/single"):
        return None
    said = "per_example_grad_norms is right on the tree, but on a tree of one example (every leaf's B=1)"
    try:
        got = np.asarray(ctx.got("norms/single"), np.float64)
    except StudentError as exc:
        return f"{said} it raised {exc.error.summary()}", NORMS_BATCH_OF_ONE
    except (TypeError, ValueError):
        return f"{said} it returned something that is not an array of numbers", NORMS_BATCH_OF_ONE
    want = np.asarray(ctx.want("norms/single"), np.float64)
    problem = array_mismatch(got, want)
    if problem is None:
        return None
    return f"{said}: {problem}", NORMS_BATCH_OF_ONE


NORMS_BATCH_OF_ONE = Mistake(
    "ex2.norms_batch_of_one", "a batch of one example mishandled in the norms",
    "per_example_grad_norms returns shape (B,) for every B, (1,) for a batch of one example: keep the leading axis "
    "(no squeeze, no special case for one example) and sum each leaf's squares over every axis but the first.")


NORM_EPSILON = Mistake(
    "ex2.norm_epsilon", "a constant added to the norm (an epsilon)",
    "per_example_grad_norms returns each example's exact norm, sqrt(sum of squares): an epsilon added inside the "
    "root (for a safe gradient of the norm at 0) or after it is all the norm there is for small gradients, and a "
    "gradient of zeros gets a norm that is not 0. Leave it out: the norm's value at 0 is 0 (a guard belongs where "
    "something is divided by the norm).")


def norms_error_hint(error) -> Mistake | str:
    """When per_example_grad_norms raised: a KeyError for a layer's name is a norm written for fixed keys."""
    if error.type == "KeyError" and "'layer" in error.summary():
        return NORMS_FIXED_KEYS
    return ""


def _tied_with_largest(norms, index) -> bool:
    """``index`` points at the largest of ``norms``, or at one tied with it up to float32 rounding."""
    norms = np.asarray(norms, np.float64).reshape(-1)
    return isinstance(index, int) and 0 <= index < norms.size and bool(norms[index] >= np.max(norms) * (1 - 1e-4))


def _kept_for_same_params(ctx: Context) -> str:
    """Words for a batch asked about with an earlier batch's params object whose answer is that earlier batch's,
    where the right answers differ; "" otherwise."""
    for case, source in SAME_PARAMS.items():
        try:
            got, earlier = ctx.got(f"largest/{case}")["value"], ctx.got(f"largest/{source}")["value"]
            want, want_earlier = ctx.want(f"largest/{case}")["value"], ctx.want(f"largest/{source}")["value"]
        except (StudentError, Missing, KeyError, TypeError):
            continue
        if not isinstance(got, int) or isinstance(got, bool):  # no index read off the answer: nothing to compare
            continue
        if got == earlier != want and want != want_earlier:
            return (f"measured: batch '{case}' is batch '{source}' with its examples in reverse order, given the same "
                    f"params object: it returned {got}, batch '{source}''s answer, where the largest norm is now at "
                    f"{want}: an answer kept from the earlier call, found again by something the two calls share "
                    "(the params, the batch's shape, its sums)")
    return ""


def largest(ctx: Context) -> Verdict:
    """The index is a Python int pointing at the largest norm, on the batches of ``LARGEST_CASES`` (it says what
    each one tells apart).

    Judged against the reference's argmax only: the argmax of the
    submission's own norms earns nothing when its gradients are wrong (zeros
    give index 0), but it is not charged twice either: when every wrong index
    is the argmax of the submission's own wrong gradients (observed, or on the
    ``small2`` batch their norms, measured in the child), the check is not judged.
    The type earns its part only with the right index, so a constant int
    earns nothing.
    """
    problems, hint, credit, own_argmax, compared = [], "", 0.0, True, 0
    argmins = []
    cases = LARGEST_CASES
    if _norms_mistake(ctx) == NORMS_STATE_KEPT.id:  # its later calls meet the state the norms left
        kept = skip("not judged: per_example_grad_norms keeps something from one call to the next (charged in "
                    "ex2.norms), and each call here comes after others")
        try:
            if any(ctx.got(f"largest/{case}")["value"] != ctx.want(f"largest/{case}")["value"] for case in cases):
                return kept
        except StudentError:
            return kept
    for case in cases:
        got, want = ctx.got(f"largest/{case}"), ctx.want(f"largest/{case}")
        ok_type = got["type"] == "builtins.int"
        ok_value = got["value"] == want["value"]
        credit += (0.5 * ok_type + 0.5) * ok_value / len(cases)
        if not ok_value:
            if ctx.student.observed(f"grads/{case}"):
                try:  # the largest of its own norms, or tied with it up to rounding (clipped norms tie)
                    grads = ctx.got(f"grads/{case}")
                    norms = npref.per_example_norms(grads if isinstance(grads, dict) else {"": grads})
                    own = _tied_with_largest(norms, got["value"])
                except (StudentError, ValueError, TypeError, AttributeError, KeyError):
                    own = False
                own_argmax = own_argmax and own
                compared += 1
            elif ctx.student.observed(f"own_norms/{case}"):
                try:  # the largest of its own norms, or tied with it up to rounding
                    own = _tied_with_largest(ctx.got(f"own_norms/{case}"), got["value"])
                except (StudentError, ValueError, TypeError):
                    own = False
                own_argmax = own_argmax and own
                compared += 1
            problems.append(f"batch '{case}': returned {got['value']}, the largest norm is at {want['value']}"
                            f"{_outside(ctx, case, got['value'])}")
            if ctx.reference.has(f"grads/{case}"):  # the smallest norm, where the reference's gradients were kept
                ref_norms = npref.per_example_norms(ctx.want(f"grads/{case}"))
                argmins.append(got["value"] == int(np.argmin(ref_norms)))
        if not ok_type:
            held = [i for i, item in enumerate(got.get("items") or ()) if item.get("value") == want["value"]]
            if held and not ok_value:  # the index is there, with other things around it
                problems[-1] = (f"batch '{case}': returned a {got['type']} of {len(got['items'])} whose item "
                                f"{held[0]} is the right index, {want['value']}")
                hint = hint or INDEX_HELD
            else:
                problems.append(f"batch '{case}': returned a {got['type']}, expected a Python int")
                hint = hint or INT
    if not problems:
        # judged where the gradients and their norms are right: otherwise the index is the argmax of wrong norms
        judged = ctx.passed("ex2.values") and ctx.passed("ex2.norms")  # one that raised is charged there
        boundary = _boundary_problems(ctx) if judged else []
        if boundary:
            return fail("; ".join(w for w, _ in boundary), boundary[0][1],
                        fraction=1 - len(boundary) / (len(cases) + len(BOUNDARY_CASES)))
        return PASS
    labels = [_label_at(ctx, case, ctx.want(f"largest/{case}")["value"]) for case in cases]
    if all(ctx.got(f"largest/{case}")["value"] == label for case, label in zip(cases, labels)):
        problems.append("measured: every index returned is the label of the largest example, y[i], not its "
                        "position i")  # wrong on at least one batch, right where the label equals the position
        hint = hint or LABEL
    elif itself := _largest_norm_itself(ctx, cases):
        problems.append(itself)
        hint = NORM_NOT_INDEX  # also when it is a float: the measurement says more than the type
    elif flat := _flat_index(ctx, cases):
        problems.append(flat)
        hint = hint or FLAT_INDEX
    elif argmins and all(argmins):  # the smallest norm wherever it could be told
        hint = hint or ARGMIN
    elif end := _same_end(ctx, cases):
        problems.append(f"measured: every index returned is the {end}, whatever the norms")
        hint = hint or ("The index does not follow the norms: it is the same place in the batch on every batch. "
                        "Return the position of the largest norm, int(jnp.argmax(norms)); where you track a running "
                        "maximum by hand, update the maximum itself along with its position; where max() picks it "
                        "from (position, norm) pairs, it compares the positions first unless key= says otherwise.")
    elif left_out := _end_left_out(ctx, cases):
        problems.append(left_out)
        hint = hint or END_LEFT_OUT
    elif local := _local_index(ctx, cases):
        problems.append(local)
        hint = hint or LOCAL_INDEX
    elif running := _running_offset(ctx, cases):
        problems.append(running)
        hint = hint or RUNNING_OFFSET
    elif shift := _shift(ctx, cases):
        problems.append(shift)
        hint = hint or OFFSET
    elif proxy := _proxy(ctx, cases):
        problems.append(f"measured: every index returned is the example with the largest {proxy}, which is not "
                        "always the one with the largest gradient norm")
        hint = hint or ("Rank the examples by the norm of their whole gradient, per_example_grad_norms("
                        f"per_example_grads(params, x, y)), not by their {proxy}: the two disagree on some batches.")
    elif ranked := _ranked_otherwise(ctx, cases):
        words, mistake = ranked
        problems.append(words)
        hint = hint or mistake
    elif kept := _kept_for_same_params(ctx):
        problems.append(kept)
        hint = hint or STALE
    elif stale := _first_params_index(ctx, cases):
        problems.append(stale)
        hint = hint or STALE
    elif carried := _earlier_answer(ctx, cases):
        problems.append(carried)
        hint = hint or CARRIED_OVER
    elif fixed := _one_answer(ctx, cases):
        problems.append(fixed)
        hint = hint or ONE_ANSWER
    hint = hint or "Return the argmax of per_example_grad_norms(per_example_grads(params, x, y))."
    wrong_values = [p for p in problems if "returned a " not in p]
    if wrong_values and own_argmax and compared and _values_credit(ctx) < 1:
        return skip("not judged: the index is the argmax of your own per-example gradients, which are wrong "
                    "(charged in ex2.values)")
    if hint is not INT and not ctx.passed("ex2.norms"):
        return skip("not judged: per_example_grad_norms is wrong (charged in ex2.norms), and the index is the "
                    "argmax of those norms")
    return fail("; ".join(problems), hint, fraction=credit)


def _right_norms(case: dict) -> np.ndarray:
    """Each example's gradient norm on a batch (``params``, ``x``, ``y``), computed by the grader in float64."""
    return npref.per_example_grad_norms(case["params"], np.asarray(case["x"], np.float64), npref.one_hot(case["y"]))


def _largest_norm_itself(ctx: Context, cases: tuple[str, ...]) -> str:
    """Words for a returned value that is the largest norm itself (as an int: truncated or rounded) on every
    batch, measured against the norms of the batch's gradients; "" otherwise, or when no batch's largest norm is
    past the batch (where it could pass for an index)."""
    seen = []
    for case in cases:
        c = _case(ctx, case)
        got = ctx.got(f"largest/{case}")["value"]
        norms = _right_norms(c)
        top = float(np.max(norms))
        if not isinstance(got, int) or got not in {int(np.floor(top)), int(np.round(top)), int(np.ceil(top))}:
            return ""
        seen.append((got, top, len(c["y"])))
    if not any(top >= size for _got, top, size in seen):
        return ""
    shown = ", ".join(f"{got} where the largest norm is {top:.3f}" for got, top, _size in seen)
    return f"measured: every value returned is the largest norm itself, not its position ({shown})"


def _flat_index(ctx: Context, cases: tuple[str, ...]) -> str:
    """Words for indices that count past the batch and are the right example modulo its size B, measured on every
    batch; "" otherwise."""
    seen = []
    for case in cases:
        got, want, size = (ctx.got(f"largest/{case}")["value"], ctx.want(f"largest/{case}")["value"],
                           len(_case(ctx, case)["y"]))
        if not isinstance(got, int) or not isinstance(want, int) or got < 0 or got % size != want:
            return ""
        seen.append((got, size))
    if not any(got >= size for got, size in seen):
        return ""
    shown = ", ".join(f"{got} for B={size}" for got, size in seen)
    return (f"measured: every index, taken modulo the batch size B, is the right example, and some lie past the "
            f"batch ({shown}): an index into a flattened array with the examples along its last axis")


def _proxy(ctx: Context, cases: tuple[str, ...]) -> str:
    """What the returned indices rank the examples by, when a stand-in for the gradient's norm gives every one
    of them (the loss, the loss's gradient with respect to the logits, the input's size; each that does, as the
    batches cannot tell them apart); "" when none does."""
    scores = {}
    for case in cases:
        c = _case(ctx, case)
        x = np.asarray(c["x"], np.float64)
        scores[case] = {**npref.norm_stand_ins(c["params"], x, c["y"]), **npref.leaf_norm_summaries(c["params"], x, c["y"])}
    matching = [name for name in scores[cases[0]]
                if all(ctx.got(f"largest/{case}")["value"] == int(np.argmax(scores[case][name])) for case in cases)]
    return " (equally: the largest ".join(matching) + ")" * (len(matching) - 1)


END_LEFT_OUT = Mistake(
    "ex2.end_left_out", "a search for the largest norm that leaves out the first or the last example",
    "Every example is a candidate, the first and the last included: return int(jnp.argmax(norms)); a loop of your "
    "own must run over range(len(norms)), or start from example 0 as the best so far and run over range(1, "
    "len(norms)).")


def _end_left_out(ctx: Context, cases: tuple[str, ...]) -> str:
    """Words for indices right wherever the largest norm lies inside the batch, and wrong exactly where it is the
    first or the last example, each then the largest among the others (measured on the right norms); "" else."""
    wrong, right_inside = {}, False
    for case in cases:
        got, want = ctx.got(f"largest/{case}")["value"], ctx.want(f"largest/{case}")["value"]
        b = len(_case(ctx, case)["y"])
        if got == want:
            right_inside = right_inside or 0 < want < b - 1
            continue
        if want not in (0, b - 1):
            return ""
        norms = _right_norms(_case(ctx, case))
        others = np.where(np.arange(b) == want, -np.inf, norms)
        if got != int(np.argmax(others)):
            return ""
        wrong.setdefault(("first", "0") if want == 0 else ("last", "B - 1"), []).append(f"'{case}'")
    if not wrong or not right_inside or len(wrong) > 1:
        return ""
    ((end, index), where), = wrong.items()
    return (f"measured: right on the batches whose largest norm lies inside the batch; on batch {', '.join(where)}, "
            f"whose largest norm is the {end} example's ({index}), the index is the largest among the other examples: "
            f"the search never reaches the {end} example")


def _same_end(ctx: Context, cases: tuple[str, ...]) -> str:
    """Words for indices that are the first example's (0) on every batch, the last one's (B - 1) or the middle
    one's (B // 2), where the largest norm lies elsewhere on more than one batch; "" otherwise."""
    got, want = _indices(ctx, cases)
    sizes = [len(_case(ctx, case)["y"]) for case in cases]
    for words, position in (("first example's, 0", lambda b: 0), ("last example's, B - 1", lambda b: b - 1),
                            ("middle example's, B // 2", lambda b: b // 2)):
        ends = [position(b) for b in sizes]
        if got == ends and sum(w != e for w, e in zip(want, ends)) > 1:
            return words
    return ""


def _ranked_otherwise(ctx: Context, cases: tuple[str, ...]) -> tuple[str, Mistake] | None:
    """Words and the mistake for indices that are, on every batch, the largest norm among the examples the
    model misclassifies, the last norm larger than the one before it (a running best overwritten by every norm),
    or the norm furthest from the batch's mean or median norm, measured on the right norms; ``None`` when none
    gives every index returned."""
    readings = {"misclassified": [], "mean": [], "median": [], "previous": []}
    for case in cases:
        c = _case(ctx, case)
        norms = _right_norms(c)
        rises = [i for i in range(1, len(norms)) if norms[i] > norms[i - 1]]
        readings["previous"].append(rises[-1] if rises else 0)  # a running best overwritten by every norm
        wrong = np.argmax(npref.mlp(c["params"], np.asarray(c["x"], np.float64)), axis=1) != np.asarray(c["y"])
        readings["misclassified"].append(int(np.argmax(np.where(wrong, norms, -np.inf))) if wrong.any() else None)
        readings["mean"].append(int(np.argmax(np.abs(norms - np.mean(norms)))))
        readings["median"].append(int(np.argmax(np.abs(norms - np.median(norms)))))
    got = [ctx.got(f"largest/{case}")["value"] for case in cases]
    told = [(g, r) for g, r in zip(got, readings["misclassified"]) if r is not None]
    if told and all(g == r for g, r in told):
        return ("measured: every index returned is the largest norm among the examples the model misclassifies; "
                "on a batch where a correctly classified example has the largest norm, that example is the "
                "answer", MISCLASSIFIED_ONLY)
    if got == readings["previous"]:
        return ("measured: every index returned is the last example whose norm is larger than the norm just before "
                "it: a running maximum in which every norm replaces the best one, so each is compared only with its "
                "predecessor", BEST_OVERWRITTEN)
    for centre in ("mean", "median"):
        if got == readings[centre]:
            return (f"measured: every index returned is the example whose norm lies furthest from the batch's "
                    f"{centre} norm; on a batch where the smallest norm is furthest, that is the smallest",
                    FURTHEST)
    return None


def _first_params_index(ctx: Context, cases) -> str:
    """Words for indices that are right on the first batch asked about and, on each later batch where they are
    wrong, the argmax that the first batch's params give there (params kept from the first call); "" otherwise."""
    first = cases[0]
    if ctx.got(f"largest/{first}")["value"] != ctx.want(f"largest/{first}")["value"]:
        return ""
    p0 = _case(ctx, first)["params"]
    kept = []
    for case in cases[1:]:
        got, want = ctx.got(f"largest/{case}")["value"], ctx.want(f"largest/{case}")["value"]
        if got == want:
            continue
        c = _case(ctx, case)
        try:  # the first params on this batch, where they fit it
            stale = int(np.argmax(npref.per_example_grad_norms(p0, np.asarray(c["x"], np.float64),
                                                               npref.one_hot(c["y"]))))
        except ValueError:
            return ""
        if got != stale or stale == want:
            return ""
        kept.append(f"batch '{case}'")
    return (f"measured: on {', '.join(kept)} the index returned is the argmax the params of the first call (batch "
            f"'{first}') give there: the first call's params were kept") if kept else ""


CARRIED_OVER = Mistake(
    "ex2.largest_carried_over", "an answer kept from an earlier call of largest_gradient_example",
    "Each call must answer for its own batch only: the index returned on later batches is one an earlier call "
    "returned. Something outlives the call (a tracker, a best-so-far or a cache made once, at import, as a global, "
    "a class attribute or a default argument); start it afresh inside the call, or return "
    "int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y)))).")


ONE_ANSWER = Mistake(
    "ex2.largest_one_answer", "one index whatever the batch",
    "largest_gradient_example must compute its answer from its own params, x and y on every call: it returned the "
    "same index for every batch. Check that the name it returns is the one computed inside the function, not a "
    "module-level value (left from a notebook cell) or one computed once at import.")


def _indices(ctx: Context, cases) -> tuple[list, list]:
    """The index largest_gradient_example returned on each batch, and the right one."""
    return ([ctx.got(f"largest/{case}")["value"] for case in cases],
            [ctx.want(f"largest/{case}")["value"] for case in cases])


def _whole_inverse(scale: float, rtol: float) -> int:
    """k when ``scale`` is 1/k for a whole number k of 2 or more, within ``rtol`` of k; 0 otherwise."""
    if not scale > 0:
        return 0
    k = round(1 / scale)
    return k if k >= 2 and abs(1 / scale - k) <= rtol * k else 0


def _one_over(scale: float) -> str:
    """" (1/128: divided by 128, the lesson batch size)" for a factor that is one over a whole number; "" for any
    other."""
    k = _whole_inverse(scale, rtol=1e-3)
    if not k:
        return ""
    return f" (1/{k}: divided by {k}{', the lesson batch size' if k == LESSON_BATCH else ''})"


def _outside(ctx: Context, case: str, index) -> str:
    """Words for an int index that is no position of the batch's examples; "" otherwise."""
    b = len(_case(ctx, case)["y"])
    if isinstance(index, int) and not 0 <= index < b:
        return f" (no position of its {b} examples, 0 to {b - 1})"
    return ""


RUNNING_OFFSET = Mistake(
    "ex2.index_running_offset", "a count kept from one call to the next added to the index",
    "The indices run past the batch: each is the largest norm's position plus an offset that grows from one call "
    "to the next (the message gives the offsets). Something outlives the call, such as a count of the examples "
    "seen kept in a global, a class attribute or a default argument, and is added to the index. Return the "
    "position within this call's batch, int(jnp.argmax(norms)), counted from 0, with nothing kept between calls.")


def _running_offset(ctx: Context, cases) -> str:
    """Words for indices that are each the largest norm's plus an offset that grows from call to call (the batches
    are asked about in the order of ``cases``), outside the batch on two calls at least; said as a running count
    of the examples when each step is the size of the batch asked about before. "" otherwise."""
    got, want = _indices(ctx, cases)
    if any(not isinstance(v, int) for v in got + want) or len(cases) < 3:
        return ""
    sizes = [len(_case(ctx, case)["y"]) for case in cases]
    offsets = [g - w for g, w in zip(got, want)]
    steps = [b - a for a, b in zip(offsets, offsets[1:])]
    if not all(step > 0 for step in steps) or sum(g >= b for g, b in zip(got, sizes)) < 2:
        return ""
    said = ", ".join(f"{o:+d}" for o in offsets)
    if steps == sizes[:-1]:
        return (f"measured: each index is the largest norm's position plus an offset that grows from call to call "
                f"({said}) by the size of the batch asked about before: a running count of the examples seen, kept "
                "between calls, is added to the index")
    return (f"measured: each index is the largest norm's position plus an offset that grows from call to call "
            f"({said}): something kept between calls is added to the index")


def _shift(ctx: Context, cases) -> str:
    """Words for indices that are the largest norm's moved by one same amount s != 0 on every batch where the
    moved index is in the batch (on two batches at least), and right on the others; "" otherwise. A shifted range
    of indices puts its first or last example's index where the shift would leave the batch."""
    got, want = _indices(ctx, cases)
    if any(not isinstance(v, int) for v in got + want):
        return ""
    sizes = [len(_case(ctx, case)["y"]) for case in cases]
    shifts = {g - w for g, w in zip(got, want) if g != w}
    if len(shifts) != 1 or (s := shifts.pop()) == 0:
        return ""
    inside = [0 <= w + s < b for w, b in zip(want, sizes)]
    if sum(inside) < 2 or any(g != w + s for g, w, i in zip(got, want, inside) if i):
        return ""
    if all(inside):
        return f"measured: every index is the largest norm's {s:+d}"
    kept = [f"'{case}', whose largest norm is example {w}" for case, w, i in zip(cases, want, inside) if not i]
    return (f"measured: every index is the largest norm's {s:+d} where that is in the batch (and right on batch "
            f"{', '.join(kept)})")


def _boundary_problems(ctx: Context) -> list[tuple[str, Mistake | str]]:
    """Words and hint for each batch of ``BOUNDARY_CASES`` where the index is wrong: on the batch of one example
    0; on the tiny one the largest norm's place; on the flat one (every norm 0) any index of the batch."""
    found = []
    for case in BOUNDARY_CASES:
        if not ctx.student.observed(f"largest/{case}"):
            continue
        c = _case(ctx, case)
        b = len(c["y"])
        said = ("on a batch of one example" if case == "single" else
                f"on a batch the model fits with every gradient {'tiny' if case == 'tiny' else 'exactly 0'}")
        hint = LARGEST_BATCH_OF_ONE if case == "single" else SATURATED_HINT
        try:
            got = ctx.got(f"largest/{case}")
        except StudentError as exc:
            found.append((f"{said}, largest_gradient_example raised {exc.error.summary()}", hint))
            continue
        value = got.get("value")
        if case == "single":
            if value != 0:
                found.append((f"{said}, largest_gradient_example returned {value}, where the only index is 0 (it is "
                              "right on the larger batches)", hint))
            continue
        if case == "flat":
            if not (isinstance(value, int) and 0 <= value < b):
                found.append((f"{said} (every norm tied at 0), it returned {value}, which is no example's index: "
                              f"with every norm tied, any index from 0 to {b - 1} is the largest (jnp.argmax gives "
                              "0)", hint))
            continue
        want = ctx.want(f"largest/{case}")["value"]
        if value == want:
            continue
        norms = _right_norms(c)
        top = float(np.max(norms))
        words = (f"on a batch the model fits, with tiny gradients (the largest norm {top:.2g}, at {want}), it returned "
                 f"{value}")
        if isinstance(value, int) and 0 <= value < b and top < 1e-6:
            words += (f", whose norm is {norms[value]:.2g}: norms this small were taken as equal to the largest (a "
                      "tolerance or an epsilon in the comparison)")
        found.append((words, hint))
    return found


LARGEST_BATCH_OF_ONE = Mistake(
    "ex2.largest_batch_of_one", "a batch of one example mishandled",
    "A batch of one example is a batch too: its norms have shape (1,) and the index is 0. Keep the batch axis "
    "(no squeeze, no ravel of a (1,) array into a scalar that is then searched) and take int(jnp.argmax(norms)) "
    "with no special case for B = 1.")


SATURATED_HINT = ("Return int(jnp.argmax(norms)) as it is, whatever the norms' size: compare the norms themselves, "
                  "with no tolerance (jnp.isclose has an absolute one of 1e-8), epsilon or special case, so tiny "
                  "norms are told apart and norms all 0 give an index of the batch (0).")


def _local_index(ctx: Context, cases) -> str:
    """Words for indices that are, on every batch, the largest norm's position within a part of the batch (its
    index modulo a part size k that divides the batch size, one k per size, below it on two or more batches where
    the answer is wrong), and not the same index on every batch; "" otherwise."""
    got, want = _indices(ctx, cases)
    if any(not isinstance(v, int) for v in got + want) or len(set(got)) == 1:
        return ""
    sizes = [len(_case(ctx, case)["y"]) for case in cases]
    parts = {}
    for size in sorted(set(sizes)):
        pairs = [(g, w) for g, w, b in zip(got, want, sizes) if b == size]
        fits = [k for k in range(1, size + 1) if size % k == 0 and all(g == w % k for g, w in pairs)]
        if not fits:
            return ""
        parts[size] = fits[-1]  # the largest part that fits: the right index, where it is the whole batch
    wrong = [b for g, w, b in zip(got, want, sizes) if g != w]
    if len(wrong) < 2 or any(parts[b] == b for b in wrong):
        return ""
    shown = "; ".join(f"on the batches of {b} examples, the position within parts of {parts[b]} (index mod "
                      f"{parts[b]})" for b in sorted(set(wrong)))
    right = sorted(set(sizes) - set(wrong))
    also = f", and right on the batches of {', '.join(map(str, right))}" if right else ""
    return f"measured: the index returned is the largest norm's {shown}{also}: a position within a part of the batch"


LOCAL_INDEX = Mistake(
    "ex2.local_index", "the index within a part of the batch, without the part's offset",
    "The index is a position in the whole batch: where the norms are cut into parts (shards, chunks) and each "
    "part's argmax is found, add the winning part's offset (part * part_size) to its index, or take "
    "int(jnp.argmax(norms)) over all B norms at once.")


def _one_answer(ctx: Context, cases) -> str:
    """Words for the same index returned on every batch, wrong on two or more of them; "" otherwise."""
    got, want = _indices(ctx, cases)
    if got[0] is None or len(set(got)) != 1 or sum(g != w for g, w in zip(got, want)) < 2:
        return ""
    return (f"measured: it returned {got[0]} on every batch, whatever its gradients (the largest norms are at "
            f"{', '.join(map(str, want))}): the index does not come from the call's params, x and y")


def _earlier_answer(ctx: Context, cases) -> str:
    """Words for indices that are right on the first batch asked about and, on two or more later batches where
    they are wrong, each the index an earlier call returned (in the order the batches were asked about); ""
    otherwise."""
    got, want = _indices(ctx, cases)
    if got[0] != want[0]:
        return ""
    wrong = [i for i in range(1, len(cases)) if got[i] != want[i]]
    if len(wrong) < 2 or any(got[i] not in got[:i] for i in wrong):
        return ""
    shown = "; ".join(f"on batch '{cases[i]}' it returned {got[i]} (the largest norm is at {want[i]}), what it "
                      f"returned on batch '{cases[got[:i].index(got[i])]}'" for i in wrong)
    return f"measured: {shown}: the answer carries over from earlier calls"


def _label_at(ctx: Context, case: str, index) -> int | None:
    """The label of example ``index`` of a batch, or None when there is no such example."""
    y = _case(ctx, case)["y"]
    return int(y[index]) if isinstance(index, int) and 0 <= index < len(y) else None


def jit_agrees(ctx: Context) -> Verdict:
    """Gradients and norms agree under jax.jit and on repeated calls; no leaked tracers."""
    problems = []
    eager = ctx.got("grads/small")
    for name, label in (("jit/grads", "jax.jit(per_example_grads)"), ("again/grads", "a second call")):
        problem = tree_mismatch(ctx.got(name), eager)
        if problem:
            problems.append(f"{label} vs the first eager call: {problem}")
    # a norm that fails eagerly, or keeps state between calls (the jitted call comes after others), is charged in
    # ex2.norms
    if "norms/tree" not in ctx.student.errors and _norms_mistake(ctx) != NORMS_STATE_KEPT.id:
        jitted, eager_norms = ctx.got("jit/norms"), ctx.got("norms/tree")
        problem = array_mismatch(jitted, eager_norms)
        if problem and _norms_mistake(ctx) == LOW_PRECISION.id and \
                rounding_error(jitted, eager_norms) is not None:
            problem = None  # a 16-bit float rounds differently once compiled: charged once, in ex2.norms
        if problem:
            problems.append(f"jax.jit(per_example_grad_norms) vs eager: {problem}")
    return fail("; ".join(problems), HINT_JIT) if problems else PASS


def params_unchanged(ctx: Context) -> Verdict:
    """per_example_grads and largest_gradient_example leave params as they were, judged on every batch whose call
    returned (a call that raised is charged in ex2.values)."""
    return unchanged_where_returned(ctx, [(f"input/params_after/{case}", _case(ctx, case)["params"], f"grads/{case}")
                                          for case in CASES])


#: Structural properties pay only when the values agree with the reference: zeros in the right shape are
#: vectorised, agree with themselves under jit and leave params alone, and compute nothing.
_VALUES = ("ex2.values",)

CHECKS = [
    Check("ex2.shapes", "per-example grads are shaped like params with a leading batch axis", shapes,
          ("per_example_grads",), reads=_VALUES),
    Check("ex2.values", "per-example grads match each example's own gradient", values, ("per_example_grads",)),
    Check("ex2.vectorised", "vectorised with vmap: no loop over the batch", vectorised, ("per_example_grads",),
          requires=_VALUES),
    Check("ex2.norms", "norms cover every leaf, weights and biases", norms, ("per_example_grad_norms",),
          norms_error_hint),
    Check("ex2.largest", "largest_gradient_example returns the argmax as a Python int", largest,
          ("largest_gradient_example",), reads=("ex2.values", "ex2.norms")),
    Check("ex2.jit", "grads and norms agree under jax.jit", jit_agrees,
          ("per_example_grads", "per_example_grad_norms"), numpy_on_tracer, requires=_VALUES, reads=("ex2.norms",)),
    Check("ex2.params_unchanged", "params are not modified", params_unchanged, ("per_example_grads",),
          requires=_VALUES),
]
