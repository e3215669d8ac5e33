"""Exercise 1 rubric: inverted dropout and key discipline in the MLP."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from grader.checks import PASS, Check, Context, Missing, Mistake, StudentError, Verdict, fail, skip
from grader.checks import npref
from grader.checks.common import (MUTATED, PARAMETERS, STALE, crash_hint, fixed_rows, parameters_words, shapes_met,
                                  unchanged)
from grader.checks.compare import (SIXTEEN_BIT_MANTISSAS, SIXTEEN_BIT_WORDS, array_mismatch, rearranged,
                                   rounded_to, rounding_error, sixteen_bit, tree_mismatch)
from grader.exercises.ex1.shared import (CURVE_BIASES, CURVE_GRID, CURVE_OFFSET, HIGH_RATE, LARGE_PARAMS_SCALE, RATES,
                                         SCALAR_CALLS, SCALAR_KEYS, VERY_HIGH_RATE,
                                         SMALL_RATE, WIDE_SCALE, WIDE_SHIFT,
                                         large_params, other_shapes)
from grader.inputs import flatten
from grader.observations import ObservationError

ROWS_SKIPPED = Mistake(
    "ex1.rows_skipped", "rows of x left as they were",
    "Dropout acts on every element: rows that come back unchanged were never reached. A loop over the rows must "
    "cover all of them (range(n) and jax.lax.fori_loop(0, n, ...) stop before n); simpler, draw one mask of x.shape "
    "and apply it to the whole of x.")
SURVIVORS_CONSTANT = Mistake(
    "ex1.survivors_constant", "survivors replaced by one constant value",
    "The survivors must keep x's values, scaled: jnp.where(keep, x / (1 - rate), 0), in x's dtype. One value for "
    "every survivor comes from returning the mask (as floats) or writing into an array of the mask's dtype: "
    "jnp.zeros_like(mask) is a bool array, and values stored in it become True; make such buffers like x.")
ARGS_SWAPPED = Mistake(
    "ex1.arguments_swapped", "dropout's parameters in the order (x, key)",
    "dropout takes (key, x, rate, train=True), in that order: the key first, then the array. Put the "
    "parameters in the contract's order, and call dropout(key, h, rate, train) in forward_with_dropout.")
FORWARD_ARGS_SWAPPED = Mistake(
    "ex1.forward_arguments_swapped", "dropout called with the key and the array in the wrong order",
    "forward_with_dropout passes dropout's arguments in another order than dropout takes them: "
    "call dropout(key, h, rate, train), the key first.")
SWAPPED = Mistake(
    "ex1.keep_drop_swapped", "keeping with probability rate instead of 1 - rate",
    "The keep and drop probabilities look swapped: jax.random.bernoulli(key, p, shape) is True with "
    "probability p, so if True means 'keep', p must be 1 - rate.")
SOME_RATES_KEPT = Mistake(
    "ex1.some_rates_as_keep", "some rates read as the keep probability",
    "rate is the drop probability at every value (the message says which rates were right and which zeroed "
    "1 - rate): keep = 1 - rate always. A branch on the rate's value that reads some rates as a keep probability "
    "(TF1's keep_prob) misreads those.")
HINT_NO_DROP = "Nothing was zeroed in train mode: zero each element with probability rate when train is true."
TRAIN_INVERTED = Mistake(
    "ex1.train_inverted", "the train test inverted (dropping in eval mode, not in train mode)",
    "The train test is inverted: dropout returned x untouched with train=True and dropped elements with "
    "train=False. Return x when train is false (or rate == 0), and apply the mask when train is true.")
TRAIN_IGNORED = Mistake(
    "ex1.train_ignored", "ignoring train (dropping in eval mode too)",
    "With train=False, or rate == 0, return x itself: no mask and no scaling.")
TRAIN_NOT_PASSED = Mistake(
    "ex1.train_not_passed", "eval mode running as train mode",
    "With train=False the output equals the train-mode output for the same key: train never reached the "
    "dropout calls. Pass train through to both dropout calls.")
NO_RESCALE = Mistake("ex1.no_rescale", "no rescaling of the survivors",
    "Survivors were not rescaled: inverted dropout divides them by 1 - rate (the keep probability).")
DIV_RATE = Mistake("ex1.divide_by_rate", "dividing the survivors by rate",
    "Survivors were divided by rate; divide by the keep probability 1 - rate instead.")
MUL_KEEP = Mistake("ex1.multiply_by_keep", "multiplying the survivors by 1 - rate",
    "Survivors were multiplied by 1 - rate; inverted dropout divides by it (x / (1 - rate)).")
HINT_IDENTITY = "With train=False, or rate == 0, dropout returns x itself: no mask and no scaling."
SHARED_ROWS = Mistake(
    "ex1.mask_shared_across_batch", "one mask shared by every example",
    "Every example in the batch got the same mask: draw the mask with the full shape of x "
    "(jax.random.bernoulli(key, keep, x.shape)), not one row and broadcast.")
SHARED_COLS = Mistake("ex1.mask_per_example", "one coin flip per example, shared by its units",
    "Every unit of an example got the same coin flip: draw one per element, shape x.shape.")
KEEP_PROB_PASSED = Mistake(
    "ex1.keep_prob_passed", "the keep probability passed to dropout as its rate",
    "forward_with_dropout gave dropout 1 - rate, the keep probability, where dropout takes the rate of dropping: "
    "pass rate as it is, dropout(k1, h, rate, train).")
FIXED_COUNT = Mistake("ex1.fixed_drop_count", "a fixed number of elements dropped in every call",
    "The same number of elements, round(rate * n), was zeroed in every call: dropout flips an independent coin "
    "for each element (jax.random.bernoulli(key, 1 - rate, x.shape)), so how many are dropped varies from call "
    "to call.")
FLOORED = Mistake("ex1.scale_floored", "1 / (1 - rate) rounded down to a whole number",
    "At every rate the survivors were scaled by 1 / (1 - rate) rounded down to a whole number (1 // keep is "
    "integer division): divide by the keep probability, x / (1 - rate), or multiply by 1 / (1 - rate).")
ONE_COIN = Mistake("ex1.one_coin_per_call", "one coin for the whole array",
    "Every call kept all of x or zeroed all of it: one coin was flipped for the whole array. Give the mask x's "
    "shape, jax.random.bernoulli(key, 1 - rate, x.shape), so each element gets its own coin.")
HIDDEN_RNG = Mistake(
    "ex1.hidden_randomness", "randomness that does not come from the key",
    "The same key gave different masks: randomness must come only from the key argument, "
    "never from numpy.random, the random module, a global counter or the time.")
IGNORES_KEY = Mistake(
    "ex1.key_ignored", "a mask that ignores the key argument",
    "Different keys gave the same mask: the key argument is being ignored (a fixed "
    "jax.random.PRNGKey inside the function, a key stored at import time, or a mask drawn once and reused). "
    "Draw every mask from the key the call is given.")
TRACE_TIME_RNG = Mistake(
    "ex1.trace_time_randomness", "a mask drawn at trace time",
    "Under jax.jit, different keys gave the same mask: the mask was drawn at trace time with numpy or "
    "Python randomness and baked into the compiled function. Draw it with jax.random from the key.")
HINT_JIT = (
    "jax.jit changed the result or failed: keep the function pure (no Python side effects, no global "
    "state, no Python control flow on array values) so the traced version computes the same thing."
)
OUTPUT_RELU = Mistake(
    "ex1.output_relu", "a ReLU after the last layer",
    "The logits went through a ReLU: apply ReLU after the two hidden layers only; the last layer's output "
    "(the logits) stays linear.")
OUTPUT_SOFTMAX = Mistake(
    "ex1.output_softmax", "a softmax (or log_softmax) after the last layer",
    "The logits went through a softmax: forward_with_dropout returns the last layer's raw values, as the plain "
    "forward pass does; the loss applies log_softmax itself.")
#: What may be applied to the logits, as a message words it.
_ON_THE_LOGITS = (("softmax probabilities (each row sums to 1)", npref.softmax),
                  ("log-softmax values (log-probabilities)", lambda z: np.log(npref.softmax(z))))
HINT_EVAL_FORWARD = (
    "With train=False (or rate=0) forward_with_dropout must equal the plain forward pass: the lesson's MLP, "
    "ReLU after each hidden layer, with dropout doing nothing."
)
FORWARD_CONTAINER = Mistake(
    "ex1.forward_returns_container", "forward_with_dropout returning a tuple or dict",
    "forward_with_dropout returns only the (B, 10) logits: the caller splits the key it passes in, so there is "
    "no new key (or anything else) to hand back. Return the last layer's output alone.")
RATE_CHANGED = Mistake(
    "ex1.rate_changed", "another rate given to a dropout layer",
    "forward_with_dropout gives each of its dropout calls the rate it was given, unchanged (the message lists the "
    "rates its calls got): dropout(key1, h, rate, train) and dropout(key2, h, rate, train).")
DROPOUT_UNUSED = Mistake(
    "ex1.dropout_output_unused", "a dropout call whose output the next layer does not read",
    "Each layer takes what the dropout after the layer before returned: h1 = dropout(key1, relu(x @ w1 + b1), ...), "
    "then layer 2 reads h1 (not the values before dropout), and likewise for layer 3.")
RATE_NOT_PASSED = Mistake(
    "ex1.rate_not_passed", "a fixed rate in forward_with_dropout",
    "With rate=0.0 the output equals the output at rate 0.5 for the same key: the rate argument never reached "
    "the dropout calls. Pass rate through to both dropout calls.")
REUSED_KEY = Mistake(
    "ex1.same_key_both_layers", "one key for both dropout layers",
    "Both dropout layers drew their masks from the same key, so their masks are correlated. Split once, "
    "k1, k2 = jax.random.split(key), and give each layer its own key. Where the keys reach the layers through "
    "lambdas or functions made in a loop or comprehension, each one reads the loop variable when it is called, "
    "after the loop (its last value): bind it when it is made (lambda h, k=k: ...).")
KEY_SPLIT_AND_USED = Mistake(
    "ex1.key_used_and_split", "a key used for a mask and also split",
    "A key that was used for a mask was also split (or folded) to make other keys: a key is used once. Split "
    "the key forward_with_dropout was given, and give each dropout call one of the new keys, used for nothing "
    "else.")
FORWARD_SHARED_ROWS = Mistake(
    "ex1.mask_shared_across_batch", "one mask shared by every example",
    "forward_with_dropout gave every example the same mask: one per layer for the whole batch (a (256,) "
    "and a (128,) draw broadcast, or one key for every example of a vmap). Draw the masks with the full "
    "(B, 256) and (B, 128) shapes, or, if you vmap a one-example forward pass, split the key into one key per "
    "example and map over the keys as well.")
PLACEMENT = Mistake(
    "ex1.placement", "dropout in other places than after the two hidden ReLUs",
    "Dropout belongs after each of the two hidden ReLUs (shapes (B, 256) and (B, 128)) and nowhere "
    "else: not on the input, not on the logits.")
BEFORE_RELU = Mistake(
    "ex1.dropout_before_relu", "dropout applied before the ReLU",
    "A mask was applied to a hidden layer's values before its ReLU (they still had negative values): "
    "dropout goes after the activation, h = dropout(key, jax.nn.relu(x @ w + b), rate, train).")
FORWARD_KEYS = Mistake(
    "ex1.forward_not_pure_in_key", "keys made inside forward_with_dropout",
    "forward_with_dropout must be a pure function of its key: the same key gives the same output, a "
    "different key a different one. Pass the split keys to dropout, create no keys inside, and keep none from an "
    "earlier call (in a global, a class attribute or a default argument), which would stand in for the key given.")


def _x(ctx: Context) -> np.ndarray:
    return ctx.inputs["ex1"]["x"]


def _untouched_rows(ctx: Context) -> str:
    """Words for rows of x that came back exactly as they were at every rate (nothing zeroed or scaled) while every
    other row was dropped out right, as a loop over the rows that stops short leaves them; "" otherwise."""
    x = _x(ctx)
    if x.ndim != 2 or x.shape[0] < 2:
        return ""
    untouched = np.ones(x.shape[0], bool)
    for rate in RATES:
        out = np.asarray(ctx.got(f"dropout/rate{rate}"), np.float64)
        if out.shape != x.shape:
            return ""
        same = np.all(out == x, axis=1)
        rest = ~same[:, None] & (out != 0)
        if not np.allclose(out[rest], x[rest] / (1 - rate), rtol=1e-5):
            return ""
        untouched &= same
    rows = np.flatnonzero(untouched)
    if not 0 < len(rows) < x.shape[0] // 2:
        return ""
    shown = ", ".join(map(str, rows[:8])) + (" ..." if len(rows) > 8 else "")
    last = " (the last)" if list(rows) == [x.shape[0] - 1] else " (the first)" if list(rows) == [0] else ""
    return (f"row{'s' * (len(rows) > 1)} {shown}{last} of x's {x.shape[0]} came back unchanged at every rate, nothing "
            "zeroed or scaled, and every other row is dropped out right")


def _constant_survivors(ctx: Context) -> str:
    """Words for survivors that are all one value at every rate whatever x holds there (the mask itself, or x written
    into an array of the mask's dtype); "" otherwise."""
    x, values = _x(ctx), set()
    for rate in RATES:
        out = np.asarray(ctx.got(f"dropout/rate{rate}"), np.float64)
        kept = out != 0
        if out.shape != x.shape or kept.sum() < 2 or np.ptp(x[kept]) == 0 or np.ptp(out[kept]) != 0:
            return ""
        values.add(float(out[kept][0]))
    return (f"every element that survived is {' or '.join(f'{v:g}' for v in sorted(values))}, whatever x holds "
            "there: the output holds the mask, not x's values scaled")


def _mask(ctx: Context, name: str) -> np.ndarray:
    got = ctx.got(name)
    if isinstance(got, dict):  # a container, stored as its leaves by path
        raise _ShapeError(f"{name.split('/')[0]} returned {_container(got)}, not one array shaped like x "
                          f"{_x(ctx).shape}")
    out = np.asarray(got)
    if out.shape != _x(ctx).shape:
        raise _ShapeError(f"{name.split('/')[0]} returned shape {out.shape}, expected {_x(ctx).shape} (the shape of x)")
    return out != 0


def _container(got: dict, first: tuple[int, ...] | None = None) -> str:
    """What a returned container (stored as its leaves by path) is, in words: a tuple of N items (saying when the
    first is shaped ``first``), or a dict with its keys."""
    parts = sorted({k.split("/")[0] for k in got}, key=lambda p: (not p.isdigit(), int(p) if p.isdigit() else p))
    if not all(p.isdigit() for p in parts):
        return f"a dict with keys {parts}"
    shapes = [np.shape(v) for k, v in got.items() if k.split("/")[0] == "0"]
    like = f", the first shaped {first} like the logits" if first is not None and shapes == [first] else ""
    return f"a tuple of {len(parts)} items{like}"


class _ShapeError(Exception):
    pass


def _forward_container(ctx: Context) -> str:
    """Words for a forward_with_dropout that returns a container (a tuple, a dict) instead of the logits; ""
    when it returns one array (or raised: judged where it raised)."""
    try:
        got = ctx.got("forward/train")
    except StudentError:
        return ""
    if not isinstance(got, dict):
        return ""
    logits = (len(ctx.inputs["ex1"]["xb"]), 10)
    return (f"forward_with_dropout(params, x, key, 0.5, True) returned {_container(got, logits)}, not one "
            f"{logits} array of logits")


def _swapped_order(ctx: Context) -> str:
    """What dropout(x, key, 0.5) computed, when it is a dropout of x; "" otherwise.

    A dropout written as ``dropout(x, key, ...)`` fails or returns something
    shaped like the key when called as the contract says; called the other way
    round it zeroes about half of x and scales the rest by 2. That measurement,
    not the error text, names the mistake.
    """
    x = _x(ctx)
    try:
        out = np.asarray(ctx.student["dropout/swapped"], dtype=np.float64) if ctx.student.has("dropout/swapped") \
            else None
    except (TypeError, ValueError):
        return ""
    if out is None or out.shape != x.shape:
        return ""
    kept = out != 0
    zeroed = 1.0 - float(kept.mean())
    if not 0.3 <= zeroed <= 0.7 or not kept.any():
        return ""
    scale = float(np.median(out[kept] / x[kept]))
    return (f"called as dropout(x, key, 0.5) instead, it returned an array shaped like x with {zeroed:.0%} of "
            f"the elements zeroed and the survivors scaled by {scale:.3g}: its parameters are in the order "
            "(x, key)")


FIXED_SHAPE = Mistake(
    "ex1.fixed_shape", "a mask made for a fixed batch size",
    "dropout is given x of any shape: draw the mask with x's own shape, jax.random.bernoulli(key, 1 - rate, "
    "x.shape), not one written for the lesson's batch (128 rows).")


def _shape_guard(judge):
    """Judge dropout; a wrong shape or a crash is worded from what was measured about the argument order."""
    def guarded(ctx: Context) -> Verdict:
        try:
            return judge(ctx)
        except _ShapeError as exc:
            swapped = _swapped_order(ctx)
            if swapped:
                return fail(f"{exc}; {swapped}", ARGS_SWAPPED)
            return fail(str(exc), "dropout must return one array shaped like x (the dropped-out x), nothing else.")
        except StudentError as exc:
            swapped = _swapped_order(ctx) if exc.name.startswith("dropout/") else ""
            if swapped:
                return fail(f"dropout(key, x, ...) raised {exc.error.summary()}; {swapped}", ARGS_SWAPPED)
            rows = fixed_rows(shapes_met(exc.error), _x(ctx).shape[0]) if exc.name.startswith("dropout/") else None
            if rows is not None:
                return fail(f"dropout(key, x, ...) on x of shape {_x(ctx).shape} raised {exc.error.summary()}; measured: "
                            f"an array of {rows} rows met x's {_x(ctx).shape[0]}: it was made for a batch of {rows}",
                            FIXED_SHAPE)
            raise

    guarded.__doc__ = judge.__doc__
    return guarded


def _independent_flips(kept: np.ndarray) -> int:
    """How many coin flips a mask is made of: one per element, unless whole rows or columns repeat.

    A mask drawn for one row and broadcast over the batch has only a row's worth
    of flips; its zero fraction is judged with the spread that many flips have,
    and the sharing itself is charged once, in per_element.
    """
    if (kept == kept[:1]).all():
        return kept.shape[1]
    if (kept == kept[:, :1]).all():
        return kept.shape[0]
    return kept.size


HINT_TRAIN_MODE = ("In train mode forward_with_dropout is the lesson's MLP with each hidden ReLU's output passed "
                   "through dropout once, and nothing more: dropout already rescales the survivors (no second "
                   "1 / (1 - rate)), and what it returns is what the next layer takes.")
#: forward_with_dropout's default rate in the exercise API.
API_RATE = 0.5
DEFAULT_RATE = Mistake(
    "ex1.default_rate", "forward_with_dropout's default rate is not 0.5",
    "Left out, forward_with_dropout's rate must be the API's default, 0.5 (the message says what it gave "
    "dropout instead): def forward_with_dropout(params, x, key, rate=0.5, train=True).")


def _fraction_pattern(fractions: list[float], tols: list[float]) -> tuple[str, str] | None:
    """How the zeroed fractions measured at ``RATES`` depart from rate, when they follow a law: (words for the
    message, the hint); None when they follow none of these."""
    if all(abs(f - (1 - np.exp(-rate))) <= t for f, rate, t in zip(fractions, RATES, tols)):
        return ("; measured: 1 - e^-rate zeroed at every rate, what zeroing rate * n positions drawn with "
                "replacement gives (some positions are drawn twice, so fewer are zeroed)",
                "Flip an independent coin for every element (jax.random.bernoulli(key, 1 - rate, x.shape)) instead "
                "of picking positions to zero: positions drawn with replacement repeat.")
    for drop in (True, False):  # softmax([rate, 1 - rate]): probabilities taken for logits
        law = [npref.sigmoid((2 * rate - 1) if drop else (1 - 2 * rate)) for rate in RATES]
        if all(abs(f - p) <= t for f, p, t in zip(fractions, law, tols)):
            return (f"; measured: the zeroed fraction at every rate is softmax([rate, 1 - rate])[{0 if drop else 1}], "
                    "what the probabilities give when a draw takes them as logits (right only at rate 0.5)",
                    "jax.random.categorical takes logits (log-probabilities), not probabilities: pass "
                    "jnp.log(jnp.array([rate, 1 - rate])), or draw the mask with jax.random.bernoulli(key, "
                    "1 - rate, x.shape).")
    shifts = [rate - f for f, rate in zip(fractions, RATES) if f > 0]
    if shifts and min(fractions) == 0 and 0.05 < np.mean(shifts) < 1:
        shift = float(np.mean(shifts))
        if all(abs(f - max(0.0, rate - shift)) <= t for f, rate, t in zip(fractions, RATES, tols)):
            rounded = (" A draw rounded to the nearest whole number, round(u + 1 - rate), gives exactly this; "
                       "jnp.floor(u + 1 - rate), or u < 1 - rate as the keep mask, is a coin of probability 1 - rate."
                       if abs(shift - 0.5) < 0.05 else "")
            return (f"; measured: rate - {shift:.2f} zeroed at every rate, none at a rate up to {shift:.2f}: the "
                    f"threshold the draw is compared with is shifted by {shift:.2f}",
                    "Each element is zeroed with probability rate exactly: keep it where a uniform draw is below "
                    f"1 - rate (or use jax.random.bernoulli(key, 1 - rate, x.shape)).{rounded}")
    scale = [f / rate for f, rate in zip(fractions, RATES)]
    if max(fractions) > 0 and max(scale) - min(scale) < 0.1 * max(scale):
        return (f"; measured: about {np.mean(scale):.3g} × rate zeroed at every rate",
                "The zeroed fraction is a fixed multiple of rate, not rate itself: rate is the probability of "
                "zeroing each element as given (keep it with probability 1 - rate), with no conversion, and every "
                "draw must be able to fall below the threshold (random bits read as signed integers leave the "
                "negative half always on one side).")
    kept = [(1 - f) / (1 - rate) for f, rate in zip(fractions, RATES)]
    if max(fractions) < 1 and max(kept) - min(kept) < 0.1 * max(kept):
        return (f"; measured: about {np.mean(kept):.3g} × (1 - rate) kept at every rate",
                "The kept fraction is a fixed multiple of 1 - rate, not 1 - rate itself: keep each element with "
                "probability 1 - rate exactly. A draw on another range than its threshold was worked out for does "
                "this: random bits shifted to a width other than the threshold's (24 bits against "
                "keep * 2**23), or a uniform on [0, 2) against 1 - rate.")
    if max(fractions) - min(fractions) < 0.05:
        return (f"; about {np.mean(fractions):.2f} zeroed at every rate: the fraction does not follow rate",
                "The zeroed fraction stayed the same whatever rate was passed: draw the mask from the rate "
                "argument (keep each element with probability 1 - rate), not from a fixed number.")
    return None


RATE_ROUNDED = Mistake(
    "ex1.rate_rounded", "the rate rounded before use",
    "Use rate exactly as given, for the mask (keep with probability 1 - rate) and for the scale 1 / (1 - rate): "
    "no rounding of it, or of 1 - rate, first.")
RATE_KEPT = Mistake(
    "ex1.rate_kept_from_first_call", "the rate of dropout's first call reused by later calls",
    "Each call must use its own rate: something built on the first call (a jitted function or a mask cached by "
    "x's shape, a global) kept that call's rate for every later one. Build the mask from this call's rate every "
    "time, or key any cache on the rate too.")


def _rate_used(ctx: Context) -> tuple[str, Mistake | None] | None:
    """The rate each call acted at, when its mask and its scale agree on one and it is not the rate given, at some
    rates: (words for the message, the mistake when the rates used follow a law); None otherwise.

    The probe's first dropout call is at RATES[0]; later calls acting at it kept it."""
    x = _x(ctx)
    used = []
    for rate in RATES:
        try:
            out = np.asarray(ctx.got(f"dropout/rate{rate}"), np.float64)
            kept = _mask(ctx, f"dropout/rate{rate}")
        except (StudentError, Missing, ValueError, TypeError):
            return None
        acted = _acted_at(out, x, kept)
        if acted is None:
            return None
        used.append(acted)
    off = [(rate, r) for rate, r in zip(RATES, used) if abs(rate - r) > 0.01]
    if not off:
        return None
    same = len({round(r, 3) for _, r in off}) == 1
    words = "measured: the mask and the scale both follow another rate than the one given: " + (
        f"at rate{'s' if len(off) > 1 else ''} {', '.join(str(rate) for rate, _ in off)}, the zeroed fraction and "
        f"the survivors' scale 1 / (1 - r) are rate {off[0][1]:.3g}'s" if same else
        "; ".join(f"at rate {rate}, rate {r:.3g}'s zeroed fraction and scale" for rate, r in off))
    if all(abs(r - round(rate, 1)) < 1e-3 for rate, r in zip(RATES, used)):
        return words + ": the rate rounded to one decimal", RATE_ROUNDED
    if all(abs(r - used[0]) < 0.01 for r in used):
        words += f": every call on x acted at {used[0]:.3g}, whatever rate it was given"
        elsewhere = _zeroed_on_other_shape(ctx)
        if abs(used[0] - RATES[0]) < 0.01 and elsewhere is not None and abs(elsewhere - 0.5) < 0.05:
            return (words + f", the rate of the first call on x in this run, while on x of another shape rate 0.5 "
                    f"zeroed {elsewhere:.3f}: the first call's rate kept for x's shape"), RATE_KEPT
        return words, None
    return words, None


def _acted_at(out: np.ndarray, x: np.ndarray, kept: np.ndarray) -> float | None:
    """The rate r one dropout call acted at, when its zeroed fraction and its survivors' one scale 1 / (1 - r)
    agree on it (within 0.02); None otherwise."""
    if out.shape != x.shape or not kept.any() or not np.all(x[kept] != 0):
        return None
    ratios = out[kept] / x[kept]
    scale = float(np.median(ratios))
    acted = 1.0 - 1.0 / scale if scale > 0 else None
    if acted is None or abs((1.0 - float(kept.mean())) - acted) > 0.02 or not np.allclose(ratios, scale, rtol=1e-4):
        return None
    return acted


#: The rates the probe gave dropout on x before its rate-0 call, in order.
EARLIER_RATES = (*RATES, HIGH_RATE, VERY_HIGH_RATE, SMALL_RATE)
RATE_FROM_EARLIER = Mistake(
    "ex1.rate_from_earlier_call", "an earlier call's rate used by a later call",
    "dropout must act at the rate it is given in this call: here a call acted at a rate an earlier call was given, "
    "so something built on that call (a layer, a jitted function or a mask kept in a cache or a dict) was reused. "
    "Key any cache on the exact rate (not a rounded one, nor its hash), or build what the rate decides on every "
    "call.")


def _rate0_acted(ctx: Context) -> tuple[str, Mistake | None] | None:
    """Words (and a mistake when it is an earlier call's rate) for dropout(key, x, 0.0) acting as dropout at some
    other rate, measured by its zeroed fraction and its scale; None when it did not."""
    x = _x(ctx)
    try:
        out = np.asarray(ctx.got("dropout/rate0"), np.float64)
        acted = _acted_at(out, x, out != 0)
    except (StudentError, Missing, ValueError, TypeError):
        return None
    if acted is None or acted < 1e-4:
        return None
    words = (f"measured: dropout(key, x, 0.0) zeroed {int(np.sum(out == 0))} of {out.size} elements and scaled the "
             f"rest by {1 / (1 - acted):.6g}, as dropout at rate {acted:.3g} does")
    earlier = next((r for r in EARLIER_RATES if abs(r - acted) <= 1e-3 * max(r, 1e-3)), None)
    if earlier is None:
        return words, None
    return (words + f": the rate dropout(key, x, {earlier:g}) was given earlier in the same process, not this "
            "call's"), RATE_FROM_EARLIER


def _zeroed_on_other_shape(ctx: Context) -> float | None:
    """The fraction dropout zeroed at rate 0.5 on x reshaped to rank 3 (first called there), None if unknown."""
    try:
        out = np.asarray(ctx.got("dropout/rank3"), np.float64)
    except (StudentError, Missing, ValueError, TypeError):
        return None
    return float(np.mean(out == 0)) if out.size else None


@_shape_guard
def zero_fraction(ctx: Context) -> Verdict:
    """The fraction of zeros matches rate at every rate tried."""
    x = _x(ctx)
    wrong, swapped, nothing, fractions, variances, flips, tols = [], 0, 0, [], [], [], []
    for rate in RATES:
        kept = _mask(ctx, f"dropout/rate{rate}")
        frac = 1.0 - float(kept.mean())
        fractions.append(frac)
        flips.append(_independent_flips(kept))
        variances.append(rate * (1 - rate) / flips[-1])
        tol = max(0.015, 5 * np.sqrt(variances[-1]))
        tols.append(tol)
        if abs(frac - rate) > tol:
            wrong.append(f"rate {rate}: {frac:.3f} zeroed (expected {rate} ± {tol:.3f})")
            swapped += abs(frac - (1 - rate)) <= tol
            nothing += frac == 0.0
    if not wrong:
        biased = _biased(x, fractions, variances)
        skipped = _untouched_rows(ctx) if not biased.passed else ""
        if skipped:
            return fail(f"{biased.message}; measured: {skipped}", ROWS_SKIPPED, fraction=0.5)
        per_element = all(n == x.size for n in flips)
        return _small_rate(ctx) if biased.passed and per_element else biased  # shared flips: per_element
    hint = SWAPPED if swapped == len(wrong) else HINT_NO_DROP if nothing == len(wrong) else (
        "Zero each element independently with probability rate."
    )
    message = f"dropout(key, x, rate) on x of shape {x.shape}: " + "; ".join(wrong)
    # rates right where swapping would show (1 - rate far from rate), beside rates that zero 1 - rate
    right = [r for r, frac, tol in zip(RATES, fractions, tols) if abs(frac - r) <= tol and abs(1 - 2 * r) > 2 * tol]
    if hint is SWAPPED and right:
        off = [r for r, frac, tol in zip(RATES, fractions, tols) if abs(frac - r) > tol]
        message += (f"; measured: rate {', '.join(map(str, right))} zeroed as expected, and rate "
                    f"{', '.join(map(str, off))} zeroed 1 - rate: the rate is read as the keep probability for "
                    "some values only")
        hint = SOME_RATES_KEPT
    differ = parameters_words(ctx, "dropout", reordered_only=True)
    if differ:
        return fail(f"{message}; measured: {differ}", PARAMETERS, fraction=1 - len(wrong) / len(RATES))
    if set(fractions) == {0.0, 1.0} and x.size > 1:
        return fail(message + "; measured: each call kept every element or zeroed every one", ONE_COIN,
                    fraction=1 - len(wrong) / len(RATES))
    skipped = _untouched_rows(ctx)
    if skipped:
        return fail(f"{message}; measured: {skipped}", ROWS_SKIPPED, fraction=1 - len(wrong) / len(RATES))
    pattern = _fraction_pattern(fractions, tols) if nothing < len(wrong) else None
    if pattern is not None:
        message, hint = message + pattern[0], pattern[1]
    used = _rate_used(ctx) if nothing < len(wrong) else None
    if used is not None and used[1] is not None:
        return fail(f"{message}; {used[0]}", used[1], fraction=1 - len(wrong) / len(RATES))
    measured = _not_zero_or_rescaled(ctx, x)
    if measured is not None:
        return fail(message + "; measured: " + measured[0], measured[1], fraction=1 - len(wrong) / len(RATES))
    scaled = _scaled_not_dropped(ctx, x) if nothing == len(wrong) == len(RATES) else ""
    if scaled:
        return fail(f"{message}; measured: {scaled}", HINT_SCALED_NOT_DROPPED, fraction=0.0)
    if nothing == len(wrong) == len(RATES):
        evaluated = np.asarray(ctx.got("dropout/eval"))
        if evaluated.shape == x.shape and float(np.mean(evaluated == 0)) > 0.2:
            hint = TRAIN_INVERTED
            message += f"; with train=False, {float(np.mean(evaluated == 0)):.0%} of the elements were zeroed"
    return fail(message, hint, fraction=1 - len(wrong) / len(RATES))


HINT_SCALED_NOT_DROPPED = (
    "Nothing was zeroed and every element was scaled instead (the message says by what): zero each element with "
    "probability rate, keeping it with probability 1 - rate (jax.random.bernoulli(key, 1 - rate, x.shape); a "
    "probability above 1 keeps everything), and divide the kept ones by 1 - rate.")


def _scaled_not_dropped(ctx: Context, x: np.ndarray) -> str:
    """Words for train mode that zeroed nothing and scaled every element by one factor at each rate (named when it
    is 1 - rate, the keep probability, at every rate); "" otherwise."""
    factors = []
    for rate in RATES:
        try:
            factor = _uniform_scale(np.asarray(ctx.got(f"dropout/rate{rate}"), np.float64), x)
        except (StudentError, TypeError, ValueError):
            return ""
        if factor is None:
            return ""
        factors.append(factor)
    shown = ", ".join(f"{f:.4g} at rate {r}" for f, r in zip(factors, RATES))
    if np.allclose(factors, [1 - r for r in RATES], rtol=1e-4):
        return (f"every element came back as x times 1 - rate ({shown}), none zeroed: x was multiplied by the keep "
                "probability, and no element was dropped")
    return f"every element came back as x times one factor ({shown}), none zeroed"


def _not_zero_or_rescaled(ctx: Context, x: np.ndarray) -> tuple[str, str] | None:
    """What train mode made of the elements it did not zero, where that is neither 0 nor x / (1 - rate): a
    constant put in place of the dropped ones, or scales spread between (a mask that is not made of 0s and 1s)."""
    rate = 0.5
    out = np.asarray(ctx.got(f"dropout/rate{rate}"), np.float64)
    if out.shape != x.shape:
        return None
    values, counts = np.unique(out, return_counts=True)
    top = int(np.argmax(counts))
    share = counts[top] / out.size
    if values[top] != 0 and abs(share - rate) < 0.1:
        return (f"at rate {rate}, {share:.0%} of the elements were set to one value, {values[top]:.4g}, not to 0",
                "Dropout sets each dropped element to 0, not to another value, and scales the survivors by "
                "1 / (1 - rate).")
    nonzero = (x != 0) & (out != 0)
    scale = out[nonzero] / np.asarray(x, np.float64)[nonzero]
    negated = float(np.mean(np.abs(scale + 1 / (1 - rate)) <= 1e-3 / (1 - rate))) if scale.size else 0.0
    if abs(negated - rate) < 0.1 and np.all(np.abs(np.abs(scale) - 1 / (1 - rate)) <= 1e-3 / (1 - rate)):
        return (f"at rate {rate}, nothing was zeroed: {negated:.0%} of the elements came back as -x / (1 - rate), "
                "the others as x / (1 - rate): the mask holds -1 where it should hold 0",
                "The mask is made of 0s and 1s: jnp.sign of a shifted uniform draw gives -1 and 1, which negates the "
                "dropped elements instead of zeroing them. Use u >= rate (a boolean mask) or jax.random.bernoulli("
                "key, 1 - rate, x.shape), then jnp.where(mask, x / (1 - rate), 0).")
    other = np.abs(scale - 1 / (1 - rate)) > 1e-3 * (1 / (1 - rate))
    _, repeats = np.unique(np.round(scale[other], 4), return_counts=True)
    if scale.size and float(np.mean(other)) > 0.2 and repeats.max() < 0.5 * other.sum():  # spread, not one factor
        low, high = np.quantile(scale[other], [0.05, 0.95])
        return (f"at rate {rate}, {float(np.mean(other)):.0%} of the elements not zeroed were scaled by something "
                f"other than 1 / (1 - rate) = {1 / (1 - rate):g} (from {low:.3g} to {high:.3g}): the mask is not "
                "made of 0s and 1s",
                "Multiply x by a mask of 0s and 1s (jax.random.bernoulli(key, 1 - rate, x.shape)), not by a soft or "
                "continuous one, then divide by 1 - rate.")
    return None


COARSE_COIN = Mistake(
    "ex1.coarse_coin", "a coin too coarse for small rates",
    "At a small rate the zeroed share was far from rate, while larger rates came out right: each element's coin "
    "cannot resolve it. Draw it as jax.random.bernoulli(key, 1 - rate, x.shape), or compare a float32 uniform "
    "with 1 - rate; a uniform drawn in bfloat16 or float16 (steps of 1/128 or 1/1024 near 1), or a rate rounded "
    "to a whole percentage, loses small rates.")


def _small_rate(ctx: Context) -> Verdict:
    """At SMALL_RATE, on about a million elements, the zeroed count is what a fair coin per element gives."""
    try:
        got = ctx.got("dropout/small_rate")
        zeros, size = int(got["zeros"]), int(got["size"])
    except (StudentError, Missing, KeyError, TypeError, ValueError):
        return PASS  # could not be observed: the rates above judged the coin
    expected, spread = SMALL_RATE * size, float(np.sqrt(size * SMALL_RATE * (1 - SMALL_RATE)))
    if abs(zeros - expected) <= 6 * spread:
        return _very_high_rate(ctx)
    return fail(f"dropout(key, x, {SMALL_RATE}) on {size:,} elements zeroed {zeros:,} of them ({zeros / size:.4%}); "
                f"a coin per element zeroes about {expected:,.0f} (± {spread:.0f}), {abs(zeros - expected) / spread:.0f} "
                f"standard deviations away, while the rates {', '.join(f'{r:g}' for r in RATES)} came out right",
                COARSE_COIN, fraction=1 - 1 / (len(RATES) + 1))


def _very_high_rate(ctx: Context) -> Verdict:
    """At VERY_HIGH_RATE, the number of survivors is what a coin per element gives (about 0.5% of x)."""
    try:
        out = np.asarray(ctx.got("dropout/very_high_rate"))
    except (StudentError, Missing, TypeError, ValueError):
        return PASS  # could not be observed (or raised: said in ex1.rescale)
    x = _x(ctx)
    if out.shape != x.shape or not np.all(x != 0):
        return PASS
    kept, keep = int(np.count_nonzero(out)), 1 - VERY_HIGH_RATE
    expected, spread = keep * x.size, float(np.sqrt(x.size * keep * VERY_HIGH_RATE))
    if abs(kept - expected) <= 6 * spread:
        return _scalar_zeros(ctx)
    return fail(f"dropout(key, x, {VERY_HIGH_RATE}) on {x.size:,} elements kept {kept:,} of them, where a coin per "
                f"element keeps about {expected:,.0f} (± {spread:.0f}), while the rates "
                f"{', '.join(f'{r:g}' for r in RATES)} came out right", HINT_HIGH_RATE,
                fraction=1 - 1 / (len(RATES) + 1))


def _scalar_zeros(ctx: Context) -> Verdict:
    """On a 0-d x at rate 0.5 with SCALAR_KEYS keys (``dropout/scalars``), about half the calls give 0, as a coin
    per call does; a count near rate ** 2 of them is a mask drawn again when it dropped everything."""
    try:
        got = np.asarray(ctx.got("dropout/scalars"), np.float64).reshape(-1)
    except (StudentError, Missing, TypeError, ValueError):
        return PASS  # not observed (a 0-d x that fails is charged in ex1.per_element)
    n, rate = got.size, 0.5
    if n != SCALAR_KEYS:
        return PASS  # the few calls made one key at a time tell too little
    zeros = int(np.sum(got == 0))
    if zeros in (0, n):  # the same for every key: what the key does is judged in the key checks
        return PASS
    spread = float(np.sqrt(n * rate * (1 - rate)))
    if abs(zeros - rate * n) <= 5 * spread:
        return PASS
    said = (f"dropout(key, x, {rate}) on a 0-d x with {n} keys gave 0 for {zeros} of them ({zeros / n:.3f}), where a "
            f"coin per element zeroes about {rate * n:.0f} (± {spread:.0f}), while on arrays of many elements every "
            "rate came out right")
    squared = float(np.sqrt(n * rate ** 2 * (1 - rate ** 2)))
    if abs(zeros - rate ** 2 * n) <= 4 * squared:
        return fail(f"{said}; measured: that is rate ** 2 = {rate ** 2:g}, the chance that two draws both drop it: a "
                    "mask that dropped every element was drawn again", ALL_DROPPED_REDRAWN,
                    fraction=1 - 1 / (len(RATES) + 1))
    return fail(said, "Zero each element independently with probability rate, whatever x's size: one coin per "
                "element, jax.random.bernoulli(key, 1 - rate, x.shape), and no other draw.",
                fraction=1 - 1 / (len(RATES) + 1))


ALL_DROPPED_REDRAWN = Mistake(
    "ex1.all_dropped_redrawn", "a mask that dropped everything drawn again",
    "Each element is zeroed with probability rate, independently of the others: a mask that happens to drop every "
    "element is a valid draw (likely on a small x) and must be kept. Drawing again when nothing survived makes "
    "small inputs survive more often than 1 - rate; drop the redraw.")


def _biased(x: np.ndarray, fractions: list[float], variances: list[float]) -> Verdict:
    """Each rate's zeroed fraction was within its tolerance; together they may still be off the same way.

    A fair coin's fractions scatter around the rates both ways; off by the same amount at every rate, far beyond
    that scatter (6 standard deviations of the sum), is a threshold that is off by a step."""
    offsets = np.asarray(fractions) - np.asarray(RATES)
    z = float(np.sum(offsets)) / float(np.sqrt(np.sum(variances)))
    if abs(z) <= 6 or not (np.all(offsets > 0) or np.all(offsets < 0)):
        return PASS
    shown = ", ".join(f"{f:.4f} at rate {r}" for f, r in zip(fractions, RATES))
    return fail(f"dropout(key, x, rate) on x of shape {x.shape} zeroed {shown}: {np.mean(offsets):+.4f} off rate "
                f"at every rate, {abs(z):.0f} standard deviations of what a fair coin per element gives",
                "Each element must be zeroed with probability exactly rate: a comparison that is off by a step "
                "(> where >= belongs, or a whole-number percentage) zeroes a little more or less at every rate. "
                "jax.random.bernoulli(key, 1 - rate, x.shape) gives the keep mask.", fraction=0.5)


def _verdict_mistake(ctx: Context, check: str) -> str:
    try:
        return ctx.verdict(check).mistake
    except StudentError:
        return ""


SURVIVORS_MOVED = Mistake(
    "ex1.survivors_moved", "survivors that are other elements of x, in places not their own",
    "Each survivor must stay in its own place: out[i] is x[i] / (1 - rate) or 0. Here the survivors are x's "
    "elements, rightly scaled, moved to other places: x was flattened in one order and the result reshaped back in "
    "the other (ravel(order='F') then reshape in C order, or the reverse). Keep one order (the default, C) or draw "
    "the mask at x.shape and apply it elementwise, with no flattening at all.")


def _survivors_moved(ctx: Context, x: np.ndarray) -> str:
    """Words for dropout outputs whose survivors are x's elements scaled by 1 / (1 - rate), each in another place:
    read back in the order that undoes a column-major flatten reshaped in row-major order (or the reverse), at
    every rate; "" otherwise."""
    if x.ndim < 2 or min(x.shape) < 2:
        return ""
    for words, move, _back in npref.ORDER_SWAPS:
        fits = True
        for rate in RATES:
            try:
                out = np.asarray(ctx.got(f"dropout/rate{rate}"), dtype=np.float64)
            except (StudentError, Missing):
                return ""
            if out.shape != x.shape:
                return ""
            moved = move(x)
            kept = out != 0
            if not kept.any() or not np.allclose(out[kept] / moved[kept], 1 / (1 - rate), rtol=1e-5):
                fits = False
                break
        if fits:
            return (f"every survivor is x's element {words}, times 1 / (1 - rate), at every rate: the mask was "
                    "applied to x with its elements moved")
    return ""


@_shape_guard
def rescale(ctx: Context) -> Verdict:
    """Survivors are scaled by exactly 1 / (1 - rate)."""
    x = _x(ctx)
    wrong, medians, judged = [], [], 0
    holds = {NO_RESCALE: 0, DIV_RATE: 0, MUL_KEEP: 0, FLOORED: 0}
    # 1 / (the fraction the call's mask kept), counted over the whole array or over each row (x is 2-D); a mask that
    # kept exactly 1 - rate cannot tell that from the right factor
    kept_fraction, told_apart = {"the whole array": 0, "each row": 0}, True
    for rate in RATES:
        out = np.asarray(ctx.got(f"dropout/rate{rate}"), dtype=np.float64)
        kept = _mask(ctx, f"dropout/rate{rate}")
        if not kept.any():
            continue
        judged += 1
        ratio = out[kept] / x[kept]
        expected = 1.0 / (1.0 - rate)
        # A variant is named only when it holds at every rate, the right ones included: 1 // (1 - rate) is right
        # at rate 0.5 and equals "no rescaling" at rate 0.1.
        for hint, value in ((NO_RESCALE, 1.0), (DIV_RATE, 1 / rate), (MUL_KEEP, 1 - rate),
                            (FLOORED, float(np.floor(expected + 1e-9)))):
            holds[hint] += bool(np.allclose(ratio, value, rtol=1e-4))
        per_row = kept.shape[-1] / np.maximum(kept.sum(axis=-1, keepdims=True), 1)
        for what, factor in (("the whole array", kept.size / kept.sum()),
                             ("each row", np.broadcast_to(per_row, x.shape)[kept])):
            kept_fraction[what] += bool(np.allclose(ratio, factor, rtol=1e-4))
        told_apart &= abs(kept.mean() - (1 - rate)) >= 1e-9
        if np.allclose(ratio, expected, rtol=1e-5):
            continue
        median = float(np.median(ratio))
        low, high = float(np.min(ratio)), float(np.max(ratio))
        spread = f" (factors from {low:.4g} to {high:.4g}: not one factor)" if high - low > 1e-3 * abs(median) else ""
        medians.append(median)
        wrong.append(f"rate {rate}: survivors scaled by {median:.5g}{spread}, expected {expected:.5g}")
    if not wrong:
        high = _high_rate(ctx, x)
        if high:
            return fail(high, HINT_HIGH_RATE, fraction=1 - 1 / (len(RATES) + 1))
        scalar = _scalar_unscaled(ctx, x)
        if scalar and ctx.passed("ex1.per_element") and ctx.passed("ex1.zero_fraction"):
            return fail(scalar[0], scalar[1], fraction=1 - 1 / (len(RATES) + 1))
        negative = _negative_inputs(ctx)
        return fail(negative, HINT_NEGATIVE, fraction=0.5) if negative else PASS
    hints = [hint for hint, count in holds.items() if count == judged]
    hint = hints[0] if len(hints) == 1 else "Scale every surviving element by 1 / (1 - rate)."
    message = "; ".join(wrong)
    # named only where it holds at every rate (so every rate kept something)
    counted = next((what for what, count in kept_fraction.items() if count == len(RATES)), "") if told_apart else ""
    if not hints and counted:
        return fail(f"{message}; measured: at every rate the survivors are scaled by 1 / (the fraction of {counted} "
                    "that this call's mask kept), not by 1 / (1 - rate)", SCALED_BY_FRACTION_KEPT,
                    fraction=1 - len(wrong) / len(RATES))
    off = [r for r in RATES if any(w.startswith(f"rate {r}:") for w in wrong)]
    if all(abs(m * r - 1) <= 1e-4 for m, r in zip(medians, off)) and _verdict_mistake(ctx, "ex1.zero_fraction") \
            == SOME_RATES_KEPT.id:
        return fail(f"{message}; measured: at rate {', '.join(map(str, off))} the survivors are scaled by 1 / rate, "
                    "as for a keep probability of rate, where the other rates are right", SOME_RATES_KEPT,
                    fraction=1 - len(wrong) / len(RATES))
    rounded = _rounded_survivors(ctx, x, off)
    if rounded:
        return fail(f"{message}; measured: {rounded}", SIXTEEN_BIT_SCALE, fraction=1 - len(wrong) / len(RATES))
    skipped = _untouched_rows(ctx)
    if skipped:
        return fail(f"{message}; measured: {skipped}", ROWS_SKIPPED, fraction=1 - len(wrong) / len(RATES))
    constant = _constant_survivors(ctx)
    if constant:
        return fail(f"{message}; measured: {constant}", SURVIVORS_CONSTANT, fraction=1 - len(wrong) / len(RATES))
    differ = parameters_words(ctx, "dropout", reordered_only=True)
    if differ:
        return fail(f"{message}; measured: {differ}", PARAMETERS, fraction=1 - len(wrong) / len(RATES))
    moved = _survivors_moved(ctx, x)
    if moved:
        return fail(f"{message}; measured: {moved}", SURVIVORS_MOVED, fraction=1 - len(wrong) / len(RATES))
    inverse = _survivors_inverse(ctx, x)
    if inverse:
        return fail(f"{message}; measured: {inverse}", HINT_INVERSE, fraction=1 - len(wrong) / len(RATES))
    if not hints and len(medians) > 1 and max(medians) - min(medians) < 1e-3 * abs(medians[0]):
        message += f"; the same factor {medians[0]:.5g} at every rate: the scale does not follow rate"
    used = _rate_used(ctx)
    if used is not None and used[1] is not None:
        return fail(f"{message}; {used[0]}", used[1], fraction=1 - len(wrong) / len(RATES))
    law = _scale_law(off, medians) if not hints and len(off) == len(RATES) and "not one factor" not in message else ""
    return fail(message + (f"; measured: {law}" if law else ""), hint, fraction=1 - len(wrong) / len(RATES))


SCALED_BY_FRACTION_KEPT = Mistake(
    "ex1.scaled_by_fraction_kept", "survivors scaled by the fraction one mask happened to keep",
    "Inverted dropout scales the survivors by the fixed factor 1 / (1 - rate), the keep probability's inverse. The "
    "fraction a mask happens to keep varies from call to call around 1 - rate; dividing by it makes the scale "
    "random, and the output's expectation is then no longer x.")


SIXTEEN_BIT_SCALE = Mistake(
    "ex1.scale_in_sixteen_bits", "survivors scaled in a 16-bit float",
    "The survivors come out rounded to a 16-bit float (the message says which): compute x / (1 - rate) in x's own "
    "dtype, float32. bfloat16 and float16 keep 3 or 4 significant digits, so every survivor is off by up to a few "
    "tenths of a percent, whatever the rate.")


def _rounded_survivors(ctx: Context, x: np.ndarray, rates: list[float]) -> str:
    """Words for survivors that, at every rate in ``rates``, lie within a 16-bit float's rounding of x / (1 - rate),
    erring both ways, and are what that type gives: x / (1 - rate) rounded to it, or x and 1 / (1 - rate) each
    rounded to it and multiplied (XLA may keep the product wide); "" otherwise."""
    kinds, worst = None, 0.0
    for rate in rates:
        kept = _mask(ctx, f"dropout/rate{rate}")
        got = np.asarray(ctx.got(f"dropout/rate{rate}"), np.float64)[kept]
        want = x[kept] / (1.0 - rate)
        off = rounding_error(got, want)
        if off is None or not (np.any(got > want) and np.any(got < want)):
            return ""
        narrow = sixteen_bit(got)
        fits = {kind for kind in SIXTEEN_BIT_MANTISSAS if narrow == kind or np.allclose(
            got, np.float32(rounded_to(x[kept], kind)) * np.float32(rounded_to(1.0 / (1.0 - rate), kind)),
            rtol=1e-6, atol=0)}
        kinds = fits if kinds is None else kinds & fits
        worst = max(worst, off)
    if not kinds or len(kinds) != 1:
        return ""
    kind = kinds.pop()
    return (f"every survivor is within {worst:.2%} of x / (1 - rate), erring both ways, as {kind} gives it (the scaled "
            f"value, or x and its scale, rounded to {kind}): that is {SIXTEEN_BIT_WORDS}, where float32 keeps 7")


def _scale_law(rates: list[float], scales: list[float]) -> str:
    """Words for survivors' scales that follow one law in rate at every rate: 1 / (a + b rate) or a + b rate,
    a and b fitted (the right law is 1 / (1 - rate)), with what the law says when it is a known slip; ""
    when neither fits to 1e-4."""
    r, s = np.asarray(rates, np.float64), np.asarray(scales, np.float64)
    if r.size < 3 or np.any(s == 0):
        return ""
    basis = np.stack([np.ones_like(r), r], axis=1)
    for reciprocal, y in ((True, 1 / s), (False, s)):
        (a, b), *_ = np.linalg.lstsq(basis, y, rcond=None)
        if np.max(np.abs(basis @ (a, b) - y)) > 1e-4 * np.max(np.abs(y)):
            continue
        a, b = (0.0 if abs(a) < 1e-6 else float(a)), (0.0 if abs(b) < 1e-6 else float(b))
        times = "" if abs(abs(b) - 1) < 1e-4 else f"{abs(b):.4g} "
        term = f"{a:.4g} {'-' if b < 0 else '+'} {times}rate" if b else f"{a:.4g}"
        law = f"1 / ({term})" if reciprocal else term
        words = f"at every rate the survivors' scale is {law}, where 1 / (1 - rate) is right"
        if reciprocal and abs(b + 1) < 1e-4 and abs(a - 1) >= 1e-4:
            return (f"{words}: {a - 1:+.3g} added to 1 - rate in the denominator (an eps guard? 1 - rate is never 0 "
                    "for a rate below 1, and the scale must be exactly its inverse)")
        if reciprocal and abs(b - 1) < 1e-4 and abs(a - 1) < 1e-4:
            return f"{words}: 1 + rate where 1 - rate belongs (a sign)"
        if not reciprocal and abs(b - 1) < 1e-4 and abs(a - 1) < 1e-4:
            return f"{words}: 1 + rate is the first-order expansion of 1 / (1 - rate), not the scale itself"
        return words
    return ""


HINT_HIGH_RATE = ("dropout takes any rate in [0, 1): near 1 too, each element is zeroed with probability rate and "
                  "each survivor scaled by 1 / (1 - rate) (20 at rate 0.95, 200 at 0.995). No upper limit below 1 in "
                  "a check, no shortcut that returns zeros above some rate, and no formula that holds for small "
                  "rates only.")


def _scalar_unscaled(ctx: Context, x: np.ndarray) -> tuple[str, Mistake] | None:
    """Words and the mistake for a dropout whose calls on a 0-d x (x[0, 0], rate 0.5, SCALAR_KEYS keys) returned
    values other than 0 and 2 x: x itself for every key is a 0-d x left alone, else its survivor unscaled; None when
    each was one of them (or this was not observed: a 0-d x that fails is not judged)."""
    if not ctx.student.observed("dropout/scalars"):
        return None
    try:
        got = np.asarray(ctx.got("dropout/scalars"), np.float64).reshape(-1)
    except (StudentError, Missing, TypeError, ValueError):
        return None
    x0 = float(x.reshape(-1)[0])
    if x0 == 0 or got.size not in (SCALAR_KEYS, SCALAR_CALLS):
        return None
    as_is = int(np.sum(np.isclose(got, x0, rtol=1e-6, atol=0)))
    other = int(np.sum(~np.isclose(got, 0.0, rtol=0, atol=0) & ~np.isclose(got, 2 * x0, rtol=1e-5, atol=0)))
    if other == 0:
        return None
    if as_is == got.size:
        return (f"for a 0-d x ({x0:.4g}), dropout(key, x, 0.5) returned x itself for every one of {got.size} keys: "
                "nothing dropped and nothing scaled, where the larger arrays tried, of every rank, were dropped and "
                "scaled"), SMALL_SKIPPED
    also = f" ({as_is} of them x itself, kept but not scaled)" if as_is else ""
    return (f"for a 0-d x ({x0:.4g}), dropout(key, x, 0.5) with {got.size} keys gave {other} values that are "
            f"neither 0 nor 2 x = {2 * x0:.4g}{also}, where on arrays of any rank every survivor came out "
            "scaled"), SCALAR_UNSCALED


SMALL_SKIPPED = Mistake(
    "ex1.small_input_left_alone", "a single-element x returned as it is",
    "Dropout acts on an x of any size: a single element (a 0-d x) too is dropped with probability rate, and kept "
    "as x / (1 - rate) otherwise. Return x as it is only when train is False or rate is 0, never on a test of "
    "x's size or rank (such as an expected number of drops, rate * x.size, below one).")


SCALAR_UNSCALED = Mistake(
    "ex1.scalar_unscaled", "a 0-d x whose survivor is not scaled",
    "Dropout acts on an x of any shape, a 0-d one (a single number) too: a kept element is x / (1 - rate) there as "
    "everywhere. A branch of its own for scalars must scale as the general one does; simpler, draw the mask with "
    "x.shape (() for a scalar) and keep one code path.")


def _high_rate(ctx: Context, x: np.ndarray) -> str:
    """Words for a dropout right at the usual rates that, at HIGH_RATE or VERY_HIGH_RATE, raises or scales the
    survivors otherwise; "" when it is right there (or this was not observed). How many survive is judged in
    ex1.zero_fraction."""
    usual = ", ".join(f"{r:g}" for r in RATES)
    for name, rate in (("dropout/high_rate", HIGH_RATE), ("dropout/very_high_rate", VERY_HIGH_RATE)):
        if not ctx.student.observed(name):
            continue
        try:
            out = np.asarray(ctx.got(name), np.float64)
        except StudentError as exc:
            return (f"dropout(key, x, {rate}) raised {exc.error.summary()}, where the rates {usual} came out right: "
                    "the contract allows any rate with 0 <= rate < 1")
        except (Missing, TypeError, ValueError):
            continue
        if out.shape != x.shape:
            return f"dropout(key, x, {rate}) returned shape {out.shape}, expected {x.shape}"
        kept = out != 0  # (the share zeroed is ex1.zero_fraction's, judged at the usual rates)
        if kept.any():  # (none kept: the share zeroed is wrong, said in ex1.zero_fraction)
            ratio = out[kept] / x[kept]
            if not np.allclose(ratio, 1 / (1 - rate), rtol=1e-4):
                return (f"dropout(key, x, {rate}) scaled the survivors by {float(np.median(ratio)):.5g}, where "
                        f"1 / (1 - rate) is {1 / (1 - rate):.5g}, and the rates {usual} came out right")
    return ""


HINT_NEGATIVE = ("Dropout works on values of any sign: each survivor is x / (1 - rate), negative ones too, and "
                 "nothing else changes x (no clamp, abs or ReLU inside dropout: the ReLU belongs to the layer before "
                 "it).")


def _negative_inputs(ctx: Context) -> str:
    """Words for a dropout that is right on x (all positive) and, with the same key and rate 0.5, does not give -1
    times that output on -x; "" when it does (or this was not observed)."""
    if not ctx.student.observed("dropout/negated"):
        return ""
    try:
        got = np.asarray(ctx.got("dropout/negated"), np.float64)
    except StudentError as exc:
        return (f"dropout(key, -x, 0.5), every element negative, raised {exc.error.summary()}, where on x it "
                "returned the right output")
    except (TypeError, ValueError):
        return ""
    try:
        again = np.asarray(ctx.got("dropout/again"), np.float64)
    except (StudentError, TypeError, ValueError):
        return ""
    want = -np.asarray(ctx.got("dropout/rate0.5"), np.float64)
    if array_mismatch(again, -want, rtol=0, atol_scale=0) is not None:
        return ""  # the same key and x gave another output: the negated call says nothing (charged elsewhere)
    problem = array_mismatch(got, want)
    if problem is None:
        return ""
    kept = want != 0
    zeroed = float(np.mean(got[kept] == 0)) if kept.any() and got.shape == want.shape else 0.0
    what = f": {zeroed:.0%} of the survivors came back as 0" if zeroed > 0.5 else ""
    return (f"on x (every element positive) the output is right, and on -x with the same key and rate 0.5 it is not "
            f"-1 times that output: {problem}{what}: negative values are treated otherwise than positive ones")


HINT_INVERSE = ("The survivors came back as a number divided by x, where x divided by 1 - rate belongs: the "
                "division's operands are the other way round (jnp.divide(a, b) is a / b). Return x / (1 - rate) "
                "for the kept elements.")


def _survivors_inverse(ctx: Context, x: np.ndarray) -> str:
    """Words for survivors that are c / x, one c at each rate (named when c is 1 - rate or its inverse at every
    rate); "" otherwise."""
    numerators = []
    for rate in RATES:
        out = np.asarray(ctx.got(f"dropout/rate{rate}"), np.float64)
        kept = _mask(ctx, f"dropout/rate{rate}")
        if out.shape != x.shape or kept.sum() < 2:
            return ""
        product = out[kept] * x[kept]
        c = float(np.median(product))
        if c == 0 or not np.allclose(product, c, rtol=1e-3):
            return ""
        numerators.append(c)
    shown = ", ".join(f"{c:.4g} / x at rate {r}" for c, r in zip(numerators, RATES))
    for words, values in (("(1 - rate) / x", [1 - r for r in RATES]), ("1 / ((1 - rate) x)",
                                                                       [1 / (1 - r) for r in RATES])):
        if np.allclose(numerators, values, rtol=1e-3):
            return f"every survivor came back as {words} ({shown}), not x / (1 - rate)"
    return f"every survivor came back as a number divided by x ({shown}), not x / (1 - rate)"


@_shape_guard
def identity(ctx: Context) -> Verdict:
    """train=False and rate=0 return x unchanged."""
    x = _x(ctx)
    problems = []
    for name, label in (("dropout/eval", "dropout(key, x, 0.5, False)"), ("dropout/rate0", "dropout(key, x, 0.0)")):
        problem = array_mismatch(ctx.got(name), x, rtol=0, atol_scale=0)
        if problem:
            problems.append(f"{label} is not x: {problem}")
    if not problems:
        return PASS
    fraction, hint = 1 - len(problems) / 2, HINT_IDENTITY
    if len(problems) == 1 and problems[0].startswith("dropout(key, x, 0.0)") and (acted := _rate0_acted(ctx)):
        problems.append(acted[0])
        hint = acted[1] or HINT_IDENTITY
    elif array_mismatch(ctx.got("dropout/eval"), ctx.got("dropout/rate0.5"), rtol=0, atol_scale=0) is None:
        hint = TRAIN_IGNORED
        problems.append("with train=False the output equals the train-mode output for the same key")
    else:
        factor = _uniform_scale(np.asarray(ctx.got("dropout/eval"), dtype=np.float64), x)
        if factor is not None:
            problems.append(f"with train=False every element is x times {factor:.4g}")
            if np.isclose(factor, 0.5, rtol=1e-5):
                hint = ("With train=False dropout(key, x, 0.5, False) returned x * (1 - rate): that is the test-time "
                        "scaling of non-inverted dropout. Inverted dropout scales the survivors in train mode "
                        "instead, so in eval mode it returns x itself.")
    return fail("; ".join(problems), hint, fraction=fraction)


def _uniform_scale(out: np.ndarray, x: np.ndarray) -> float | None:
    """The one factor ``out`` is ``x`` scaled by, if it is (and not 1); None otherwise."""
    if out.shape != x.shape or not np.all(x != 0):
        return None
    ratio = out / x
    factor = float(np.median(ratio))
    if factor == 1.0 or not np.allclose(ratio, factor, rtol=1e-5):
        return None
    return factor


@_shape_guard
def per_element(ctx: Context) -> Verdict:
    """Each element gets its own coin flip: no mask shared across the batch or across units."""
    kept = _mask(ctx, "dropout/rate0.5")
    if (kept == kept[:1]).all():
        return fail("all rows of the mask are identical", SHARED_ROWS)
    if (kept == kept[:, :1]).all():
        return fail("within each row, all elements share one coin flip", SHARED_COLS)
    distinct_rows = len({row.tobytes() for row in kept})
    if distinct_rows < 0.9 * kept.shape[0]:
        return fail(f"only {distinct_rows} distinct masks among {kept.shape[0]} rows",
                    "Draw one coin flip per element: jax.random.bernoulli(key, 1 - rate, x.shape).")
    shared = _neighbours_agree(kept)
    if shared:
        return fail(shared, NEIGHBOURS_SHARE)
    paired = _distant_pairs(kept)
    if paired:
        return fail(paired, PAIRED_COINS)
    shapes = _other_shapes(ctx)
    if shapes:
        skipped = _untouched_rows(ctx)
        if skipped:
            return fail(f"{shapes}; measured on x: {skipped}", ROWS_SKIPPED, fraction=0.5)
        return fail(shapes, OTHER_SHAPES, fraction=0.5)
    skipped = _passed_through(ctx)
    if skipped:
        return fail(skipped, ELEMENTS_SKIPPED, fraction=0.5)
    deeper = _shared_in_rank3(ctx)
    if deeper:
        return fail(deeper, NEIGHBOURS_SHARE, fraction=0.5)
    # Independent coins drop a binomial number of elements: with n = 32768, exactly round(rate * n) in one
    # call happens about once in 200 at rate 0.5, in all five calls below practically never.
    n = kept.size
    counts = [(rate, int(np.sum(~_mask(ctx, name))))
              for name, rate in [*((f"dropout/rate{r}", r) for r in RATES), ("dropout/other_key", 0.5)]]
    if all(abs(dropped - rate * n) <= 1 for rate, dropped in counts):
        shown = ", ".join(f"{dropped} at rate {rate}" for rate, dropped in counts)
        return fail(f"every call zeroed exactly round(rate * n) of the n = {n} elements ({shown}): a "
                    f"fixed count, where independent coin flips vary{_smallest_dropped(ctx)}", FIXED_COUNT)
    return PASS


OTHER_SHAPES = Mistake(
    "ex1.other_shapes", "a dropout that works on 2-D batches of several rows only",
    "Dropout acts on each element of x whatever its shape (a 0-d x, a vector, a batch of sequences, a batch of one "
    "example, more rows than columns): "
    "draw the mask with x.shape itself and return an array of x's shape, without reshaping x to 2-D, reading its "
    "axes one by one or skipping small batches.")


def _other_shapes(ctx: Context) -> str:
    """Words for a dropout that, at rate 0.5, does not return x's shape for an x of another shape than the usual 2-D
    one (``other_shapes``), or raises there, or zeroes nothing there; "" when it does, or this was not observed."""
    problems = []
    for name, given in other_shapes(np.asarray(_x(ctx))).items():
        name, shape = f"dropout/{name}", given.shape
        if not ctx.student.observed(name):
            continue
        try:
            got = ctx.got(name)
        except StudentError as exc:
            problems.append(f"for x of shape {shape} it raised {exc.error.summary()}")
            continue
        returned = np.shape(got) if not isinstance(got, dict) else "a container"
        if returned != shape and len(shape) == 2 and returned == (min(shape[0], shape[1]), shape[1]):
            problems.append(f"for x of shape {shape} it returned shape {returned}: the rows were cut to the length "
                            f"of the last axis, x.shape[-1] = {shape[1]}, as pairing the rows with something that long "
                            "does (zip stops at the shorter of the two)")
        elif returned != shape:
            problems.append(f"for x of shape {shape} it returned shape {returned}")
        elif given.ndim and np.array_equal(np.asarray(got), given):  # a 0-d x's one element: see _scalar_unscaled
            problems.append(f"for x of shape {shape} it returned x unchanged, nothing zeroed")
    return "dropout(key, x, 0.5) is right for a 2-D x of many rows, but " + "; ".join(problems) if problems else ""


def _passed_through(ctx: Context) -> str:
    """Words for a dropout that, on the vector of a prime number of elements, returned some elements as they came
    (neither zeroed nor scaled by 1 / (1 - rate), which every element of inverted dropout is); "" otherwise."""
    given = other_shapes(np.asarray(_x(ctx), dtype=np.float64))["prime"]
    if not ctx.student.observed("dropout/prime"):
        return ""
    try:
        got = np.asarray(ctx.got("dropout/prime"), dtype=np.float64)
    except (StudentError, TypeError, ValueError):
        return ""
    if got.shape != given.shape:
        return ""
    same = np.flatnonzero(np.isclose(got, given, rtol=1e-6, atol=0) & (given != 0))
    if same.size == 0 or same.size > given.size // 4:
        return ""
    n = given.size
    if same[-1] == n - 1 and same.size == same[-1] - same[0] + 1:
        where = f"the last {same.size}"
    elif same[0] == 0 and same.size == same[-1] + 1:
        where = f"the first {same.size}"
    else:
        where = f"{same.size} (the first at index {same[0]})"
    return (f"for a vector of {n} elements (a prime number) dropout(key, x, 0.5) returned {where} of them as they "
            "came, neither zeroed nor scaled by 1 / (1 - rate) = 2, where each element of the 2-D x was one or the "
            "other")


ELEMENTS_SKIPPED = Mistake(
    "ex1.elements_skipped", "elements left out of dropout where x does not split evenly",
    "Every element of x gets its own coin, whatever x's size: a dropout that cuts x into equal parts (shards, "
    "rows of a reshape, blocks) leaves out the x.size % n elements that do not fill a part. Draw one mask of "
    "x.shape, jax.random.bernoulli(key, 1 - rate, x.shape), or pad x to a multiple of n and cut the pad off "
    "after.")


def _shared_in_rank3(ctx: Context) -> str:
    """Words for a dropout whose mask on a 3-D x (a batch of sequences) shares coins along an axis, where on the
    2-D x each element has its own; "" otherwise, or where that call was not observed or failed (told above)."""
    given = other_shapes(np.asarray(_x(ctx)))["rank3"]
    if not ctx.student.observed("dropout/rank3"):
        return ""
    try:
        got = np.asarray(ctx.got("dropout/rank3"))
    except StudentError:
        return ""
    if got.shape != given.shape:
        return ""
    kept, live = got != 0, given != 0
    independent = _independent_agreement(kept, live)
    for axis in range(kept.ndim):
        agree = _agreement_along(kept, live, axis)
        if agree is not None and agree - independent > 0.05:
            return (f"dropout(key, x, 0.5) draws one coin per element on a 2-D x, but for x of shape {given.shape} "
                    f"neighbouring elements along axis {axis} were both kept or both dropped in {agree:.0%} of the "
                    f"pairs, where independent coins agree in {independent:.0%}: the mask has fewer axes than x "
                    "and is broadcast along that one")
    return ""


NEIGHBOURS_SHARE = Mistake(
    "ex1.neighbours_share_coins", "neighbouring elements sharing coin flips",
    "Neighbouring elements were kept or dropped together more often than independent coins allow (the message "
    "measures it): draw one coin per element with the full shape, jax.random.bernoulli(key, 1 - rate, x.shape), "
    "not a smaller mask repeated or broadcast to it.")


def _independent_agreement(kept: np.ndarray, live: np.ndarray) -> float:
    """How often two independent coins at the mask's rate (its kept fraction over the ``live`` elements, those whose
    input is not 0) agree: 1 - 2 p (1 - p)."""
    p = float(np.mean(kept[live])) if live.any() else 0.0
    return 1 - 2 * p * (1 - p)


def _agreement_along(kept: np.ndarray, live: np.ndarray, axis: int) -> float | None:
    """How often neighbours along ``axis`` are both kept or both dropped, over the pairs whose elements are both
    ``live``; None where there is no such pair."""
    a, b = np.moveaxis(kept, axis, 0)[:-1], np.moveaxis(kept, axis, 0)[1:]
    both = np.moveaxis(live, axis, 0)[:-1] & np.moveaxis(live, axis, 0)[1:]
    return float(np.mean((a == b)[both])) if both.any() else None


def _neighbours_agree(kept: np.ndarray) -> str:
    """Words for a mask whose neighbours (along the last axis, or the first) are both kept or both dropped far more
    often than independent coins are; "" when they agree as independent coins do."""
    live = np.ones_like(kept, dtype=bool)
    independent = _independent_agreement(kept, live)
    for axis, along in ((-1, "along the last axis"), (0, "along the first axis")):
        agree = _agreement_along(kept, live, axis)
        if agree is not None and agree - independent > 0.05:  # the estimate's spread is under 0.005 here
            a, b = np.moveaxis(kept, axis, 0)[:-1], np.moveaxis(kept, axis, 0)[1:]
            even, odd = float(np.mean(a[0::2] == b[0::2])), float(np.mean(a[1::2] == b[1::2]))
            pairs = (f"; elements 2k and 2k+1 agree in {even:.0%} of the pairs: one coin for each pair"
                     if even > 0.99 and odd < 0.9 else "")
            return (f"at rate 0.5, neighbouring elements {along} were both kept or both dropped in {agree:.0%} of "
                    f"the pairs, where independent coins agree in {independent:.0%}{pairs}")
    return ""


PAIRED_COINS = Mistake(
    "ex1.paired_coins", "coins of elements far apart made from one another",
    "Elements far apart in x had coins that depend on each other (the message gives the offset and how often the "
    "pairs agree): each element needs its own independent draw, jax.random.bernoulli(key, 1 - rate, x.shape), "
    "with no draw reused, reflected (1 - u) or shifted for another element.")


def _distant_pairs(kept: np.ndarray) -> str:
    """Words for a mask in which elements a fixed offset apart, in x's flattened order either way round, agree or
    disagree far more often than independent coins do (coins made in pairs: u and 1 - u, one draw reused); ""
    when no offset stands out.

    Every offset is measured at once from the autocorrelation of the centred mask (an FFT): for independent coins
    an offset's correlation spreads about 1 / sqrt(pairs), so one of at least 0.1 and 8 spreads is beyond chance."""
    n = kept.size
    for order, words in (("C", "row by row"), ("F", "column by column")):
        flat = kept.ravel(order=order).astype(np.float64)
        centred = flat - flat.mean()
        power = float(centred @ centred)
        if power == 0:
            return ""
        spectrum = np.fft.rfft(centred, 2 * n)
        lagged = np.fft.irfft(spectrum * np.conj(spectrum), 2 * n)[:n]
        pairs = n - np.arange(n)
        corr = lagged / pairs / (power / n)
        corr[0] = 0.0
        score = np.abs(corr) * np.sqrt(pairs)  # in spreads of independent coins' correlation
        score[np.abs(corr) < 0.1] = 0.0
        lag = int(np.argmax(score))
        if score[lag] > 8:  # beyond chance over every offset at once (about 4.5 spreads is the largest by chance)
            agree = float(np.mean(flat[:-lag] == flat[lag:]))
            independent = _independent_agreement(kept, np.ones_like(kept, dtype=bool))
            return (f"at rate 0.5, counting x's elements {words}, element i and element i + {lag} were both kept "
                    f"or both dropped in {agree:.0%} of the {n - lag} pairs, where independent coins agree in "
                    f"{independent:.0%}: their coins were made from one another")
    return ""


def _smallest_dropped(ctx: Context) -> str:
    """Words for masks that zero exactly the elements of x smallest in size (a threshold on |x|, not coins)."""
    size = np.abs(np.asarray(_x(ctx), np.float64))
    for rate in RATES:
        dropped = ~_mask(ctx, f"dropout/rate{rate}")
        if not dropped.any() or dropped.all() or size[dropped].max() > size[~dropped].min():
            return ""
    return "; and the zeroed elements are exactly the smallest in size, |x| below a threshold: a function of x"


@_shape_guard
def key_randomness(ctx: Context) -> Verdict:
    """Same key, same mask; different key, different mask; eagerly and under jit."""
    base = _mask(ctx, "dropout/rate0.5")
    if not np.array_equal(base, _mask(ctx, "dropout/again")):
        return fail("two calls with the same key gave different masks", HIDDEN_RNG)
    later = _state_kept(ctx)
    if later:
        return fail(later, STATE_KEPT)
    if _same_under_other_key(base, _mask(ctx, "dropout/other_key")):
        return fail("calls with two different keys gave (nearly) the same mask", IGNORES_KEY)
    try:
        jitted = _mask(ctx, "dropout/jit")
    except StudentError:  # dropout fails under jit: charged in ex1.jit
        return PASS
    if _same_under_other_key(jitted, _mask(ctx, "dropout/jit_other_key")):
        return fail("under jax.jit, two different keys gave the same mask", TRACE_TIME_RNG)
    return PASS


STATE_KEPT = Mistake(
    "ex1.state_between_calls", "dropout that depends on state other calls leave behind",
    "dropout must depend only on its arguments: no module-level mode flag, counter or cache that a call (of "
    "dropout or forward_with_dropout) changes. Whether to drop is the train argument, passed on each call.")


def _state_kept(ctx: Context) -> str:
    """Words for dropout(key, x, 0.5), asked again after every forward_with_dropout call, giving another output than
    its first call with the same arguments did; "" when it gives the same, or this was not observed."""
    try:
        if not ctx.student.has("dropout/after_forward"):
            return ""
        later = np.asarray(ctx.got("dropout/after_forward"), np.float64)
        first = np.asarray(ctx.got("dropout/rate0.5"), np.float64)
    except (StudentError, TypeError, ValueError):
        return ""
    if later.shape != first.shape or np.array_equal(later, first):
        return ""
    x = np.asarray(ctx.inputs["ex1"]["x"], np.float64)
    words = ("it returned x unchanged, dropping nothing" if later.shape == x.shape and np.array_equal(later, x)
             else f"{float(np.mean(later != first)):.0%} of the elements differ")
    return (f"dropout(key, x, 0.5) asked again with the same key and x, after the forward_with_dropout calls "
            f"(train=False among them), gave another output than its first call: {words}; it keeps state between "
            "calls")


def _same_under_other_key(mask: np.ndarray, other: np.ndarray) -> bool:
    """Two keys' masks agree where independent ones would not: they differ in under a fifth of the elements and in
    under 40% of the share two independent masks with the same kept fraction p differ in (2p(1-p)). A mask that
    keeps nearly everything (a wrong rate, charged in ex1.zero_fraction) differs little under any key."""
    differ, kept = float(np.mean(mask != other)), float(np.mean(mask))
    return differ < 0.2 and differ < 0.4 * 2 * kept * (1 - kept)


@_shape_guard
def jit_agrees(ctx: Context) -> Verdict:
    """dropout and forward_with_dropout give the same result under jax.jit, in train mode and with train=False,
    with no leaked tracers.

    When two eager calls of dropout with the same key already disagree, its
    randomness does not come from the key (charged in key_only_randomness) and
    no jitted result could match: that comparison is left out, so the mistake
    is charged once. A jitted call that fails is still charged here.
    """
    if container := _forward_container(ctx):
        return skip(f"not judged: {container} (charged in ex1.eval_forward)")
    problems = []
    pairs = [("forward/train", "forward/jit", "forward_with_dropout (train mode)")]
    ctx.got("dropout/jit")
    if np.array_equal(np.asarray(ctx.got("dropout/rate0.5")), np.asarray(ctx.got("dropout/again"))):
        pairs.insert(0, ("dropout/rate0.5", "dropout/jit", "dropout"))
    evaluated = [("dropout/eval", "dropout/jit_eval", "dropout (train=False)")]
    if ctx.passed("ex1.eval_forward"):  # else what the evaluation pass does wrong is charged there, once
        evaluated.append(("forward/eval", "forward/jit_eval", "forward_with_dropout (train=False)"))
    pairs += [pair for pair in evaluated if ctx.student.observed(pair[1])]
    for eager, jitted, label in pairs:
        problem = array_mismatch(ctx.got(jitted), ctx.got(eager))
        if problem:
            problems.append(f"{label}: jitted vs eager, {problem}")
    return fail("; ".join(problems), HINT_JIT) if problems else PASS


ONE_ROW = Mistake(
    "ex1.one_row_reshaped", "a batch of one example returned in another shape",
    "forward_with_dropout returns (B, 10) for any batch, B = 1 included: nothing may drop the batch axis "
    "(jnp.squeeze, x[0], ravel) or otherwise reshape the logits.")


def _one_row(ctx: Context, want: Any) -> str:
    """Words for forward_with_dropout(train=False) on the first example alone returning another shape than (1, 10),
    or other values than that example's row of the batch's output; "" otherwise, or when this was not observed."""
    if not ctx.student.has("forward/one_row"):
        return ""
    try:
        got = np.asarray(ctx.got("forward/one_row"), np.float64)
    except (StudentError, TypeError, ValueError):
        return ""
    row = np.asarray(want, np.float64)[:1]
    if got.shape != row.shape:
        values = " (the right values)" if got.size == row.size and array_mismatch(got.reshape(row.shape), row) is None \
            else ""
        return (f"train=False on a batch of one example (x of shape (1, 784)) returned shape {got.shape}{values}, "
                f"expected {row.shape}")
    problem = array_mismatch(got, row)
    return f"train=False on a batch of one example: {problem}" if problem else ""


X_UNREAD = Mistake(
    "ex1.x_unread", "an output that does not come from x",
    "forward_with_dropout must compute from its own x on every call: each layer takes what the layer before it "
    "computed inside this call, starting from x. A name from outside the function (a notebook cell's x, h or "
    "logits, a value computed once at import) read in its place gives every batch the same output.")


def _output_layer_unread(ctx: Context) -> str:
    """Words for train=False logits, shaped (B, 10), that stayed exactly the same when params['layer3'] (its w and b)
    was doubled, the other layers as given: the output layer's weights come from elsewhere; "" otherwise (logits
    that changed read them, whatever they compute), or when not observed."""
    if not ctx.student.has("forward/output_doubled"):
        return ""
    try:
        doubled, plain = (np.asarray(ctx.got(name), np.float64) for name in ("forward/output_doubled", "forward/eval"))
    except (StudentError, TypeError, ValueError):
        return ""
    b = np.shape(ctx.inputs["ex1"]["xb"])[0]
    if plain.shape != (b, 10) or doubled.shape != plain.shape or not np.any(plain != 0):
        return ""
    if array_mismatch(doubled, plain, rtol=0, atol_scale=0) is not None:  # it read them, whatever it computes
        return ""
    return ("measured: with params['layer3'] doubled (its w and b), train=False gave exactly the same logits, where "
            "the output layer's, h @ w + b, double: the output layer does not compute with the params it is given")


OUTPUT_LAYER_UNREAD = Mistake(
    "ex1.output_layer_not_from_params", "an output layer whose weights do not come from params",
    "forward_with_dropout's output layer is h @ params['layer3']['w'] + params['layer3']['b'], with the params "
    "passed in on this call: the logits measured here did not follow params['layer3'], so the weights come from "
    "elsewhere (a global params from a notebook cell, a helper that reads one, values kept from an earlier call). "
    "Pass params (or the layer) to every helper that computes a layer.")


def _x_unread(ctx: Context) -> str:
    """Words for train=False giving a batch of its first example alone exactly what it gave the whole batch
    (another x, the same output); "" otherwise."""
    if not ctx.student.has("forward/one_row"):
        return ""
    try:
        one, whole = (np.asarray(ctx.got(name), np.float64) for name in ("forward/one_row", "forward/eval"))
    except (StudentError, TypeError, ValueError):
        return ""
    if whole.ndim < 1 or whole.shape[0] < 2 or one.shape != whole.shape or not np.array_equal(one, whole):
        return ""
    return (f"measured: train=False gave a batch of one example (x of shape (1, 784)) exactly the {whole.shape} "
            f"output it gave the {whole.shape[0]}-example batch: the output does not come from x")


def _eval_kept(ctx: Context) -> tuple[str, Mistake | str] | None:
    """train=False on the batch's rows in reverse order, with the same params object, measured against the plain
    forward pass there: (words, hint) when it differs, the first batch's own output named as such; None when right
    or not observed."""
    try:
        got, want = ctx.got("forward/eval_reversed"), ctx.want("forward/eval_reversed")
    except (StudentError, Missing):
        return None
    problem = array_mismatch(got, want)
    if problem is None:
        return None
    words = f"train=False on the same batch with its rows in reverse order, and the same params object: {problem}"
    if array_mismatch(got, ctx.got("forward/eval"), rtol=0, atol_scale=0) is None:
        return (f"{words}; measured: it returned exactly the first batch's output, kept from the earlier call and "
                "found again by something the two calls share (the params, the batch's shape)", STALE)
    return words, HINT_EVAL_FORWARD


INPUT_CHANGED = Mistake(
    "ex1.input_changed", "x changed by the forward pass when it leaves [0, 1]",
    "forward_with_dropout runs the lesson's MLP on x as it is given, whatever its range: no rescaling (x / 255), "
    "clipping or normalising inside the model. Preparing the data belongs outside it, where it is done once.")


def _wide_input(ctx: Context) -> str:
    """Words for an evaluation pass right on the usual x (in [0, 1]) and not on x stretched to [-2, 2], with what
    it computed there when that is the plain pass of x / 255, of x clipped to [0, 1] or of x / max|x|; "" when it
    is right there too (or this was not observed)."""
    if not ctx.student.observed("forward/eval_wide"):
        return ""
    data = ctx.inputs["ex1"]
    wide = (np.asarray(data["xb"], np.float32) * np.float32(WIDE_SCALE) + np.float32(WIDE_SHIFT)).astype(np.float64)
    params = {name: {k: np.asarray(v, np.float64) for k, v in layer.items()} for name, layer in data["params"].items()}
    stretched = f"on x stretched to [-2, 2] (xb * {WIDE_SCALE:g} - {-WIDE_SHIFT:g})"
    try:
        got = np.asarray(ctx.got("forward/eval_wide"), np.float64)
    except StudentError as exc:
        return f"train=False raised {exc.error.summary()} {stretched}, where on x in [0, 1] it gave the plain pass"
    except (Missing, TypeError, ValueError):
        return ""
    problem = array_mismatch(got, npref.mlp(params, wide))
    if problem is None:
        return ""
    for words, changed in (("x / 255", wide / 255), ("x clipped to [0, 1]", np.clip(wide, 0, 1)),
                           ("x / max|x|", wide / np.max(np.abs(wide)))):
        if array_mismatch(got, npref.mlp(params, changed)) is None:
            return (f"train=False {stretched} gave the plain forward pass of {words}, where on x in [0, 1] it gave "
                    "the plain pass of x itself: x is changed when it leaves [0, 1]")
    return (f"train=False {stretched}: {problem}; on x in [0, 1] it gave the plain pass: something changes x, or "
            "the pass, when x leaves [0, 1]")


def eval_forward(ctx: Context) -> Verdict:
    """train=False (and rate=0) equals the plain forward pass; train mode is that pass with the two dropout calls
    it makes and nothing else; left out, rate is the API's default."""
    if container := _forward_container(ctx):
        return fail(container, FORWARD_CONTAINER, fraction=0.0)
    want = ctx.want("forward/eval")
    problems = []
    for name, label in (("forward/eval", "train=False"), ("forward/rate0", "rate=0.0, train=True")):
        problem = array_mismatch(ctx.got(name), want)
        if problem:
            problems.append(f"{label}: {problem}")
    if not problems:
        kept = _eval_kept(ctx)
        if kept:
            return fail(kept[0], kept[1], fraction=0.5)
        one_row = _one_row(ctx, want)
        if one_row:
            return fail(one_row, ONE_ROW, fraction=0.5)
        wide = _wide_input(ctx)
        if wide:
            return fail(wide, INPUT_CHANGED, fraction=0.5)
        elsewhere = _output_layer_unread(ctx)
        if elsewhere:
            return fail(elsewhere, OUTPUT_LAYER_UNREAD, fraction=0.5)
        return _train_mode(ctx) or _default_rate(ctx)
    fraction, hint = 1 - len(problems) / 2, HINT_EVAL_FORWARD
    got_eval, want_eval = np.asarray(ctx.got("forward/eval")), np.asarray(want)
    if (got_eval.shape == want_eval.shape and np.any(want_eval < 0)
            and array_mismatch(got_eval, np.maximum(want_eval, 0)) is None):
        hint = OUTPUT_RELU
        problems.append("train=False gave the plain forward pass's logits with every negative one set to 0")
    elif got_eval.shape == want_eval.shape and (words := next(
            (w for w, f in _ON_THE_LOGITS if array_mismatch(got_eval, f(np.asarray(want_eval, np.float64))) is None),
            None)):
        hint = OUTPUT_SOFTMAX
        problems.append(f"train=False gave the plain forward pass's logits turned into {words}")
    elif array_mismatch(ctx.got("forward/eval"), ctx.got("forward/train"), rtol=0, atol_scale=0) is None:
        hint = TRAIN_NOT_PASSED
        problems.append("train=False gave exactly the train-mode output for the same key")
    elif (len(problems) == 1 and problems[0].startswith("rate=0.0")
          and array_mismatch(ctx.got("forward/rate0"), ctx.got("forward/train"), rtol=0, atol_scale=0) is None):
        hint = RATE_NOT_PASSED
        problems.append("rate=0.0 gave exactly the output of rate=0.5 for the same key")
        if changed := _rates_changed(ctx):
            problems.append(changed)
    elif (len(problems) == 1 and problems[0].startswith("rate=0.0") and (acted := _rate0_acted(ctx))
          and acted[1] is not None):
        hint = acted[1]
        problems.append(f"and dropout itself, at rate 0.0, acted at an earlier call's rate (ex1.identity: "
                        f"{acted[0].removeprefix('measured: ')})")
    elif (moved := rearranged(ctx.got("forward/eval"), want)):
        hint = REARRANGED
        problems.append(f"measured: train=False gave {moved}")
    elif (unread := _x_unread(ctx)):
        hint = X_UNREAD
        problems.append(unread)
    elif (keyed := _eval_keyed(ctx)):
        hint = EVAL_RANDOM
        problems += [keyed] + ([masked] if (masked := _eval_masked(ctx)) else [])
    elif (masked := _eval_masked(ctx)):
        hint = EVAL_MASKED
        problems.append(masked)
    elif (other := _eval_variant(ctx)):
        hint = STOPPED_EARLY if other.startswith(STOPPED) else EVAL_OTHER_NET
        both = (not other.startswith(STOPPED) and ctx.student.has("forward/recomputed")
                and array_mismatch(ctx.got("forward/train"), ctx.got("forward/recomputed")) is not None)
        unrelued = "ReLU" in other and not both and _train_unrelued(ctx)
        if both or unrelued:  # train mode is not the lesson's MLP with its dropout calls either
            hint = OTHER_NETWORK
        problems.append(f"measured: train=False gave the plain forward pass {other}"
                        + ("; in train mode too the output is not the lesson's MLP with the dropout calls it made, so "
                           "the network differs in both modes" if both else "")
                        + (f"; in train mode too: {unrelued}" if unrelued else ""))
    elif (reshaped := _weights_rearranged(ctx)):
        hint = WEIGHTS_REARRANGED
        problems.append(f"measured: {reshaped}")
    elif (biases := _biases_measured(ctx)):
        words, hint = biases
        problems.append(f"measured: {words}")
    elif (elsewhere := _output_layer_unread(ctx)):
        hint = OUTPUT_LAYER_UNREAD
        problems.append(elsewhere)
    elif (activations := _activations_measured(ctx)):
        words, hint = activations
        problems.append(f"measured: {words}")
    else:
        given = _rates_given(ctx)
        if given and all(abs(r - (1 - RATES[0])) < 1e-6 for r in given):
            hint = KEEP_PROB_PASSED
        if changed := _rates_changed(ctx):
            problems.append(changed)
    return fail("forward_with_dropout vs the plain forward pass (32 examples): "
                + "; ".join(problems), hint, fraction=fraction)


EVAL_MASKED = Mistake(
    "ex1.eval_masked", "dropout masks applied with train=False",
    "With train=False forward_with_dropout is the plain forward pass: no mask anywhere. The message says how many "
    "masks the evaluation pass applied and which key they came from: check what the train=False path calls (a "
    "name rebound since, such as a forward function a later cell replaced with a dropout pass) and that train "
    "reaches every dropout call.")


def _eval_masked(ctx: Context) -> str:
    """Words for the masks train=False applied where a random draw met the data (observed when train=False and
    rate=0 gave different outputs); "" when none, or when they were not observed."""
    if not ctx.student.has("forward/eval_masks"):
        return ""
    try:
        masks = list(ctx.got("forward/eval_masks"))
    except (StudentError, TypeError):
        return ""
    if not masks:
        return ""
    shapes = ", ".join(str(tuple(m["shape"])) for m in masks)
    keys = ("from the key given" if all(m.get("from_key", True) for m in masks) else
            "from a key not computed from the key argument (made inside forward_with_dropout or kept from outside)")
    plain = array_mismatch(ctx.got("forward/rate0"), ctx.want("forward/eval")) is None
    return (f"measured: train=False applied {len(masks)} random mask(s) to the hidden values (shape {shapes}), drawn "
            f"{keys}" + (", while rate=0.0 gave the plain forward pass" if plain else ""))


EVAL_RANDOM = Mistake(
    "ex1.eval_random", "an evaluation pass that still draws random numbers",
    "With train=False the output must not depend on the key: dropout is off, and the pass is the plain forward "
    "pass, computed once (not an average of dropout passes, nor anything else drawn from the key).")
#: How ``_eval_variant`` words a pass that returned a hidden layer's activations.
STOPPED = "stopped after layer"
STOPPED_EARLY = Mistake(
    "ex1.stopped_early", "a forward pass that stops before the output layer",
    "forward_with_dropout returned a hidden layer's activations: the layers after it never ran, in training as "
    "in evaluation. Run all three layers, the last (layer3) without ReLU or dropout, and return its logits, shape "
    "(B, 10); check how many times the loop over the layers runs (zip stops at the shorter of its sequences).")
OTHER_NETWORK = Mistake(
    "ex1.other_network", "a forward pass that is not the lesson's MLP, in both modes",
    "forward_with_dropout is the lesson's MLP, x @ w + b for each layer with ReLU after the two hidden ones, and "
    "dropout after each hidden ReLU: the network here differs from it in train and eval mode alike (the message "
    "says what was left out). Compare each line with the plain forward pass.")
EVAL_OTHER_NET = Mistake(
    "ex1.eval_other_network", "an evaluation pass that is not the same network",
    "With train=False forward_with_dropout runs the same network as in training with dropout switched off: both "
    "ReLUs and every bias as in training (the message says what the evaluation pass left out). Let the train flag "
    "switch dropout only, e.g. by passing it on to dropout.")


def _eval_differs(ctx: Context) -> bool:
    """forward_with_dropout(train=False) is not the plain forward pass (False when it could not be read)."""
    try:
        return array_mismatch(ctx.got("forward/eval"), ctx.want("forward/eval")) is not None
    except (StudentError, Missing):  # failed, or not observed: nothing says it differs
        return False


def _train_unrelued(ctx: Context) -> str:
    """Words for a train mode that lacks a ReLU as well: rate=0.0 in train mode gives the evaluation output, and its
    masks met negative values, which a ReLU's output never is; "" otherwise, or when either was not observed."""
    try:
        same = array_mismatch(ctx.got("forward/rate0"), ctx.got("forward/eval"), rtol=0, atol_scale=0) is None
        negative = [m for m in _masks(ctx) if m["data_min"] < 0] if same and ctx.student.has("forward/masks") else []
    except (StudentError, Missing, TypeError, KeyError):
        return ""
    if not negative:
        return ""
    return ("rate=0.0, train=True gave exactly the train=False output, and the masks of rate 0.5 met values as low "
            f"as {negative[0]['data_min']:.3g}, which a ReLU's output never is")


def _eval_keyed(ctx: Context) -> str:
    """Words for an evaluation pass (train=False) that gave another output for another key; "" otherwise."""
    try:
        other = ctx.got("forward/eval_other_key") if ctx.student.has("forward/eval_other_key") else None
    except StudentError:
        return ""
    if other is None or array_mismatch(other, ctx.got("forward/eval")) is None:
        return ""
    return "measured: train=False gave different outputs for two keys, so randomness still acts in evaluation"


def _eval_variant(ctx: Context) -> str:
    """How the evaluation output is the plain forward pass with a part left out (a ReLU, a bias), measured against
    each; "" when none fits."""
    data = ctx.inputs["ex1"]
    params, x = data["params"], data["xb"]

    def unbiased(name):  # params with one layer's bias left out
        return {**params, name: {**params[name], "b": np.zeros(np.shape(params[name]["b"]))}}

    got = ctx.got("forward/eval")
    for words, variant in (("without the ReLU after layer 1", npref.mlp(params, x, act_after={2})),
                           ("without the ReLU after layer 2", npref.mlp(params, x, act_after={1})),
                           ("without either ReLU", npref.mlp(params, x, act_after=set())),
                           ("without any bias", npref.mlp(params, x, bias=False)),
                           *((f"without {name}'s bias", npref.mlp(unbiased(name), x))
                             for name in ("layer1", "layer2", "layer3")),
                           # stopped early: a hidden layer's activations, the output layer never run
                           (f"{STOPPED} 2: its ReLU activations, without the output layer (layer3)",
                            npref.relu(npref.mlp(params, x, layers=slice(0, 2)))),
                           (f"{STOPPED} 1: its ReLU activations, without layers 2 and 3",
                            npref.relu(npref.mlp(params, x, layers=slice(0, 1))))):
        if array_mismatch(got, variant) is None:
            return words
    return ""


REARRANGED = Mistake(
    "ex1.logits_rearranged", "the right logits in other places",
    "Every right logit is in the output, in the wrong place: forward_with_dropout returns shape (B, 10), row i "
    "for example i. A reshape keeps the elements in memory order and only changes the shape, so logits computed "
    "as (10, B) need a transpose (.T), not a reshape, to become (B, 10); keeping the batch axis first throughout "
    "(x @ w) needs neither.")
WEIGHTS_REARRANGED = Mistake(
    "ex1.weights_reshaped", "a weight matrix reshaped where a transpose belongs",
    "A reshape keeps the elements in memory order and only changes the shape: w.reshape(out, in) is not w.T, its "
    "rows hold other elements. Use each layer's w as it is, x @ w; for a (out, in) layout, w.T.")

#: Ways a (in, out) weight comes back to its own shape through a reshape where a transpose belongs.
_REARRANGED = (
    ("w.reshape(out, in).T (a reshape to the other layout, then a transpose)", npref.row_major_read_as_column_major),
    ("w.T.reshape(in, out) (a transpose, then a reshape back)", npref.column_major_read_as_row_major),
)


def _weights_rearranged(ctx: Context) -> str:
    """Words for an evaluation pass that is the plain pass with the weights of every layer, or of one, rearranged
    by a reshape where a transpose belongs (:data:`_REARRANGED`); "" when none fits."""
    data = ctx.inputs["ex1"]
    params, x = data["params"], np.asarray(data["xb"], np.float64)
    got = ctx.got("forward/eval")
    names = list(params)
    for words, change in _REARRANGED:
        for which in ([names] + [[name] for name in names]):
            changed = {name: {**layer, "w": change(np.asarray(layer["w"], np.float64)) if name in which
                              else np.asarray(layer["w"], np.float64)} for name, layer in params.items()}
            if array_mismatch(got, npref.mlp(changed, x)) is None:
                layers = "every layer's weight" if len(which) > 1 else f"{which[0]}'s weight"
                return (f"train=False gave the plain forward pass with {layers} read as {words}: the same "
                        "elements in another arrangement")
    return ""


BIAS_MULTIPLIED = Mistake(
    "ex1.bias_multiplied", "a bias that multiplies a layer's product instead of adding to it",
    "A layer adds its bias: h @ w + b. Here the bias multiplies (h @ w * b, or an einsum given b as one more "
    "operand, which multiplies every operand it is given): compute the product first, then add b.")
BIASES_OTHERWISE = (
    "With every bias 0 the evaluation pass is right, so the weights, the ReLUs and the layers' order are; the "
    "biases enter it otherwise than the plain forward pass, h @ w + b in each layer (before the ReLU). Check "
    "where and how each layer adds its own b.")


def _biases_measured(ctx: Context) -> tuple[str, Mistake | str] | None:
    """Words and a hint for an evaluation pass that is right with every bias 0 (the biases alone go wrong), or
    that gives, with every bias 1, the plain pass without biases and, with every bias 0, zeros (each bias
    multiplies); None when neither was measured."""
    data = ctx.inputs["ex1"]
    params, x = data["params"], data["xb"]
    try:
        if array_mismatch(ctx.got("forward/eval"), ctx.want("forward/eval")) is None:
            return None  # train=False is right: what fails is rate=0, judged otherwise
        zero, one = ctx.got("forward/eval_bias0"), ctx.got("forward/eval_bias1")
    except (StudentError, Missing):
        return None
    unbiased = npref.mlp(params, x, bias=False)
    if array_mismatch(one, unbiased) is None and np.shape(zero) == np.shape(unbiased) and not np.any(zero):
        return ("with every bias set to 1, train=False gave the plain forward pass without biases, and with every "
                "bias 0 it gave zeros: each layer multiplies by its bias"), BIAS_MULTIPLIED
    if array_mismatch(zero, unbiased) is None:
        signs = _bias_signs(params, x, one)
        if signs and set(signs.values()) == {-1.0}:
            names = list(signs)
            said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            which = f"{said}'s bias" if len(names) == 1 else f"the biases of {said}"
            does = f"{said} subtracts its bias" if len(names) == 1 else f"{said} each subtract their bias"
            return (f"with every bias set to 0, train=False gave the plain forward pass, and with every bias set to "
                    f"1, the plain pass with {which} -1: {does}"), BIAS_SUBTRACTED
        if signs:
            said = "; ".join(f"{name}'s bias counted {m:g} times" for name, m in signs.items())
            return (f"with every bias set to 0, train=False gave the plain forward pass, and with every bias set to "
                    f"1, the plain pass with {said}"), BIASES_OTHERWISE
        return ("with every bias set to 0, train=False gave the plain forward pass: only the biases go "
                "wrong"), BIASES_OTHERWISE
    return None


BIAS_SUBTRACTED = Mistake(
    "ex1.bias_subtracted", "a bias subtracted instead of added",
    "A layer adds its bias: h @ w + b, not h @ w - b. The message names the layers measured to subtract theirs.")
#: How many times a layer may be measured to count its bias (1 is right).
_BIAS_MULTIPLES = (1.0, -1.0, 0.0, 2.0)


def _bias_signs(params: dict, x: np.ndarray, one: Any) -> dict[str, float]:
    """{layer: multiple} for the layers that count their bias other than once, the one assignment of
    :data:`_BIAS_MULTIPLES` to the layers that gives ``one`` (the evaluation pass with every bias 1); {} when
    none or several do."""
    names = sorted(params)
    found = []
    for multiples in itertools.product(_BIAS_MULTIPLES, repeat=len(names)):
        biased = {name: {**params[name], "b": np.full(np.shape(params[name]["b"]), m)} for name, m in
                  zip(names, multiples)}
        if array_mismatch(one, npref.mlp(biased, x)) is None:
            found.append(multiples)
    if len(found) != 1:
        return {}
    return {name: m for name, m in zip(names, found[0]) if m != 1.0}


ACTIVATION = Mistake(
    "ex1.activation_not_relu", "a hidden activation other than ReLU",
    "The lesson's MLP has a ReLU after each hidden layer: h = jax.nn.relu(h @ w + b), then dropout. The message "
    "says which layer's activation was measured to differ and what it is.")


def _curve(ctx: Context, which: str) -> np.ndarray | None:
    """The first logit of ``forward/curve/<which>``, one per grid point; None when it was not measured."""
    try:
        got = np.asarray(ctx.got(f"forward/curve/{which}"), np.float64)
    except (StudentError, Missing, TypeError, ValueError):
        return None
    return got[:, 0] if got.ndim == 2 and got.shape[0] == len(CURVE_GRID) else None


def _leaky(values: np.ndarray, grid: np.ndarray) -> dict[str, Any]:
    """{name: curve} for a leaky ReLU whose slope below 0 the sampled values show; {} when they show none."""
    neg = grid < 0
    if not (np.any(neg) and npref.near(values[~neg], grid[~neg])):
        return {}
    slope = float(np.median(values[neg] / grid[neg]))
    if not (0 < slope < 1 and npref.near(values[neg], slope * grid[neg])):
        return {}
    return {f"a leaky ReLU (slope {slope:.3g} below 0)": lambda z, s=slope: np.where(z > 0, z, s * z)}


def _predicted(f1: Any, f2: Any, grid: np.ndarray) -> dict[str, np.ndarray]:
    """What the three measurements give with activation ``f1`` after layer 1 and ``f2`` after layer 2."""
    return {"layer1": f2(f1(grid) + CURVE_OFFSET) - CURVE_OFFSET, "layer2": f2(f1(grid + CURVE_OFFSET) - CURVE_OFFSET),
            "both": f2(f1(grid))}


def _activations_measured(ctx: Context) -> tuple[str, Mistake | str] | None:
    """Words and a hint for an evaluation pass whose hidden activations, measured one at a time, are not both
    ReLU; None when they are, or when the measurements do not single them out.

    Each measurement holds one layer's activation on the grid while the other layer, given inputs shifted far
    above 0, passes its input on when it is a ReLU (:data:`CURVE_BIASES`). A pair of known activations is named
    only when it gives all three measurements; of several such pairs, the one with the most ReLUs, and only when
    they agree on the rest. Else a curve no known activation gives is described, when the other layer's ReLU and
    that curve give what the two in turn gave."""
    grid = np.asarray(CURVE_GRID, np.float64)
    measured = {which: _curve(ctx, which) for which in CURVE_BIASES}
    if any(curve is None for curve in measured.values()):
        return None
    fns = {**npref.CURVES, **_leaky(measured["layer1"], grid), **_leaky(measured["layer2"], grid)}
    with np.errstate(all="ignore"):
        fitting = [(a, b) for a, fa in fns.items() for b, fb in fns.items()
                   if all(npref.near(measured[w], v) for w, v in _predicted(fa, fb, grid).items())]
    if ("ReLU", "ReLU") in fitting:
        return None
    if fitting:
        most = max(pair.count("ReLU") for pair in fitting)
        pairs = {pair for pair in fitting if pair.count("ReLU") == most}
        if len(pairs) == 1:
            names = next(iter(pairs))
            wrong = [(k, name) for k, name in enumerate(names, start=1) if name != "ReLU"]
            said = (f"after layers 1 and 2 it is {names[0]}" if len(wrong) == 2 and names[0] == names[1] else
                    "; ".join(f"after layer {k} it is {name}" for k, name in wrong))
            return (f"the hidden activations, measured on inputs from {grid[0]:g} to {grid[-1]:g} (one layer at a time, "
                    f"then both in turn): "
                    f"{said}, not ReLU"), ACTIVATION
        return None
    # No known pair: the one that is not ReLU, where taking the other as ReLU gives what the two in turn gave
    relu, both = npref.relu(grid), measured["both"]
    fits = [(k, curve) for k, curve in ((1, measured["layer1"]), (2, measured["layer2"]))
            if not npref.near(curve, relu) and npref.near(both, npref.relu(curve) if k == 1 else
                                                          np.interp(relu, grid, curve))]
    if len(fits) == 1:
        k, curve = fits[0]
        return (f"the activation after layer {k}, measured alone on inputs from {grid[0]:g} to {grid[-1]:g}, is "
                f"{npref.describe_curve(grid, curve)}: not ReLU (the one after layer {3 - k} is ReLU)"), \
            (f"The activation after hidden layer {k} is not ReLU: the lesson's MLP has jax.nn.relu after each "
             "hidden layer, then dropout.")
    return None


FORWARD_SCALE = Mistake(
    "ex1.forward_scale_rate", "the forward pass's own dropout keeps the average only at some rates",
    "forward_with_dropout draws its masks itself, and at the rate in the message train mode does not keep each "
    "unit's average: inverted dropout keeps a fraction 1 - rate of the units and scales them by 1 / (1 - rate), "
    "so (kept fraction) x (scale) is 1 at every rate. Compute the scale from the rate the call was given, at call "
    "time (not one fixed when something was built, or at rate 0.5 where 1 / rate and 1 / (1 - rate) agree); "
    "calling your dropout(key, h, rate) in the forward pass does this.")


def _kept_average(ctx: Context) -> Verdict | None:
    """For a forward pass that draws its masks without the contract's dropout: at rate RATES[0], under params
    where each unit is the mean of the layer before (``mean_params``), train mode's output over eval's is the
    product over the two dropout layers of (kept fraction) x (scale), 1 for inverted dropout (0.4% noise over the
    32 examples' 384 units each). None when it is, or when it was not observed."""
    if not (ctx.student.has("forward/mean_train") and ctx.student.has("forward/mean_eval")):
        return None
    try:
        train = np.asarray(ctx.got("forward/mean_train"), np.float64)
        evaluated = np.asarray(ctx.got("forward/mean_eval"), np.float64)
    except StudentError:
        return None
    if train.shape != evaluated.shape or not np.all(np.isfinite(train)) or not np.mean(evaluated) > 0:
        return None
    ratio = float(np.mean(train) / np.mean(evaluated))
    if abs(ratio - 1) < 0.05:
        return None
    rate = RATES[0]
    per_layer = np.sqrt(ratio) if ratio > 0 else 0.0
    scale = per_layer / (1 - rate)
    named = next((f" = {text}" for value, text in ((2.0, "1 / (1 - 0.5), rate 0.5's scale"),
                                                   (1 / rate, "1 / rate"), (1.0, "no rescale"))
                  if abs(scale / value - 1) < 0.03), "")
    return fail(f"forward_with_dropout(..., rate={rate:g}, train=True) under params where each unit is the mean of "
                f"the layer before: its output averaged {ratio:.3g} times the eval output, where inverted dropout "
                f"keeps the average (1); measured: (kept fraction) x (scale) is {per_layer:.3g} per dropout layer, "
                f"a scale of about {scale:.3g}{named} where 1 / (1 - {rate:g}) = {1 / (1 - rate):.3g} is expected, "
                "if both layers keep a fraction 1 - rate", FORWARD_SCALE, fraction=0.5)


BIASES_SCALED = Mistake(
    "ex1.biases_scaled_in_train", "a bias scaled along with the dropped units in train mode",
    "In train mode the logits came out scaled where no unit reaches them (every weight 0: only the biases count): "
    "dropout's 1 / (1 - rate) belongs on the units that survive (or on their outgoing weights), never on a bias, "
    "which no dropped unit feeds. Compute z = dropout(h) @ w + b, or (h * mask) @ (w / keep) + b.")


def _biases_in_train(ctx: Context) -> Verdict | None:
    """For a forward pass that draws its masks itself: with every weight 0 and the biases 1, 2, 3, train mode's
    logits are 3, as eval's; None when they are, or this was not observed."""
    if not ctx.student.has("forward/biases_train"):
        return None
    try:
        got = np.asarray(ctx.got("forward/biases_train"), np.float64)
    except StudentError:
        return None
    if got.size == 0 or not np.all(np.isfinite(got)) or np.allclose(got, 3.0, rtol=1e-4, atol=0):
        return None
    rate = RATES[0]
    factor = float(np.median(got)) / 3.0
    words = (f" = 1 / (1 - {rate:g}): layer 3's bias divided by 1 - rate" if abs(factor * (1 - rate) - 1) < 1e-3
             else f" = 1 / {rate:g}: layer 3's bias divided by rate" if abs(factor * rate - 1) < 1e-3 else "")
    return fail(f"forward_with_dropout(..., rate={rate:g}, train=True) with every weight 0 and the biases of "
                f"layer1, layer2 and layer3 all 1, 2 and 3: no unit reaches the logits, so they are layer 3's bias, "
                f"3; measured: {float(np.median(got)):.4g} (the median), {factor:.4g} times it{words}",
                BIASES_SCALED, fraction=0.5)


def _train_mode(ctx: Context) -> Verdict | None:
    """forward_with_dropout(train=True) is the lesson MLP with its two dropout calls (the keys it gave them, in
    order) and nothing else; None when it is, or when that cannot be known (its masks are judged instead).
    A forward pass that draws its own masks is judged by the average it keeps at another rate."""
    if not ctx.student.has("forward/recomputed"):
        return _kept_average(ctx) or _biases_in_train(ctx)
    problem = array_mismatch(ctx.got("forward/train"), ctx.got("forward/recomputed"))
    if problem is None:
        return None
    measured = ""
    try:
        rescaled = ctx.got("forward/rescaled") if ctx.student.has("forward/rescaled") else {}
    except StudentError:
        rescaled = {}
    for name, words in (("rescaled_again", "divided by (1 - rate) again: survivors scaled by 1 / (1 - rate)**2"),
                        ("rescale_undone", "multiplied by (1 - rate), undoing dropout's own rescale")):
        if name in rescaled and array_mismatch(ctx.got("forward/train"), rescaled[name]) is None:
            measured = f"; measured: it equals that pass with each dropout call's output {words}"
            break
    hint: Mistake | str = HINT_TRAIN_MODE
    try:
        unused = ctx.got("forward/unused") if not measured and ctx.student.has("forward/unused") else {}
    except StudentError:
        unused = {}
    for name, (made, read) in (("first_unused", ("first", "layer2")), ("second_unused", ("second", "layer3"))):
        if name in unused and array_mismatch(ctx.got("forward/train"), unused[name]) is None:
            measured = (f"; measured: it equals that pass with the {made} dropout call's output unused: {read} "
                        "read the values that call was given, so that layer's mask never reached the output")
            hint = DROPOUT_UNUSED
            break
    if not measured and (changed := _rates_changed(ctx)):
        measured, hint = f"; measured: {changed}", RATE_CHANGED
    return fail("forward_with_dropout(params, x, key, 0.5, True) vs the lesson MLP with the two dropout calls it "
                f"made (the keys it gave them, in order) and nothing else: {problem}{measured}", hint,
                fraction=0.5)


def _default_rate(ctx: Context) -> Verdict:
    """forward_with_dropout(params, x, key), rate left out, gives its dropout calls the API's rate."""
    if not ctx.student.has("forward/default_rates"):
        return PASS  # called dropout otherwise (inlined), or could not be asked: judged elsewhere
    given = [r for r in ctx.got("forward/default_rates") if r is not None]
    if given and any(abs(r - API_RATE) > 1e-6 for r in given):
        return fail("forward_with_dropout(params, x, key), rate left out, called dropout with rate "
                    + ", ".join(f"{r:g}" for r in given), DEFAULT_RATE, fraction=0.5)
    return PASS


def _rates_given(ctx: Context) -> list[float]:
    """The rates forward_with_dropout gave its dropout calls when asked for RATES[0] (empty when unknown)."""
    if not ctx.student.has("forward/rates_given"):
        return []
    try:
        given = list(ctx.got("forward/rates_given"))
    except StudentError:
        return []
    return [float(r) for r in given] if given and all(r is not None for r in given) else []


def _rates_changed(ctx: Context) -> str:
    """Words for the rates forward_with_dropout gave its dropout calls when asked for RATES[0], where any is another;
    "" otherwise (or when unknown)."""
    given = _rates_given(ctx)
    if not any(abs(r - RATES[0]) > 1e-6 for r in given):
        return ""
    return f"forward_with_dropout(rate={RATES[0]:g}) called dropout with rate " + ", ".join(f"{r:g}" for r in given)


def _key_uses(ctx: Context) -> list[dict]:
    return list(ctx.got("forward/key_uses"))


def _masks(ctx: Context) -> list[dict]:
    """The masks train mode applied, where a random draw first met the data (``jaxpr_tools.draws_and_masks``)."""
    return list(ctx.got("forward/masks"))


def _all_dropped(ctx: Context) -> str:
    """Words for train mode whose every mask dropped every value it met (as a rate of 1 does): where the masks go and
    which key they come from cannot be seen then; "" otherwise, or when the masks were not observed."""
    try:
        masks = _masks(ctx) if ctx.student.has("forward/masks") else []
    except StudentError:
        return ""
    if not masks or any(m.get("kept") is None or m["kept"] > 0 for m in masks):
        return ""
    return (f"train mode dropped every value its {len(masks)} mask(s) met (all zero, as a rate of 1 gives), so "
            "where dropout goes and which key each mask comes from cannot be seen")


def _draws(ctx: Context) -> list[dict]:
    """The random draws of train mode: each with the keys it consumed and the shape it produced.

    A draw under ``jax.vmap`` consumes one key per example at once; its shape
    then includes the batch axis, which the random call's own shape argument
    leaves out. Where train mode's masks were seen, a draw is a mask (with
    the keys of the draws it came from), so draws that never touch the data
    are not counted.
    """
    masks = _masks(ctx)
    if masks:
        return [{"keys": [tuple(k) for k in m["keys"]], "shape": tuple(m["shape"])} for m in masks]
    draws = []
    for use in _key_uses(ctx):
        if use["op"] != "bits":
            continue
        keys = [tuple(k) for k in use.get("keys", [use["key"]])]
        draws.append({"keys": keys, "shape": tuple(use.get("out_shape", use["shape"]))})
    return draws


def separate_keys(ctx: Context) -> Verdict:
    """Each dropout layer's mask comes from its own keys (one per example under vmap); no key is used twice."""
    uses, draws = _key_uses(ctx), _draws(ctx)
    if len(draws) < 2:
        return skip(f"not judged: train mode drew {len(draws)} mask(s) (charged in ex1.placement); the keys are "
                    "judged once each hidden layer draws its own")
    keys = [k for d in draws for k in d["keys"]]
    if len(set(keys)) < len(keys):
        shared = [i + 1 for i, d in enumerate(draws) if any(keys.count(k) > 1 for k in d["keys"])]
        where = "two dropout masks were drawn from the same key" if len(shared) > 1 else (
            f"mask {shared[0]} used one key for several examples")
        return fail(f"{where} ({len(keys) - len(set(keys))} of {len(keys)} key uses repeat a key)", REUSED_KEY)
    derived = {tuple(k) for u in uses if u["op"] in ("split", "fold_in") for k in u.get("keys", [u["key"]])}
    if derived & set(keys):
        return fail("a key was used for a mask and also split or folded", KEY_SPLIT_AND_USED)
    one_row = _one_row_repeats(ctx)
    if one_row:
        return fail(one_row, ONE_ROW_KEYS, fraction=0.5)
    return PASS


def _one_row_repeats(ctx: Context) -> str:
    """Words for train mode on a batch of one example that gives its dropout calls one key twice, where on the
    usual batch each mask has keys of its own; "" otherwise, or where that was not observed."""
    try:
        given = [call["key"] for call in _one_row_calls(ctx) or []]
    except (StudentError, TypeError, KeyError):
        return ""
    keys = [tuple(k) for k in given if k is not None]
    if len(keys) < 2 or len(set(keys)) == len(keys):
        return ""
    return (f"on a batch of one example, train mode gave its {len(given)} dropout calls the same key "
            f"{len(keys) - len(set(keys))} time(s) over, where on a batch of {ctx.inputs['ex1']['xb'].shape[0]} every "
            "mask has keys of its own: the keys depend on the batch size")


def _one_row_calls(ctx: Context) -> list[dict] | None:
    """The dropout calls train mode made on a batch of one example (key words, rate, train), or None where that was
    not observed."""
    return list(ctx.got("forward/one_row_calls")) if ctx.student.has("forward/one_row_calls") else None


def _one_row_skipped(ctx: Context) -> str:
    """Words for train mode on a batch of one example that applies fewer dropout layers than on the usual batch
    (fewer calls to dropout at the rate given in train mode), where on the usual batch it calls dropout once per
    hidden layer; "" otherwise, or where that was not observed."""
    try:
        usual = list(ctx.got("forward/rates_given")) if ctx.student.has("forward/rates_given") else []
        calls = _one_row_calls(ctx)
    except StudentError as exc:
        if (ctx.student.has("forward/rates_given") and "forward/one_row_calls" in ctx.student.errors
                and "forward/one_row" not in ctx.student.errors):  # where evaluation fails too, it is charged there
            return f"on a batch of one example, train mode raised {exc.error.summary()}"
        return ""
    if calls is None or len(usual) != 2 or usual != [RATES[0]] * 2:
        return ""
    applied = [c for c in calls if c.get("train") is not False and c.get("rate") not in (0, 0.0)]
    if len(applied) >= 2:
        return ""
    shown = ", ".join(f"rate={c.get('rate')}, train={c.get('train')}" for c in calls) or "none"
    return (f"on a batch of one example, train mode (rate 0.5) called dropout {len(calls)} time(s) ({shown}), "
            f"{len(applied)} of them dropping anything, where on a batch of {ctx.inputs['ex1']['xb'].shape[0]} it "
            "calls it once after each hidden layer: dropout is skipped for one example")


ONE_ROW_SKIPPED = Mistake(
    "ex1.dropout_skipped_for_one_example", "dropout left out on a batch of one example",
    "Train mode applies dropout after each hidden ReLU whatever the batch size, one example too: no special case "
    "on x.shape[0] (a batch of one is not evaluation; only train=False or rate 0 turn dropout off).")


ONE_ROW_KEYS = Mistake(
    "ex1.keys_by_batch_size", "layer keys that coincide on a batch of one",
    "Each dropout layer's key must be its own whatever the batch size: k1, k2 = jax.random.split(key) (one key per "
    "layer), not keys split into B (the batch size) and indexed per layer, which on a batch of one example runs "
    "past the end (JAX clamps the index: both layers get keys[0]).")


def _same_as_after_relu(ctx: Context) -> bool:
    """The train-mode output is exactly the lesson MLP with the dropout calls it made applied after each hidden
    ReLU (measured in the child where it can be: ``forward/recomputed``)."""
    if not ctx.student.has("forward/recomputed"):
        return False
    return array_mismatch(ctx.got("forward/train"), ctx.got("forward/recomputed")) is None


def _train_as_eval(ctx: Context) -> str:
    """Words for a train mode that drew nothing and gave exactly the train=False output for the same rate and key;
    "" otherwise."""
    try:
        same = array_mismatch(ctx.got("forward/train"), ctx.got("forward/eval"), rtol=0, atol_scale=0) is None
        right = array_mismatch(ctx.got("forward/eval"), ctx.want("forward/eval")) is None
    except (StudentError, Missing):
        return ""
    if not (same and right):
        return ""
    return ("train mode (rate 0.5) drew no random numbers and gave exactly the train=False output for the same "
            "rate and key, the plain forward pass: no dropout ran in training")


TRAIN_AS_EVAL = Mistake(
    "ex1.train_mode_is_eval", "a train mode that runs the evaluation pass",
    "forward_with_dropout(..., train=True) gave exactly what train=False gives: no dropout ran. With train True "
    "dropout runs after each hidden ReLU. Where the pass is compiled or kept (a jitted function in a dict, a "
    "cache), key it on train as well as rate (or make train a static argument): a program built for another call's "
    "train flag is otherwise run again.")


def placement(ctx: Context) -> Verdict:
    """Dropout sits after the two hidden ReLUs, nowhere else (not on the input, not on the logits, not before a
    ReLU), with a coin of its own for every element of every example.

    Judged by the masks train mode applied: the values each was applied to
    (their shape, every batch axis included, and whether they had been through
    a ReLU), and how the masks of different examples compare; not by the shape
    arguments of the random calls. When no mask meets the data where it can be
    seen, the draws are judged by the shapes they produced.
    """
    b = ctx.inputs["ex1"]["xb"].shape[0]
    logits = np.asarray(ctx.got("forward/train"))
    zero_logits = float(np.mean(logits == 0)) if logits.size else 0.0
    own_zeros = 0.0  # zeros that train=False has too are not dropout's
    if ctx.student.has("forward/eval") and "forward/eval" not in ctx.student.errors:
        plain = np.asarray(ctx.student["forward/eval"])
        own_zeros = float(np.mean(plain == 0)) if plain.size else 0.0
    if zero_logits > 0.05 and own_zeros <= 0.05:
        return fail(f"{zero_logits:.0%} of the train-mode logits are exactly 0: dropout was applied to the output",
                    PLACEMENT)
    dropped = _all_dropped(ctx)
    if dropped:
        return skip(f"not judged: {dropped} (the rate is judged in ex1.eval_forward)")
    masks = _masks(ctx)
    shapes = [tuple(d["shape"]) for d in _draws(ctx)]
    sizes = sorted(int(np.prod(s)) for s in shapes)
    hidden = [(b, 256), (b, 128)]
    if masks and shapes == hidden:
        before = [m for m in masks if m["data_min"] < 0]
        note = ""
        if before and _same_as_after_relu(ctx):
            note = (f"train mode applied its masks before the ReLUs (to values as low as {before[0]['data_min']:.3g}); "
                    "that gives exactly the output of dropout after them, as ReLU and a 0-or-1/(1 - rate) mask "
                    "commute, so it is not charged")
        elif before and _eval_differs(ctx) and (activations := _activations_measured(ctx)):
            return skip(f"not judged: train mode with B={b} applied a mask of shape {before[0]['shape']} to values "
                        f"as low as {before[0]['data_min']:.3g}, and {activations[0]} (ex1.eval_forward): where the "
                        "masks go is judged once the activation is ReLU")
        elif before and _eval_differs(ctx):
            # the evaluation pass is not the lesson's network either: negative values may come from another
            # activation (a leaky ReLU) as much as from a mask before the ReLU; say what was measured
            return fail(f"train mode with B={b} applied a mask of shape {before[0]['shape']} to values as low as "
                        f"{before[0]['data_min']:.3g}, which a ReLU's output never is; and with train=False the pass "
                        "is not the plain forward pass (ex1.eval_forward): the mask comes before the ReLU, or the "
                        "activation is not ReLU",
                        "Dropout goes on the output of each hidden ReLU, which is never negative: h = dropout(key, "
                        "jax.nn.relu(h @ w + b), rate, train), with jax.nn.relu as the activation.")
        elif before:
            return fail(f"train mode with B={b} applied a mask of shape {before[0]['shape']} to values as low as "
                        f"{before[0]['data_min']:.3g}: before the ReLU", BEFORE_RELU)
        shared = [m for m in masks if m["row_agreement"] is not None and m["row_agreement"] >= 0.999]
        if shared:
            return fail(f"train mode with B={b} applied masks of shapes {[list(s) for s in shapes]}, but every "
                        f"example's {shared[0]['shape'][1]} units were kept or dropped alike: one mask for the "
                        "whole batch", FORWARD_SHARED_ROWS)
        per_example = [m for m in masks if m["column_agreement"] is not None and m["column_agreement"] >= 0.999]
        if per_example:
            return fail(f"train mode with B={b} applied masks of shapes {[list(s) for s in shapes]}, but each "
                        f"example's {per_example[0]['shape'][1]} units were all kept or all dropped together",
                        SHARED_COLS)
        skipped = _one_row_skipped(ctx)
        if skipped:
            return fail(skipped, ONE_ROW_SKIPPED, fraction=0.5)
        return Verdict(True, note) if note else PASS
    if not shapes and (as_eval := _train_as_eval(ctx)):
        return fail(as_eval, TRAIN_AS_EVAL)
    if not masks and sizes == [b * 128, b * 256]:
        skipped = _one_row_skipped(ctx)
        return fail(skipped, ONE_ROW_SKIPPED, fraction=0.5) if skipped else PASS
    if sizes == [128, 256]:
        return fail(f"train mode with B={b} drew masks of shapes {[list(s) for s in shapes]}: one per layer for the "
                    f"whole batch, where ({b}, 256) and ({b}, 128) were expected", FORWARD_SHARED_ROWS)
    what = "applied masks" if masks else "drew random masks"
    twice = sorted({s for s in shapes if shapes.count(s) > 1 and s in hidden})
    if twice and sorted(set(shapes)) == sorted(hidden):
        return fail(f"train mode with B={b} {what} of shapes {[list(s) for s in shapes]}: "
                    + " and ".join(f"{shapes.count(s)} of shape {list(s)}" for s in twice)
                    + f", where each hidden layer's ({b}, 256) and ({b}, 128) values take one",
                    "A hidden layer's values went through dropout more than once (the message counts the masks of "
                    "each shape): apply dropout exactly once after each hidden ReLU, with that layer's own key.")
    where = {b * 784: "the input (B, 784)", b * 10: "the logits (B, 10)", 256: "a (256,) mask shared by the batch",
             128: "a (128,) mask shared by the batch"}
    extra = [where[s] for s in sizes if s in where]
    detail = f" including {', '.join(extra)}" if extra else ""
    return fail(f"train mode with B={b} {what} of shapes {[list(s) for s in shapes]}{detail}; expected "
                f"({b}, 256) and ({b}, 128)", PLACEMENT)


def forward_keys(ctx: Context) -> Verdict:
    """forward_with_dropout: the same key gives the same output, a different key a different one."""
    if container := _forward_container(ctx):
        return skip(f"not judged: {container} (charged in ex1.eval_forward)")
    train = np.asarray(ctx.got("forward/train"))
    if array_mismatch(ctx.got("forward/train_again"), train, rtol=0, atol_scale=0):
        return fail("two train-mode calls with the same key gave different outputs", FORWARD_KEYS)
    if not array_mismatch(ctx.got("forward/train_other_key"), train):
        dropped = _all_dropped(ctx)
        if dropped:
            return skip(f"not judged: {dropped} (the rate is judged in ex1.eval_forward)")
        if _train_as_eval(ctx):
            return skip("not judged: train mode ran no dropout at all, so no key can change it (charged in "
                        "ex1.placement)")
        return fail("train-mode calls with two different keys gave the same output", FORWARD_KEYS)
    unkeyed = _masks_not_from_key(ctx)
    if unkeyed:
        which = ", ".join(f"{i} (shape {tuple(shape)})" for i, shape in unkeyed)
        return fail(f"train mode drew mask {which} from a key that is not computed from the key argument (a key "
                    "made inside forward_with_dropout or kept from outside it): that layer drops the same elements "
                    "whatever key is given", FORWARD_KEYS)
    return PASS


def _masks_not_from_key(ctx: Context) -> list[tuple[int, list]]:
    """(number from 1, shape) of each mask of train mode whose draws consumed a key not computed from the key
    argument; empty when the masks were not observed."""
    try:
        masks = _masks(ctx) if ctx.student.has("forward/masks") else []
    except StudentError:
        return []
    return [(i + 1, m["shape"]) for i, m in enumerate(masks) if not m.get("from_key", True)]


def forward_error_hint(error: ObservationError) -> Mistake | str:
    """When forward_with_dropout raised: a dropout call in the wrong argument order is named (the probe's dropout
    raises ``DropoutArgumentOrder``, by type); otherwise the crash's kind decides."""
    if error.type == "DropoutArgumentOrder":
        return FORWARD_ARGS_SWAPPED
    return crash_hint(error)


def params_unchanged(ctx: Context) -> Verdict:
    """forward_with_dropout leaves the params dict as it found it: the public params, and params LARGE_PARAMS_SCALE
    times larger (a write-back that only large values trigger)."""
    verdict = unchanged(ctx, "input/params_after", ctx.inputs["ex1"]["params"], ("forward/eval", "forward/train"))
    if not verdict.passed or not ctx.student.has("input/large_params_after"):
        return verdict
    try:
        after = ctx.got("input/large_params_after")
    except StudentError:
        return verdict  # a train-mode call that fails on large params: its values' checks say so
    problem = tree_mismatch(after, flatten(large_params(ctx.inputs["ex1"]["params"])), rtol=0, atol_scale=0)
    if problem:
        return fail(f"the params passed in are left as they were, but with params {LARGE_PARAMS_SCALE:g} times "
                    f"larger (weight columns far longer), after a train-mode call they differ from what was passed "
                    f"in: {problem}; something rewrites params when their values are large (a max-norm constraint "
                    "or a clip written back into the dict)", MUTATED)
    return verdict


#: Properties of a mask need a mask: with nothing dropped in train mode (zero_fraction earns nothing) they are
#: not judged, so one mistake there (such as an inverted train test) is charged once and x -> x earns nothing.
_MASK = ("ex1.zero_fraction",)

CHECKS = [
    Check("ex1.zero_fraction", "dropout zeroes a fraction rate of the elements (rates 0.1, 0.25, 0.5, 0.8)",
          zero_fraction, ("dropout",)),
    Check("ex1.rescale", "survivors are scaled by 1 / (1 - rate)", rescale, ("dropout",), requires=_MASK,
          reads=("ex1.zero_fraction", "ex1.per_element")),
    Check("ex1.identity", "train=False and rate=0 return x unchanged", identity, ("dropout",), requires=_MASK),
    Check("ex1.per_element", "one coin flip per element, no mask shared across the batch", per_element,
          ("dropout",), requires=_MASK),
    Check("ex1.key_only_randomness", "randomness comes only from the key", key_randomness, ("dropout",),
          requires=_MASK),
    Check("ex1.jit", "dropout and forward_with_dropout agree under jax.jit", jit_agrees,
          ("dropout", "forward_with_dropout"), forward_error_hint, requires=_MASK, reads=("ex1.eval_forward",)),
    Check("ex1.eval_forward", "eval mode is the plain forward pass, train mode that pass with its two dropouts",
          eval_forward, ("forward_with_dropout",),
          forward_error_hint),
    Check("ex1.separate_keys", "each dropout layer gets its own key", separate_keys, ("forward_with_dropout",),
          forward_error_hint),
    Check("ex1.placement", "dropout after each hidden ReLU and nowhere else", placement, ("forward_with_dropout",),
          forward_error_hint),
    Check("ex1.forward_keys", "the MLP's masks depend only on its key", forward_keys, ("forward_with_dropout",),
          forward_error_hint),
    Check("ex1.params_unchanged", "forward_with_dropout does not modify params", params_unchanged,
          ("forward_with_dropout",), forward_error_hint, requires=("ex1.eval_forward",)),
]
