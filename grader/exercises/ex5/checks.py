"""Exercise 5 rubric: clip-then-Adam, its arguments, and the jitted training step.

Updates are compared with the reference over a gradient sequence whose norm
spikes once: with Adam, that is the only place where clipping (and where it
sits in the chain) changes anything. When they differ, the judges recompute
the usual wrong chains in numpy to say which one the submission built.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Callable

import numpy as np

from grader.checks import PASS, Check, Context, Missing, Mistake, StudentError, Verdict, equals, fail, skip
from grader.checks import npref
from grader.checks.common import shapes_met, unchanged
from grader.checks.compare import (SIXTEEN_BIT_WORDS, array_mismatch, close, common_factor, rounding_error,
                                   sixteen_bit, tree_mismatch)
from grader.inputs import LESSON_WIDTHS, flatten
from grader.exercises.ex5.shared import (AGAIN_CALL, ASCENT_LR, CHAINED_STEPS, DEFAULT_LR, DEFAULT_MAX_NORM,
                                         LARGE_MAX_NORM, LARGE_PARAMS, NEAR_MAX_NORM, OPTIMIZERS, SGD_LR, SPIKE_STEP,
                                         lr_and_max_norm, written)
from grader.observations import RESULT_DOES_NOT_FIT, ObservationError


NO_CLIP = Mistake("ex5.no_clipping", "Adam without clipping",
    "These are plain Adam updates: the gradient was never clipped. Chain clip_by_global_norm before adam.")
HINT_NO_CLIP_OR_AFTER = (
    "These are plain Adam updates at the spike: either nothing clips the gradient, or the clipping comes "
    "after Adam, whose updates are already tiny, so it never triggers. Clip the raw gradient first: "
    "optax.chain(clip_by_global_norm(max_norm), adam(learning_rate))."
)
CLIP_AFTER = Mistake(
    "ex5.clip_after_adam", "clipping after Adam",
    "Clipping comes after Adam here. Adam rescales every update to about learning_rate, so clipping its "
    "output does nothing at a spike: clip the raw gradient first, optax.chain(clip, adam).")
CLIP_INSIDE = Mistake(
    "ex5.clip_inside_adam", "clipping between Adam's scaling and its learning rate",
    "The clip acts on Adam's scaled direction (between optax.scale_by_adam and the learning rate), whose "
    "elements are each about 1, so it cuts every step down; clip the raw gradient first: "
    "optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)).")
ELEMENTWISE = Mistake(
    "ex5.elementwise_clip", "element-wise clipping (optax.clip)",
    "Each element was clipped to [-max_norm, max_norm] (optax.clip). Clip the global norm instead "
    "(optax.clip_by_global_norm), which rescales the whole gradient and keeps its direction.")
PER_LEAF = Mistake(
    "ex5.per_leaf_clip", "clipping each leaf's norm separately",
    "Each leaf's norm was clipped separately. The global norm covers all leaves together: "
    "optax.clip_by_global_norm(max_norm).")
PER_LAYER = Mistake(
    "ex5.per_layer_clip", "clipping each layer's norm separately",
    "Each layer's gradients (its w and b) were clipped by their own norm, so the whole gradient can exceed "
    "max_norm. The global norm covers all layers together: optax.clip_by_global_norm(max_norm) on the whole tree.")
PER_KIND = Mistake(
    "ex5.per_group_clip", "clipping the weights and the biases as two groups",
    "The weights were clipped together by their own norm, and the biases by theirs, so the whole gradient can "
    "exceed max_norm. The global norm covers every leaf together: optax.clip_by_global_norm(max_norm) on the whole "
    "tree.")
FIRST_STEP_ONLY = Mistake(
    "ex5.state_not_carried", "an optimizer whose state does not carry over from one update to the next",
    "Every update is what clip + Adam gives as its first update for that gradient: the state the chain's update "
    "returns is not the one it returns for the next call (Adam's moments and step count never build up). Return "
    "each transformation's new state from update, as optax.chain does.")
OLD_STATE = Mistake(
    "ex5.old_state_returned", "returning the incoming optimizer state",
    "The step returned the optimizer state it was given: return the new state from "
    "updates, new_state = optimizer.update(grads, opt_state, params), or Adam's moments never build up.")
RETURNED_UPDATES = Mistake(
    "ex5.returned_updates", "returning the updates instead of the new params",
    "The step returned the updates themselves as the new params: apply them, "
    "optax.apply_updates(params, updates).")
SUBTRACTED = Mistake(
    "ex5.updates_subtracted", "subtracting the updates from the params",
    "The updates were subtracted: optax's updates already point downhill (they carry the minus sign), so add "
    "them, optax.apply_updates(params, updates).")
NOT_APPLIED = Mistake(
    "ex5.updates_not_applied", "returning the incoming params",
    "The step returned the params it was given, unchanged: return optax.apply_updates(params, updates).")
SWAPPED_ARGS = Mistake(
    "ex5.arguments_swapped", "clip_by_global_norm(learning_rate) and adam(max_norm), the arguments swapped",
    "The arguments are swapped: the clip got learning_rate and Adam got max_norm. Build "
    "optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)).")
STEP_PER_LEAF = Mistake(
    "ex5.step_count_per_leaf", "Adam's step count advanced once per leaf",
    "Adam's step count t counts updates: every leaf of update t uses the same t in its bias correction (1 - b1**t, "
    "1 - b2**t). Advance it once per update, before the loop over the leaves, or use optax.adam(learning_rate), "
    "which keeps the count in its state.")
CLIP_INVERTED = Mistake(
    "ex5.clip_ratio_inverted", "a clip ratio upside down (norm / max_norm)",
    "The clip's factor is max_norm / norm, applied only when the global norm exceeds max_norm: g * min(1, max_norm / "
    "norm). norm / max_norm shrinks small gradients and grows large ones; optax.clip_by_global_norm(max_norm) does "
    "it right.")
ALWAYS_RESCALE = Mistake(
    "ex5.always_rescale", "a clip that rescales every gradient to norm max_norm",
    "The clip rescales every gradient to norm max_norm, even small ones: clipping only scales down a gradient "
    "whose global norm exceeds max_norm (g * min(1, max_norm / norm)); optax.clip_by_global_norm does this.")
SGD_FOR_ADAM = Mistake(
    "ex5.sgd_for_adam", "plain SGD in place of Adam",
    "The updates are -learning_rate * clipped gradient, plain SGD: chain optax.adam(learning_rate) after the clip.")
ADAM_TWICE = Mistake(
    "ex5.adam_twice", "Adam applied twice (scale_by_adam, then adam)",
    "optax.adam is scale_by_adam followed by scale(-learning_rate): chaining both runs Adam on Adam's own output, "
    "which normalises the steps a second time. Keep one: optax.chain(optax.clip_by_global_norm(max_norm), "
    "optax.adam(learning_rate)).")
ADAM_FOR_CLIP = Mistake(
    "ex5.adam_for_clip", "Adam in the clip's place: Adam twice, nothing clipped",
    "The updates are those of optax.chain(optax.adam(learning_rate), optax.adam(learning_rate)): the stage meant to "
    "clip is a second Adam, which runs on the first one's output (the first update comes out as Adam's with its "
    "sign flipped). Check what builds each stage (where lambdas made in a loop build them, each reads the loop's "
    "variables when it is called, after the loop), or write the chain out: optax.chain(optax.clip_by_global_norm(max_norm), "
    "optax.adam(learning_rate)).")
BOTH_IGNORED = Mistake(
    "ex5.arguments_ignored", "fixed values for both learning_rate and max_norm",
    "learning_rate and max_norm are both ignored: pass learning_rate to Adam and max_norm to the clip.")
ADAM_B1, ADAM_B2, ADAM_EPS = 0.9, 0.999, 1e-8  # optax.adam's defaults, which the exercise keeps
OTHER_GRADIENT = Mistake(
    "ex5.other_gradient", "the optimizer given another gradient than the loss's",
    "Give the optimizer the gradient of the loss the step returns, over the whole batch: loss, grads = "
    "jax.value_and_grad(loss_fn)(params, x, y), with nothing done to grads before optimizer.update (no clipping of "
    "each example's gradient, no noise, no other loss).")
MAX_NORM_OTHER = ("The clip's threshold is not the max_norm given (the message says what it measured): clip at "
                  "max_norm itself, optax.clip_by_global_norm(max_norm).")
HINT_BIAS_CORRECTION = ("Adam's first updates are larger than they should be by (1 - b1) / sqrt(1 - b2): its moment "
                        "estimates start at zero and must be divided by 1 - b1**t and 1 - b2**t at step t (bias "
                        "correction). optax.adam does this; use it after the clip.")
HINT_CHAIN = ("make_optimizer(learning_rate, max_norm) must give the updates of "
              "optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)).")
PARAMS_DEPENDENT = Mistake(
    "ex5.updates_depend_on_params", "updates that depend on the params (weight decay)",
    "The updates changed with the params alone: clipping and Adam read only the gradients, so something in the "
    "chain reads the params, such as weight decay (optax.adamw, add_decayed_weights). Use optax.adam.")
NOT_FROM_GRADIENTS = Mistake(
    "ex5.updates_without_gradients", "updates that do not come from the gradients (noise or a constant added)",
    "With every gradient zero, clipping and Adam give zero updates; these were not zero, and did not follow the "
    "params either: something in the chain adds to the updates whatever the gradients are (noise, a constant). "
    "Make the chain optax.clip_by_global_norm(max_norm) then optax.adam(learning_rate), nothing else.")
SIGN_FLIPPED = Mistake(
    "ex5.updates_sign_flipped", "updates of the wrong sign (gradient ascent)",
    "Every update is Adam's with the opposite sign, so a step goes up the gradient. optax.adam gives updates "
    "to add with optax.apply_updates; spelled out, it is scale_by_adam followed by scale(-learning_rate).")
LR_SCALED = Mistake(
    "ex5.learning_rate_scaled", "another learning rate than the one asked for",
    "Every update is Adam's times one constant factor (in the message): the learning rate Adam gets is not "
    "the learning_rate argument. Pass learning_rate to optax.adam as it is.")
DEFAULT_LR_WRONG = Mistake(
    "ex5.default_learning_rate", "a default learning_rate other than 1e-3",
    "make_optimizer() with no arguments uses another learning rate (in the message), while the learning_rate "
    "passed in is honoured: the defaults are make_optimizer(learning_rate=1e-3, max_norm=1.0).")
DEFAULT_MAX_NORM_WRONG = Mistake(
    "ex5.default_max_norm", "a default max_norm that does not clip at 1.0",
    "make_optimizer() with no arguments clips at another norm than 1.0, or not at all (a default max_norm of None, "
    "infinity or a large number; the message says what was measured), while a max_norm passed in is honoured: the "
    "defaults are make_optimizer(learning_rate=1e-3, max_norm=1.0).")
LR_CHANGES = Mistake(
    "ex5.learning_rate_changes", "a learning rate that changes from step to step",
    "Each step's update is Adam's times a factor that changes from step to step (in the message): the "
    "learning rate follows a schedule. make_optimizer uses the constant learning_rate it is given.")
CLIP_PART = Mistake(
    "ex5.clip_leaves_out", "a clip that covers only some of the gradient's leaves",
    "The clip acted on part of the gradient only (the message says which leaves): the global norm and the "
    "rescaling cover every leaf of the gradient tree, weights and biases of every layer. Chain "
    "optax.clip_by_global_norm(max_norm) before optax.adam(learning_rate) over the whole tree.")
GRADIENT_APPLIED = Mistake(
    "ex5.gradient_applied", "the gradient applied in place of the optimizer's updates",
    "The params moved by a multiple of the loss's gradient (in the message), not by the optimizer's updates: "
    "updates, new_state = optimizer.update(grads, opt_state, params), then optax.apply_updates(params, updates).")
HINT_LOSS = (
    "The loss differs already at the params the step was given, before any update: step returns loss_fn(params, "
    "x, y) there, the mean cross-entropy of the batch (no smoothing, weighting or other term), and takes the "
    "gradient of that same loss with jax.value_and_grad.")
UPDATES_SCALED = Mistake(
    "ex5.updates_scaled", "the optimizer's updates applied more than once, or scaled",
    "The params moved by a multiple of the optimizer's updates (in the message): apply them once, as they are: "
    "optax.apply_updates(params, updates).")
RETURN_ORDER = Mistake(
    "ex5.return_order", "the step's results returned in another order",
    "The step returned its three results in another order (the message says which): return "
    "(new_params, new_opt_state, loss), in that order, as the training loop unpacks them.")
GRADIENT_SCALED = Mistake(
    "ex5.gradient_scaled", "gradients scaled before the optimizer",
    "The loss is right, but the gradient the optimizer received is the loss's gradient times the factor in the "
    "message: pass the gradient from jax.value_and_grad(loss_fn) to optimizer.update as it is (the loss is "
    "already a mean over the batch).")
LOSS_SCALED = Mistake(
    "ex5.loss_scaled", "a loss that is a multiple of the mean cross-entropy",
    "The loss, and so its gradient, is the lesson's mean cross-entropy times the factor in the message: the "
    "loss is the mean over the batch, -jnp.mean(jnp.sum(log_softmax(logits) * one_hot(y, 10), axis=-1)); a "
    "factor equal to the batch size is a sum where the mean belongs.")
HINT_ARGUMENTS = ("For any arguments, make_optimizer(learning_rate, max_norm) must give the updates of "
                  "optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)); with the arguments "
                  "above they differ (the message says where).")
LR = Mistake("ex5.learning_rate_ignored", "a fixed learning rate",
    "learning_rate is ignored: pass it to Adam instead of a fixed value.")
MAX_NORM = Mistake("ex5.max_norm_ignored", "a fixed max_norm",
    "max_norm is ignored: pass it to the clipping transformation instead of a fixed value.")
REINIT = Mistake(
    "ex5.state_reinitialised", "a step that re-initialises the optimizer state on every call",
    "One step from a fresh state is right, but over several calls Adam's step count stays at 1: the step "
    "starts from optimizer.init(params) each time instead of the opt_state it is given. Use the incoming "
    "opt_state: updates, new_state = optimizer.update(grads, opt_state, params), and return new_state.")
HINT_CHAINED = (
    "One step from a fresh state is right, but steps chained together drift apart: each call must use the "
    "params and opt_state it is given, and return the new ones, with nothing kept between calls.")
HINT_STEP = (
    "step must compute loss and grads at the incoming params with jax.value_and_grad(loss_fn), then "
    "updates, new_state = optimizer.update(grads, opt_state, params), then optax.apply_updates."
)
LOSS_AFTER = Mistake("ex5.loss_after_update", "the loss after the update",
    "The returned loss is the loss after the update; return the loss computed at the incoming params.")
OWN_OPTIMIZER = Mistake(
    "ex5.ignores_optimizer", "a step that ignores the optimizer it is given",
    "The step ignored the optimizer it was given (an SGD optimizer here): use the optimizer argument "
    "of make_train_step, not one built inside it.")
FOREIGN_STATE = Mistake(
    "ex5.ignores_optimizer", "a step that ignores the optimizer it is given",
    "The step ignored the optimizer it was given: it failed on the state that optimizer (an SGD here) made, "
    "so it updates through another one. Use the optimizer argument of make_train_step, not one built elsewhere.")
NOT_JITTED = Mistake("ex5.not_jitted", "a step that is not jitted",
    "The step ran un-jitted (its body ran on every call): wrap it in jax.jit.")
RETRACED = Mistake(
    "ex5.retraced", "jax.jit applied anew on every call",
    "The step was traced again on calls with the same shapes: create the jitted function once in "
    "make_train_step and return it, instead of calling jax.jit inside every step.")

# name -> (hint, update sequence builder(grads_seq, lr, max_norm))
Variant = Callable[[list, float, float], list]
VARIANTS: dict[str, tuple[str, Variant]] = {
    "reference": ("", lambda g, lr, mn: npref.adam_updates(g, lr, pre=lambda t: npref.clip_global(t, mn))),
    "no_clip": (NO_CLIP, lambda g, lr, mn: npref.adam_updates(g, lr)),
    "clip_after": (CLIP_AFTER, lambda g, lr, mn: npref.adam_updates(g, lr, post=lambda t: npref.clip_global(t, mn))),
    "elementwise": (ELEMENTWISE,
                    lambda g, lr, mn: npref.adam_updates(g, lr, pre=lambda t: npref.clip_elementwise(t, mn))),
    "per_leaf": (PER_LEAF, lambda g, lr, mn: npref.adam_updates(g, lr, pre=lambda t: npref.clip_per_leaf(t, mn))),
    "per_layer": (PER_LAYER,
                  lambda g, lr, mn: npref.adam_updates(g, lr, pre=lambda t: npref.clip_per_layer(t, mn))),
    "per_kind": (PER_KIND, lambda g, lr, mn: npref.adam_updates(g, lr, pre=lambda t: npref.clip_per_kind(t, mn))),
    "first_step_only": (FIRST_STEP_ONLY, lambda g, lr, mn: [npref.adam_updates([t], lr, pre=lambda u: npref.clip_global(
        u, mn))[0] for t in g]),
    "swapped": (SWAPPED_ARGS, lambda g, lr, mn: npref.adam_updates(g, mn, pre=lambda t: npref.clip_global(t, lr))),
    "always_rescale": (ALWAYS_RESCALE,
                       lambda g, lr, mn: npref.adam_updates(g, lr, pre=lambda t: npref.rescale_to(t, mn))),
    "sgd": (SGD_FOR_ADAM, lambda g, lr, mn: npref.sgd_updates(g, lr, pre=lambda t: npref.clip_global(t, mn))),
    "adam_twice": (ADAM_TWICE, lambda g, lr, mn: npref.adam_updates(
        npref.adam_updates(g, -1.0, pre=lambda t: npref.clip_global(t, mn)), lr)),
    "adam_for_clip": (ADAM_FOR_CLIP, lambda g, lr, mn: npref.adam_updates(npref.adam_updates(g, lr), lr)),
    "clip_inside": (CLIP_INSIDE, lambda g, lr, mn: [{k: lr * v for k, v in npref.clip_global(u, mn).items()}
                                                    for u in npref.adam_updates(g, 1.0)]),
}


def _grads_seq(ctx: Context) -> list[dict]:
    grads = ctx.inputs["ex5"]["grads"]
    return [flatten(grads[str(i)]) for i in range(len(grads))]


def _as_steps(observed: dict) -> list[dict]:
    """``{"0/layer1/w": ...}`` -> ``[{"layer1/w": ...}, ...]``."""
    steps: dict[int, dict] = {}
    for path, value in observed.items():
        index, _, rest = path.partition("/")
        steps.setdefault(int(index), {})[rest] = value
    return [steps[i] for i in sorted(steps)]


def _classify(ctx: Context, observed: dict, lr: float, max_norm: float) -> list[str]:
    """Every known chain that produces ``observed`` updates for these arguments.

    Several can match: with Adam's small updates, clipping after Adam never
    triggers at max_norm=1, so it is indistinguishable from no clipping there.
    """
    try:
        steps = _as_steps(observed)
    except (ValueError, AttributeError):
        return []
    seq = _grads_seq(ctx)
    return [name for name, (_, build) in VARIANTS.items() if _same(steps, build(seq, lr, max_norm))]


def _same(steps: list[dict], expected: list[dict]) -> bool:
    return len(steps) == len(expected) and all(close(s, e, rtol=1e-3, atol_scale=1e-4) for s, e in zip(steps, expected))


def _step_scales(got: dict, want: dict) -> list[float] | None:
    """Per step, the factor that turns the expected update into the one observed, when one factor does (all
    leaves together); None when some step is not a multiple of the expected one."""
    try:
        got_steps, want_steps = _as_steps(got), _as_steps(want)
    except (ValueError, AttributeError):
        return None
    if len(got_steps) != len(want_steps) or not want_steps:
        return None
    scales = []
    for g, w in zip(got_steps, want_steps):
        scale = common_factor(g, w)
        if scale is None:
            return None
        scales.append(scale)
    return scales


BIAS_CORRECTION_WRONG = Mistake(
    "ex5.bias_correction_wrong", "Adam's bias correction taken at the wrong step count, or left out",
    "Adam divides its moment estimates by 1 - b1**t and 1 - b2**t, with t the number of updates so far (1 at the "
    "first update), read from the optimizer's state at every update (the message says what the updates measured "
    "instead). Compute both from the state's count inside update, not once outside it, or use optax.adam("
    "learning_rate) after optax.clip_by_global_norm(max_norm).")


def _bias_correction(scales: list[float]) -> str:
    """Which wrong bias correction of Adam's makes its update of step t = 1, 2, ... the expected one times
    ``scales[t - 1]`` (each within 1e-3); "" when none does. With the moments' corrections c1(t) = 1 - b1**t and
    c2(t) = 1 - b2**t, Adam's update is proportional to sqrt(c2(t)) / c1(t); eps aside, another correction is a
    factor per step, the same on every element."""
    t = np.arange(1, len(scales) + 1, dtype=np.float64)
    c1, c2 = (lambda s: 1 - ADAM_B1 ** s), (lambda s: 1 - ADAM_B2 ** s)
    right = np.sqrt(c2(t)) / c1(t)
    models = (
        ("frozen at their first step's values, 1 - b1 and 1 - b2, at every step", np.sqrt(c2(1.0)) / c1(1.0) / right),
        ("taken at a step count one ahead (t + 1 at the t-th update)", np.sqrt(c2(t + 1)) / c1(t + 1) / right),
        ("applied to the first moment only (the second moment not divided by 1 - b2**t)", 1 / np.sqrt(c2(t))),
        ("applied to the second moment only (the first moment not divided by 1 - b1**t)", c1(t)),
        ("left out on both moments", 1 / right),
        ("applied twice (in the step size and again on the moments)", right),
        ("swapped: 1 - b2**t divides the first moment and 1 - b1**t the second", np.sqrt(c1(t)) / c2(t) / right),
        ("on the second moment's root without a root of its own: sqrt(v) divided by 1 - b2**t where Adam divides "
         "it by sqrt(1 - b2**t) (v_hat = v / (1 - b2**t) comes before the square root)", np.sqrt(c2(t))))
    if len(scales) < 3:
        return ""
    for words, model in models:
        if np.allclose(scales, model, rtol=1e-3, atol=0):
            return (f"these are Adam's updates with its bias corrections {words}, for b1 = {ADAM_B1}, "
                    f"b2 = {ADAM_B2}")
    return ""


UPDATES_ZERO = Mistake(
    "ex5.updates_zero", "updates that are all exactly zero",
    "Every update is exactly 0, for every leaf and every step, so training never moves the params: something in the "
    "chain passes nothing on (optax.set_to_zero; a multi_transform or masked whose labels match none of these "
    "params' names, w and b, so every leaf is frozen; a learning rate of 0). Return optax.chain("
    "optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)) over the whole tree.")


DECAYS_WRONG = Mistake(
    "ex5.adam_decay_rates", "Adam with other decay rates (b1, b2) than its defaults",
    "The updates are clip + Adam's with another b1 or b2 than optax.adam's defaults (0.9 and 0.999; the message "
    "says which were measured). An argument passed by position to optax.adam or optax.scale_by_adam lands in b1 "
    "(scale_by_adam(b1=0.9, b2=0.999, ...) has no learning rate): pass the learning rate as optax.adam's own "
    "first argument, or by name, and leave b1 and b2 at their defaults.")
#: Decay rates a chain may have given Adam by mistake (besides the learning rate and max_norm it was given).
_DECAYS = (0.0, 0.5, 0.8, 0.85, 0.95, 0.98, 0.99, 0.995, 0.999, 0.9999)


def _adam_decays(ctx: Context, got: dict) -> str:
    """Words for updates that are clip + Adam's with another b1 and/or b2 (searched among :data:`_DECAYS`, the
    defaults, and the learning rate and max_norm themselves), at the default learning rate and max_norm; "" when
    none fits."""
    try:
        steps = _as_steps(got)
    except (ValueError, AttributeError):
        return ""
    seq = _grads_seq(ctx)
    values = sorted(set(_DECAYS) | {ADAM_B1, ADAM_B2, DEFAULT_LR, DEFAULT_MAX_NORM} - {1.0})
    for b1 in values:
        for b2 in values:
            if (b1, b2) == (ADAM_B1, ADAM_B2):
                continue
            want = npref.adam_updates(seq, DEFAULT_LR, pre=lambda t: npref.clip_global(t, DEFAULT_MAX_NORM), b1=b1,
                                      b2=b2)
            if _same(steps, want):
                named = {DEFAULT_LR: " (the learning rate)", DEFAULT_MAX_NORM: " (max_norm)"}
                which = [f"{name} = {value:g}{named.get(value, '')} where optax.adam's is {default:g}"
                         for name, value, default in (("b1", b1, ADAM_B1), ("b2", b2, ADAM_B2)) if value != default]
                return f"these are clip + Adam's updates with {' and '.join(which)}"
    return ""


def _large_gradient_factors(got: dict, want: dict, grads: list[dict]) -> list[float] | None:
    """Per step, the factor that turns the expected update into the one observed where the gradient is largest
    (:func:`_largest_ratio` by the gradient); None when some step has no one factor there."""
    try:
        ratios = [_largest_ratio(g, w, by=d) for g, w, d in zip(_as_steps(got), _as_steps(want), grads)]
    except (ValueError, AttributeError):
        return None
    return ratios if ratios and None not in ratios else None


def _scaled_words(got: dict, want: dict, grads: list[dict] | None = None) -> tuple[str, Mistake] | None:
    """What the updates are, measured as multiples of the expected ones, and the mistake that is; None when they
    are not multiples of them (or are them). ``grads``, the gradient of each step, lets a factor be read where eps
    weighs nothing."""
    scales = _step_scales(got, want)
    if scales is None and grads is not None:
        ratios = _large_gradient_factors(got, want, grads)
        corrected = _bias_correction(ratios) if ratios else ""
        if not corrected:
            return None
        shown = ", ".join(f"{x:.4g}" for x in ratios)
        return (f"step by step, the updates are the expected ones times {shown} where the gradient is largest: "
                f"{corrected}"), BIAS_CORRECTION_WRONG
    if not scales or all(abs(x - 1) < 1e-5 for x in scales):  # float32 rounding is about 1e-7
        return None
    if all(x == 0 for x in scales) and not any(np.any(np.asarray(v)) for v in got.values()):
        return "every update of every step is exactly 0: nothing the chain returns moves the params", UPDATES_ZERO
    shown = ", ".join(f"{x:.6g}" for x in scales)
    if all(abs(x + 1) < 1e-5 for x in scales):
        return "every step's update is the expected one times -1", SIGN_FLIPPED
    if max(scales) - min(scales) < 1e-5 * max(abs(x) for x in scales):
        return f"every step's update is the expected one times {scales[0]:.6g}", LR_SCALED
    corrected = _bias_correction(scales)
    if corrected:
        return f"step by step, the updates are the expected ones times {shown}: {corrected}", BIAS_CORRECTION_WRONG
    return f"step by step, the updates are the expected ones times {shown}", LR_CHANGES


def _fixed_point(lr: float, factor: float) -> str:
    """Words for a learning rate ``lr * factor`` that is ``lr`` cut or rounded to a multiple of 2**-k (fixed point,
    k from 4 to 24); "" otherwise."""
    used = lr * factor
    for k in range(4, 25):  # the coarsest grid that gives it
        down, nearest = np.floor(lr * 2.0 ** k), np.round(lr * 2.0 ** k)
        for steps, how in ((down, "rounded down" if down != nearest else "rounded"), (nearest, "rounded up")):
            grid = float(steps) / 2.0 ** k
            if grid > 0 and grid != lr and abs(used / grid - 1) < 1e-5:
                return (f": a learning rate of {used:.6g} = {int(steps)} / 2**{k}, learning_rate {how} to a "
                        f"multiple of 2**-{k} (fixed point)")
    return ""


def _arguments_honoured(ctx: Context) -> bool:
    """make_optimizer with explicit arguments (by keyword and by position) gives the reference's updates."""
    try:
        return all(tree_mismatch(ctx.got(f"opt/{config}"), ctx.want(f"opt/{config}")) is None
                   for config in ("custom", "positional"))
    except (StudentError, Missing):  # a call that failed, or a run that did not report it, honours nothing
        return False


def _step_counts(got: dict, want: dict) -> str:
    """Words for a first update whose every leaf is Adam's with its bias correction taken at a step count of its
    own, t = 1, 2, ... (not all 1): Adam's first update at count t is (1 - b1) / (1 - b1**t) * sqrt((1 - b2**t) /
    (1 - b2)) times the right one; "" otherwise."""
    factor = {t: (1 - ADAM_B1) / (1 - ADAM_B1 ** t) * np.sqrt((1 - ADAM_B2 ** t) / (1 - ADAM_B2)) for t in range(1, 65)}
    counts = {}
    for leaf in sorted(want):
        ratio = _largest_ratio({leaf: got.get(leaf)}, {leaf: want[leaf]}) if leaf in got else None
        if ratio is None:
            return ""
        nearest = min(factor, key=lambda t: abs(ratio - factor[t]))
        if abs(ratio - factor[nearest]) > 1e-4 * factor[nearest]:
            return ""
        counts[leaf] = nearest
    if len(set(counts.values())) < 2:
        return ""
    shown = ", ".join(f"{leaf} at t = {t}" for leaf, t in list(counts.items())[:6])
    return (f"; the first update of each leaf is Adam's with its bias correction at a step count of its own ({shown}"
            f"{', ...' if len(counts) > 6 else ''}): the step count went up for every leaf, where Adam counts "
            "updates")


def _vector(tree: Any, keys: list[str]) -> np.ndarray:
    """The leaves ``keys`` of a flat ``{path: array}`` tree, as one float64 vector (KeyError, TypeError or
    ValueError when the tree does not have them as arrays)."""
    return np.concatenate([np.asarray(tree[k], np.float64).ravel() for k in keys])


def _largest_ratio(got: dict, want: dict, by: dict | None = None) -> float | None:
    """got / want on the hundredth of the elements where ``by`` (``want`` itself when not given) is largest, when
    it is one number there (within 1e-3).

    On Adam's first step every update is about the learning rate, and eps weighs only where the gradient is
    tiny: the largest ones show the step's own factor. At any step, where the step's gradient (``by``) is largest
    eps weighs nothing, whatever scale the moments are taken at."""
    try:
        keys = sorted(want)
        g, w = _vector(got, keys), _vector(want, keys)
        d = w if by is None else _vector(by, keys)
    except (KeyError, TypeError, ValueError):
        return None
    if not g.shape == w.shape == d.shape or not np.any(w):
        return None
    top = np.argsort(np.abs(d))[-max(1, d.size // 100):]
    if not np.all(w[top]):
        return None
    ratios = g[top] / w[top]
    middle = float(np.median(ratios))
    return middle if np.all(np.isfinite(ratios)) and np.ptp(ratios) <= 1e-3 * abs(middle) else None


NOT_ADAPTIVE = Mistake(
    "ex5.not_adaptive", "an optimizer after the clip that does not scale each parameter's step (not Adam)",
    "Use optax.adam(learning_rate) after the clip, optax.chain(optax.clip_by_global_norm(max_norm), "
    "optax.adam(learning_rate)): Adam divides each parameter's step by the size of its gradients, so its first "
    "step moves every parameter by about learning_rate.")


def _proportional(update: dict, grads: dict, lr: float) -> str:
    """Words for a first update (taken below max_norm) that is one factor times the gradient, measured: no
    per-parameter scaling, where Adam's first update is -lr * g / (|g| + eps), about -lr * sign(g); "" otherwise."""
    try:
        factor = common_factor({k: -np.asarray(update[k], np.float64) / lr for k in grads}, grads, rtol=1e-3)
    except (KeyError, TypeError, ValueError):
        return ""
    if factor is None or factor <= 0:
        return ""
    return (f"; the first update, below max_norm, is -{factor:.4g} * learning_rate * g: proportional to the "
            "gradient, where Adam's first update moves each parameter by about learning_rate (-learning_rate * "
            "g / (|g| + eps)): the optimizer after the clip does not scale each parameter's step by its gradient's "
            "size (as SGD, momentum and RAdam's first steps do not)")


SECOND_MOMENT_PER_LEAF = Mistake(
    "ex5.second_moment_per_leaf", "Adam's second moment taken as one number per leaf",
    "Adam's second moment is kept element by element, v = b2 * v + (1 - b2) * g**2 with g**2 the square of each "
    "element, so each parameter's step is divided by the root mean square of its own gradients. Here each leaf was "
    "divided by one number (the message says which): use optax.adam(learning_rate) after "
    "optax.clip_by_global_norm(max_norm).")

#: Statistics of a leaf's gradient that an Adam may take as the root of its second moment, one number per leaf.
_LEAF_STATISTICS = (
    ("its L2 norm, ||g_leaf|| (the second moment fed the leaf's squared norm)", lambda a, n: np.sqrt(np.sum(a ** 2))),
    ("its root mean square (the second moment fed the mean of the leaf's squares)",
     lambda a, n: np.sqrt(np.mean(a ** 2))),
    ("its largest |g|", lambda a, n: np.max(np.abs(a))),
    ("the global norm over every leaf (the second moment fed the tree's squared norm)", lambda a, n: n),
)


def _per_leaf_denominator(update: dict, grads: dict, lr: float) -> str:
    """Words for a first update, below max_norm, that is -lr * g / s with s one number per leaf, a statistic of
    that leaf's gradient (:data:`_LEAF_STATISTICS`), where Adam's is -lr * g / (|g| + eps) element by element;
    "" when no one statistic gives every leaf's."""
    try:
        leaves = {k: np.asarray(grads[k], np.float64) for k in grads}
        steps = {k: -np.asarray(update[k], np.float64) / lr for k in grads}
    except (KeyError, TypeError, ValueError):
        return ""
    if any(steps[k].shape != leaves[k].shape for k in leaves):
        return ""
    norm = float(np.sqrt(sum(np.sum(a ** 2) for a in leaves.values())))
    for words, statistic in _LEAF_STATISTICS:
        want = {k: a / (statistic(a, norm) + ADAM_EPS) if statistic(a, norm) > 0 else np.zeros_like(a)
                for k, a in leaves.items()}
        if tree_mismatch(steps, want, rtol=1e-3, atol_scale=1e-4) is None:
            return (f"; the first update, below max_norm, is -learning_rate * g / s with s one number per leaf, "
                    f"{words}, where Adam divides each element by its own |g| (its first update moves every "
                    "parameter by about learning_rate)")
    return ""


def _clip_inverted(update: dict, grads: dict, lr: float) -> str:
    """Words for a first update, below max_norm, that is Adam's first update on the gradient times norm / max_norm
    (a clip ratio upside down, which scales a gradient it must leave alone); "" otherwise. On any other factor s,
    Adam's first update -lr * s * g / (|s * g| + eps) reads as another eps, which ``_adam_eps`` words."""
    try:
        g = np.concatenate([np.asarray(grads[k], np.float64).reshape(-1) for k in sorted(grads)])
        q = np.concatenate([-np.asarray(update[k], np.float64).reshape(-1) / lr for k in sorted(grads)])
    except (KeyError, TypeError, ValueError):
        return ""
    norm = float(np.sqrt(np.sum(g ** 2)))
    factor = norm / DEFAULT_MAX_NORM
    if g.shape != q.shape or not 0 < factor < 0.99 or tree_mismatch(
            {"g": q}, {"g": factor * g / (np.abs(factor * g) + ADAM_EPS)}, rtol=1e-3, atol_scale=1e-4):
        return ""
    return (f"; the first update, below max_norm, is Adam's for the gradient times {factor:.3g}, its norm over "
            f"max_norm ({norm:.3g} / {DEFAULT_MAX_NORM:g}): the clip scaled by norm / max_norm, upside down, a "
            "gradient it must leave alone")


def _adam_eps(update: dict, grads: dict, lr: float) -> str:
    """Words for where Adam's eps went, read off a first update taken below max_norm: Adam's first update is
    -lr * g / (|g| + eps), so each element gives its denominator; "" when no one eps, inside or outside the square
    root, gives them all."""
    try:
        g = np.concatenate([np.asarray(grads[k], np.float64).reshape(-1) for k in sorted(grads)])
        q = np.concatenate([-np.asarray(update[k], np.float64).reshape(-1) / lr for k in sorted(grads)])
    except (KeyError, TypeError, ValueError):
        return ""
    if g.shape != q.shape:
        return ""
    tiny = (g != 0) & (np.abs(g) < 1e-5)  # where eps = 1e-8 takes a thousandth or more of |g| + eps
    if np.sum(tiny) >= 10 and np.all(np.abs(q[tiny] - np.sign(g[tiny])) < 1e-4):
        zero = g == 0
        nan = f"; where a gradient element is 0 that is 0/0, NaN ({int(np.sum(~np.isfinite(q[zero])))} of them)" \
            if zero.any() else ""
        return ("; the first update, below max_norm, is -learning_rate * g / |g| to 1e-4, even where |g| is under "
                f"1e-5 (Adam's eps = 1e-8 makes those a thousandth smaller or more): Adam's eps is left out{nan}")
    shrunk = (g != 0) & (np.abs(q) > 1e-6) & (np.abs(q) < 0.99) & (np.sign(q) == np.sign(g))
    if np.sum(shrunk) < 10:
        return ""
    denominator, size = g[shrunk] / q[shrunk], np.abs(g[shrunk])
    for where, estimate, model in (
            ("added outside the square root, as optax.adam's eps is", np.median(denominator - size),
             lambda e: g / (np.abs(g) + e)),
            ("added inside the square root (optax's eps_root), not outside it", np.median(denominator ** 2 - size ** 2),
             lambda e: g / np.sqrt(g ** 2 + e))):
        if estimate > 0 and np.allclose(q, model(estimate), rtol=1e-3, atol=1e-4):
            if where.startswith("added outside") and abs(estimate / 1e-8 - 1) < 0.1:
                return ""  # optax.adam's own eps: the difference is elsewhere
            return (f"; the first update, below max_norm, is -learning_rate * g / (|g| + eps) with an eps of "
                    f"{estimate:.3g} {where}; that is also what Adam's own eps (1e-8) gives on gradients "
                    f"{1e-8 / estimate:.3g} times the loss's: either Adam's eps is another, or something scales "
                    "the gradients before Adam (a clip that acts below max_norm)"
                    if where.startswith("added outside") else
                    f"; the first update, below max_norm, is -learning_rate * g / sqrt(g**2 + {estimate:.3g}): "
                    f"Adam's eps {where}")
    return ""


def _first_divergence(got: dict, want: dict, grads: dict | None = None) -> tuple[str, str]:
    """Where the updates first differ, in words for the message, and the hint that follows from it (``grads``:
    the first gradient, to read Adam's eps off the first update)."""
    try:
        got_steps, want_steps = _as_steps(got), _as_steps(want)
    except (ValueError, AttributeError):
        return "", HINT_CHAIN
    for i, (g, w) in enumerate(zip(got_steps, want_steps)):
        if tree_mismatch(g, w):
            if i == SPIKE_STEP:
                return (f"; the updates first differ at step {i}, the norm spike: the steps before it (norm 0.5, "
                        "below max_norm, where clipping changes nothing) agree, so Adam and its learning rate are "
                        "right and the difference is in the clipping"), HINT_CHAIN
            if i == 0:
                first = _largest_ratio(g, w)
                uncorrected = (1 - ADAM_B1) / np.sqrt(1 - ADAM_B2)
                if first is not None and abs(first - uncorrected) <= 1e-3 * uncorrected:
                    return (f"; the first update is {first:.4g} times Adam's, (1 - b1) / sqrt(1 - b2) for b1 = "
                            f"{ADAM_B1}, b2 = {ADAM_B2}: Adam's moment estimates without their bias correction "
                            "(dividing them by 1 - b1**t and 1 - b2**t, which optax.adam does)"), HINT_BIAS_CORRECTION
                counts = _step_counts(g, w)
                if counts:
                    return counts, STEP_PER_LEAF
                proportional = _proportional(g, grads, DEFAULT_LR) if grads is not None else ""
                if proportional:
                    return proportional, NOT_ADAPTIVE
                per_leaf = _per_leaf_denominator(g, grads, DEFAULT_LR) if grads is not None else ""
                if per_leaf:
                    return per_leaf, SECOND_MOMENT_PER_LEAF
                inverted = _clip_inverted(g, grads, DEFAULT_LR) if grads is not None else ""
                if inverted:
                    return inverted, CLIP_INVERTED
                eps = _adam_eps(g, grads, DEFAULT_LR) if grads is not None else ""
                if eps:
                    return eps, ("Use optax.adam(learning_rate) with its own eps (1e-8, added outside the square "
                                 "root), and clip with optax.clip_by_global_norm(max_norm), which leaves a gradient "
                                 "whose norm is at most max_norm as it is: optax.chain(optax.clip_by_global_norm("
                                 "max_norm), optax.adam(learning_rate)).")
                factor = (f" (the first update is {first:.4g} times Adam's on its largest elements)" if first else
                          " (the first update is 0 everywhere)" if not any(np.any(np.asarray(v)) for v in g.values())
                          else "")
                factor += _leaves_agreeing(g, w)
                return ("; the updates differ from step 0, where the gradient's norm (0.5) is below max_norm and "
                        "clipping changes nothing: the difference is in the optimizer after the clip (Adam and "
                        f"its learning rate), or in a clip that changes small gradients{factor}"), HINT_CHAIN
            if i > SPIKE_STEP:
                return (f"; the updates first differ at step {i}, after the norm spike: steps 0 to {i - 1}, the "
                        f"spike at step {SPIKE_STEP} included, agree, so the clip and Adam are right on each "
                        "gradient alone, and what differs is carried over from the spike"), CLIP_CARRIED
            agree = "step 0 agrees" if i == 1 else f"steps 0 to {i - 1} agree"
            return (f"; the updates first differ at step {i}: {agree} with clip + Adam (below max_norm, where "
                    "clipping changes nothing), so the optimizer's first update is Adam's and what differs comes "
                    "in later, as its moment estimates build up"
                    if i < SPIKE_STEP else f"; the updates first differ at step {i}"), HINT_CHAIN
    return "", HINT_CHAIN


CLIP_CARRIED = Mistake(
    "ex5.clip_carried_over", "a clip that carries something over from an earlier gradient",
    "The steps up to the spike, and the spike itself, are clipped and updated right; the steps after it are not, so "
    "something computed at the spike stays in the optimizer's state and changes later steps. Clip each gradient "
    "by its own global norm, scale = min(1, max_norm / norm(g)) with g the current gradient, keeping nothing "
    "between steps (optax.clip_by_global_norm keeps nothing), and let optax.adam alone carry state.")


UPDATES_AVERAGED = Mistake(
    "ex5.updates_averaged", "Adam's updates averaged or accumulated across steps (optax.ema or trace after Adam)",
    "Adam's update at each step is the last thing in the chain: nothing after optax.adam carries updates from one "
    "step to the next (optax.ema averages updates, not params; optax.trace adds momentum). Return "
    "optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)); keep averaged params, if wanted, "
    "outside the optimizer.")


def _carry_weights(got: dict, want: dict) -> np.ndarray | None:
    """C with update t = sum over s <= t of C[t, s] * (the expected update of step s), fitted step by step over
    every leaf by least squares; None when some step is no such combination (within 1e-3 of its norm), when the
    steps cannot be read, or when no update takes anything from an earlier step (C diagonal)."""
    try:
        got_steps, want_steps = _as_steps(got), _as_steps(want)
    except (ValueError, AttributeError):
        return None
    if len(got_steps) != len(want_steps) or len(want_steps) < 3:
        return None
    keys = sorted(want_steps[0])
    try:
        g = [_vector(s, keys) for s in got_steps]
        w = [_vector(s, keys) for s in want_steps]
    except (KeyError, ValueError, TypeError):
        return None
    if any(a.shape != w[0].shape or not np.all(np.isfinite(a)) for a in g):
        return None
    weights = np.zeros((len(w), len(w)))
    for t in range(len(w)):
        basis = np.stack(w[:t + 1], axis=1)
        coef, *_ = np.linalg.lstsq(basis, g[t], rcond=None)
        if np.linalg.norm(basis @ coef - g[t]) > 1e-3 * max(np.linalg.norm(g[t]), 1e-12):
            return None
        weights[t, :t + 1] = coef
    earlier = weights[np.tril_indices(len(w), -1)]
    if not np.any(np.abs(earlier) > 1e-3):
        return None  # each update its own step's, rescaled at most: nothing carried over (a schedule's finding)
    return weights


def _updates_carried(got: dict, want: dict) -> tuple[str, Mistake | str] | None:
    """Words for updates that are each a combination of clip + Adam's updates so far (measured by
    :func:`_carry_weights`): an average with decay d, debiased (optax.ema) or not, or a sum with decay d (optax.trace),
    named when the weights fit one; else the weights themselves. None when the updates are no such combination."""
    weights = _carry_weights(got, want)
    if weights is None:
        return None
    n = len(weights)
    rows = "; ".join(f"step {t}: " + ", ".join(f"{c:.3g}" for c in weights[t, :t + 1]) for t in range(min(n, 3)))
    words = (f"each update is a weighted sum of clip + Adam's updates of that step and the steps before it "
             f"({rows}, ...): something after Adam carries updates over from step to step")
    d = weights[1, 0] / weights[1, 1] if abs(weights[1, 1]) > 1e-9 else None
    if d is None or not 0 < d < 1:
        return words, HINT_CHAIN
    powers = np.array([[d ** (t - s) if s <= t else 0.0 for s in range(n)] for t in range(n)])
    shapes = (("an exponential moving average of Adam's updates with decay {d:.4g}, debiased (optax.ema after Adam)",
               powers * (1 - d) / (1 - d ** (np.arange(n) + 1))[:, None]),
              ("an exponential moving average of Adam's updates with decay {d:.4g}, not debiased",
               powers * (1 - d)),
              ("a momentum of {d:.4g} on Adam's updates (optax.trace after Adam)", powers))
    for name, model in shapes:
        if np.allclose(weights, model, rtol=1e-2, atol=1e-3):
            return f"{words}: they are {name.format(d=d)}", UPDATES_AVERAGED
    return words, HINT_CHAIN


def _leaves_agreeing(got: dict, want: dict) -> str:
    """Words for a step's update that agrees with the expected one on some leaves and not on the others: which
    are which; "" when every leaf differs (or none does)."""
    same = [k for k in sorted(want) if k in got and tree_mismatch({k: got[k]}, {k: want[k]}) is None]
    if not same or len(same) == len(want):
        return ""
    return (f"; its leaves {', '.join(same)} agree, and {', '.join(k for k in sorted(want) if k not in same)} "
            "differ: what differs acts on those leaves only")


CALLS_CHANGE = Mistake(
    "ex5.optimizer_changes_between_calls", "make_optimizer's result changing from call to call",
    "make_optimizer must build the same optimizer every time it is called with the same arguments: nothing may "
    "persist from one call to the next. A default argument that is a list or dict (transforms=[]) is made once, "
    "when the def runs, and a call that extends it in place (+=, append) leaves its stages for the next call; a "
    "global counter or cache does the same. Build everything inside the call: return optax.chain("
    "optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)).")


def _differs_later(ctx: Context, name: str, first: dict) -> str | None:
    """How the updates observed as ``name`` (an optimizer made or run after the other calls) differ from ``first``;
    None when they agree, or were not observed."""
    try:
        later = ctx.got(name) if ctx.student.has(name) else None
    except StudentError:
        return None
    return tree_mismatch(later, first) if later is not None else None


def _changed_between_calls(ctx: Context, first: dict) -> str:
    """Words for a make_optimizer() whose first call's updates differ from those of a call made later with the same
    arguments, params and gradients; "" when they agree (or the later call was not observed)."""
    differs = _differs_later(ctx, "opt/again", first)
    if differs is None:
        return ""
    return (f"make_optimizer() gave the expected updates the first time it was called, and other updates for the "
            f"same params and gradients when called again with no arguments (its call number {AGAIN_CALL}): "
            f"{differs}; each call's optimizer depends on the calls made before it")


SHARED_SETTINGS = Mistake(
    "ex5.optimizers_share_settings", "optimizers that share their settings",
    "Each optimizer make_optimizer returns must keep its own learning_rate and max_norm: making another one changed "
    "this one's updates. A value assigned to a class attribute (ClassName.max_norm = ..., or a class-level default "
    "changed in __init__) or to a global is shared by every optimizer; keep it on the instance (self.max_norm) or in "
    "the closure of the function that builds the transformation, or use optax.clip_by_global_norm(max_norm).")


def _changed_by_another(ctx: Context, first: dict) -> str:
    """Words for an optimizer whose updates changed once make_optimizer had made another one (with the arguments
    of the second observed call); "" when they did not (or this was not observed)."""
    differs = _differs_later(ctx, "opt/after_another", first)
    if differs is None:
        return ""
    _, args, kwargs = OPTIMIZERS[1]
    made = ", ".join([*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())])
    return (f"an optimizer from make_optimizer() gave the expected updates, and other updates for the same params "
            f"and gradients once make_optimizer({made}) had made another optimizer: {differs}; making one optimizer "
            "changed another")


def chain(ctx: Context) -> Verdict:
    """make_optimizer() equals clip_by_global_norm(1.0) then adam(1e-3) across a norm spike."""
    got, want = ctx.got("opt/default"), ctx.want("opt/default")
    problem = tree_mismatch(got, want)
    if problem is None:
        again = _changed_between_calls(ctx, got)
        if again:
            return fail(again, CALLS_CHANGE)
        shared = _changed_by_another(ctx, got)
        if shared:
            return fail(shared, SHARED_SETTINGS)
        differs = tree_mismatch(ctx.got("opt/large_params"), got)
        if differs is not None:
            return fail(f"make_optimizer() gave other updates for the same gradients when the params were "
                        f"{LARGE_PARAMS:,.0f} times larger: {differs}", PARAMS_DEPENDENT)
        not_finite = _not_finite_without_gradients(ctx)
        if not_finite:
            return fail(not_finite, ZERO_NORM_NAN, fraction=0.5)
        near = _near_max_norm(ctx)
        if near:
            return fail(near[0], near[1], fraction=0.5)
        return PASS
    kinds = [k for k in _classify(ctx, got, DEFAULT_LR, DEFAULT_MAX_NORM) if k != "reference"]
    spike = npref.global_norm(_grads_seq(ctx)[SPIKE_STEP])
    message = f"make_optimizer() over 6 gradients (norm 0.5, a spike of norm {spike:.0f} at step {SPIKE_STEP})"
    if {"no_clip", "clip_after"} == set(kinds) and _arguments_honoured(ctx):
        return fail(f"{message}: {problem}; measured: these are plain Adam updates, nothing clipped at the spike, "
                    "while make_optimizer(learning_rate=0.01, max_norm=0.3) and make_optimizer(0.05, 5.0) give the "
                    "expected updates: only the default max_norm leaves the gradient unclipped",
                    DEFAULT_MAX_NORM_WRONG)
    if {"no_clip", "clip_after"} == set(kinds):
        hint = _no_clip_or_after(ctx)
        elsewhere = _clips_elsewhere(ctx) if hint == HINT_NO_CLIP_OR_AFTER else ""
        if elsewhere:
            return fail(f"{message}: {problem}; measured: these are plain Adam updates: nothing was clipped at the "
                        f"spike, though its norm is above max_norm={DEFAULT_MAX_NORM:g}; {elsewhere}",
                        OTHER_NORM)
    elif len(kinds) == 1:
        hint = VARIANTS[kinds[0]][0]
    else:  # no known chain, or several alike here: say what was measured, guess nothing
        scaled = _scaled_words(got, want, _grads_seq(ctx))
        if scaled:
            words, mistake = scaled
            if mistake is LR_SCALED and _arguments_honoured(ctx):
                factor = _step_scales(got, want)[0]
                return fail(f"{message}: {problem}; measured: {words}, a learning rate of {factor * DEFAULT_LR:.3g}, "
                            "while make_optimizer(learning_rate=..., max_norm=...) gives the expected updates",
                            DEFAULT_LR_WRONG)
            if mistake is LR_SCALED:
                words += _fixed_point(DEFAULT_LR, _step_scales(got, want)[0])
            return fail(f"{message}: {problem}; measured: {words}", mistake)
        elsewhere = _moved_without_gradients(ctx) if not kinds else None
        if elsewhere is not None:
            words, mistake = elsewhere
            return fail(f"{message}: {problem}; measured: {words}", mistake)
        covered = _clipped_leaves(ctx, got) if not kinds else None
        if covered:
            return fail(f"{message}: {problem}; measured: these are the updates of a clip by the global norm of "
                        f"{', '.join(covered)} alone, rescaling those leaves and leaving the others as they were",
                        CLIP_PART)
        missing = _norm_leaves_missing(got, _grads_seq(ctx)) if not kinds else ""
        if missing:  # before the element cap, whose free cap can fit a spike scaled a little off
            return fail(f"{message}: {problem}; measured: {missing}", NORM_LEAVES_MISSING)
        capped = _element_cap(ctx, got) if not kinds else None
        if capped:
            return fail(f"{message}: {problem}; measured: {capped}", ELEMENTS_CAPPED_TOO)
        decays = _adam_decays(ctx, got) if not kinds else ""
        if decays:
            return fail(f"{message}: {problem}; measured: {decays}", DECAYS_WRONG)
        factor, confirmed, came_out = _clip_factor(ctx, got) if not kinds else ("", False, 0.0)
        if confirmed:  # before the threshold, which reads the same on the default's gradients
            return fail(f"{message}: {problem}; measured: {factor}", CLIP_FACTOR)
        try:
            threshold = None if kinds else _measured_threshold(_as_steps(got), _grads_seq(ctx), DEFAULT_LR,
                                                               [VARIANTS["reference"][1]])
        except (ValueError, AttributeError):
            threshold = None
        if threshold is not None and abs(threshold - DEFAULT_MAX_NORM) <= 1e-2 * DEFAULT_MAX_NORM:
            threshold = None  # the clip is at max_norm itself: what differs is elsewhere (Adam)
        if threshold is not None:
            other = _other_norm(_grads_seq(ctx)[SPIKE_STEP], threshold / DEFAULT_MAX_NORM)
            if other:
                return fail(f"{message}: {problem}; measured: these are the updates of a clip at max_norm="
                            f"{DEFAULT_MAX_NORM:g} by {other}, not by the global L2 norm of all the gradients",
                            OTHER_NORM)
            if _arguments_honoured(ctx):
                return fail(f"{message}: {problem}; measured: these are the updates of a clip at a global norm of "
                            f"{threshold:.3g}, where the default max_norm is {DEFAULT_MAX_NORM:g}, while "
                            "make_optimizer(learning_rate=0.01, max_norm=0.3) and make_optimizer(0.05, 5.0) give the "
                            "expected updates: only the default max_norm differs", DEFAULT_MAX_NORM_WRONG)
            return fail(f"{message}: {problem}; measured: these are the updates of a clip at a global norm of "
                        f"{threshold:.3g}, where max_norm={DEFAULT_MAX_NORM:g}", MAX_NORM_OTHER)
        rms = _rms_without_momentum(got, _grads_seq(ctx), DEFAULT_LR, DEFAULT_MAX_NORM) if not kinds else ""
        if rms:
            return fail(f"{message}: {problem}; measured: {rms}", NO_MOMENTUM)
        carried = _updates_carried(got, want) if not kinds else None
        if carried is not None:
            return fail(f"{message}: {problem}; measured: {carried[0]}", carried[1])
        if factor:
            other = _other_norm(_grads_seq(ctx)[SPIKE_STEP], came_out / DEFAULT_MAX_NORM, tolerance=2e-3)
            if other:
                return fail(f"{message}: {problem}; measured: {factor}: the clip measured the spike as {other}",
                            OTHER_NORM)
            return fail(f"{message}: {problem}; measured: {factor}", CLIP_FACTOR)
        scaled = _scaled_before_adam(ctx, got)
        if scaled:
            return fail(f"{message}: {problem}; measured: {scaled[0]}", scaled[1])
        words, hint = _first_divergence(got, want, _grads_seq(ctx)[0])
        return fail(f"{message}{words}: {problem}", hint)
    named = f"; {equals(hint, 'your chain')}" if isinstance(hint, Mistake) else ""
    return fail(f"{message}: {problem}{named}", hint)


ELEMENTS_CAPPED_TOO = Mistake(
    "ex5.elementwise_clip_too", "each element capped as well as the global norm clipped",
    "Besides the clip by the global norm, each gradient element is capped at a value (the message says which, and "
    "whether before or after): an element-wise clip (optax.clip, Keras' clipvalue) bends the gradient's direction "
    "at a spike. Clip by the global norm alone: optax.chain(optax.clip_by_global_norm(max_norm), "
    "optax.adam(learning_rate)).")


def _element_cap(ctx: Context, got: dict) -> str:
    """Words for updates that are Adam's on a gradient clipped by its global norm at max_norm and also capped
    element by element at a value measured here (before or after the global clip); "" when neither fits."""
    try:
        steps, seq = _as_steps(got), _grads_seq(ctx)
    except (ValueError, AttributeError):
        return ""
    mn = DEFAULT_MAX_NORM
    orders = {
        "before": lambda g, lr, t: npref.adam_updates(g, lr, pre=lambda u: npref.clip_global(
            npref.clip_elementwise(u, t), mn)),
        "after": lambda g, lr, t: npref.adam_updates(g, lr, pre=lambda u: npref.clip_elementwise(
            npref.clip_global(u, mn), t)),
    }
    for order, build in orders.items():
        cap = _measured_threshold(steps, seq, DEFAULT_LR, [build])
        if cap is not None:
            return (f"these are the updates of a gradient whose elements were each capped at +-{cap:.3g} (an "
                    f"element-wise clip) {order} the clip by the global norm at max_norm={mn:g}")
    return ""


NO_MOMENTUM = Mistake(
    "ex5.rms_without_momentum", "RMSprop's rule (no running mean of the gradients) in place of Adam",
    "Use optax.adam(learning_rate) after the clip: Adam keeps a running mean of the gradients (b1 = 0.9) as well "
    "as of their squares (b2 = 0.999), and corrects both for starting at zero; RMSprop keeps only the squares'.")


def _rms_without_momentum(observed: dict, seq: list[dict], lr: float, max_norm: float) -> str:
    """Words for updates that are -lr * g_t / sqrt(nu_t) with nu_t a running mean of the clipped gradients'
    squares and no running mean of the gradients themselves (RMSprop's rule), its decay read off the first update
    and every step then predicted; "" when that does not give them all."""
    try:
        steps = _as_steps(observed)
        clipped = [npref.clip_global(g, max_norm) for g in seq]
        g0 = np.concatenate([np.asarray(clipped[0][k], np.float64).reshape(-1) for k in sorted(clipped[0])])
        q0 = np.concatenate([-np.asarray(steps[0][k], np.float64).reshape(-1) / lr for k in sorted(clipped[0])])
    except (ValueError, AttributeError, KeyError, TypeError, IndexError):
        return ""
    big = np.abs(g0) > 1e-3 * np.max(np.abs(g0)) if g0.size and q0.shape == g0.shape else np.zeros(0, bool)
    if np.sum(big) < 10 or np.any(np.sign(q0[big]) != np.sign(g0[big])):
        return ""
    large = big & (np.abs(g0) >= np.median(np.abs(g0[big])))  # where eps is the least part of the denominator
    g, q = np.abs(g0[large]), np.abs(q0[large])
    for inside in (True, False):  # optax's eps inside the square root, or outside it; 1 - decay fitted with it
        share = float(np.median(1 / q**2 - 1e-8 / g**2 if inside else ((g / q - 1e-8) / g) ** 2))
        if not 0 < share < 1:
            continue
        decay, nu, predicted = 1 - share, {}, []
        for grads in clipped:
            nu = {key: decay * nu.get(key, 0.0) + share * np.asarray(v, np.float64) ** 2 for key, v in grads.items()}
            predicted.append({key: -lr * np.asarray(grads[key], np.float64) /
                              (np.sqrt(nu[key] + 1e-8) if inside else np.sqrt(nu[key]) + 1e-8) for key in grads})
        if _same(steps, predicted):
            return (f"each update is -learning_rate * g / sqrt(nu), nu a running mean of the squared (clipped) "
                    f"gradients with decay {decay:.3g}, and nothing averages the gradients themselves (no momentum): "
                    f"RMSprop's rule, not Adam's; its first update is about {1 / np.sqrt(share):.4g} * learning_rate "
                    "* sign(g), Adam's is learning_rate * sign(g)")
    return ""
    decay = 1 - 1 / k**2
    for inside in (True, False):
        nu: dict = {}
        predicted = []
        for g in clipped:
            nu = {key: decay * nu.get(key, 0.0) + (1 - decay) * np.asarray(v, np.float64) ** 2 for key, v in g.items()}
            predicted.append({key: -lr * np.asarray(g[key], np.float64) /
                              (np.sqrt(nu[key] + 1e-8) if inside else np.sqrt(nu[key]) + 1e-8) for key in g})
        if _same(steps, predicted):
            return (f"each update is -learning_rate * g / sqrt(nu), nu a running mean of the squared (clipped) "
                    f"gradients with decay {decay:.3g}, and nothing averages the gradients themselves (no momentum): "
                    f"RMSprop's rule, not Adam's; its first update is {k:.4g} * learning_rate * sign(g), Adam's is "
                    "learning_rate * sign(g)")
    return ""


def _zero_grads(ctx: Context) -> dict | None:
    """What make_optimizer()'s updates from zero gradients measured (``opt/zero_grads``); None where that was not
    observed or failed."""
    try:
        return ctx.got("opt/zero_grads") if ctx.student.has("opt/zero_grads") else None
    except StudentError:
        return None


def _not_finite_without_gradients(ctx: Context) -> str:
    """Words for updates that are not finite (NaN or infinite) when every gradient is zero, where clipping and Adam
    give zeros; "" otherwise, or where that was not measured."""
    zero = _zero_grads(ctx)
    if zero is None or math.isfinite(zero["largest"]):
        return ""
    return ("make_optimizer()'s updates agree across the norm spike, but with every gradient zero (a global norm of "
            "0) its updates are not finite (NaN), where clipping leaves zeros as they are and Adam gives zero "
            "updates")


ZERO_NORM_NAN = Mistake(
    "ex5.zero_norm_nan", "a clip that divides by the global norm, NaN where the norm is 0",
    "A gradient whose global norm is 0 (every element zero, or squares that underflow) must come through the clip "
    "as it is: g / norm * min(norm, max_norm) divides 0 by 0 there, and the NaN then fills Adam's state. Scale by "
    "a factor that is 1 whenever norm <= max_norm, e.g. jnp.where(norm > max_norm, max_norm / norm, 1.0), or use "
    "optax.clip_by_global_norm(max_norm).")


def _moved_without_gradients(ctx: Context) -> tuple[str, Mistake] | None:
    """What moves the params when every gradient is zero (clipping and Adam then give zero updates), in words,
    and the mistake it shows; None when nothing does, or it was not measured."""
    zero = _zero_grads(ctx)
    if zero is None or not zero["largest"] > 0:
        return None
    said = (f"with every gradient zero, make_optimizer() still moved {zero['moved']:,} of {zero['elements']:,} "
            f"elements over two steps, by up to {zero['largest']:.3g}")
    try:
        reads_params = tree_mismatch(ctx.got("opt/large_params"), ctx.got("opt/default")) is not None
    except StudentError:
        reads_params = False
    if zero["against_sign"] > 0.99:
        how = (f"each by {-zero['ratio']:.3g} times its param (decoupled weight decay)" if zero["ratio_spread"] < 1e-3
               else "each against its param's sign (weight decay)")
        return f"{said}, {how}", PARAMS_DEPENDENT
    if reads_params:
        return f"{said}, and other params gave other updates: the chain reads the params", PARAMS_DEPENDENT
    return f"{said}, following neither the gradients nor the params", NOT_FROM_GRADIENTS


def _clipped_leaves(ctx: Context, observed: dict) -> list[str] | None:
    """The leaves a clip by global norm covered, when the updates are Adam's after clipping some leaves only (their
    norm taken together, those leaves rescaled, the others untouched): every proper subset is tried."""
    try:
        steps = _as_steps(observed)
    except (ValueError, AttributeError):
        return None
    seq = _grads_seq(ctx)
    leaves = sorted(seq[0])

    def clip_some(tree: dict, some: tuple[str, ...]) -> dict:
        clipped = npref.clip_global({k: tree[k] for k in some}, DEFAULT_MAX_NORM)
        return {k: clipped[k] if k in clipped else np.asarray(v, np.float64) for k, v in tree.items()}

    spike = seq[SPIKE_STEP]
    for size in range(1, len(leaves)):
        for some in itertools.combinations(leaves, size):
            if npref.global_norm({k: spike[k] for k in some}) <= DEFAULT_MAX_NORM:
                continue  # a clip that never acts is no clip, charged as that
            if _same(steps, npref.adam_updates(seq, DEFAULT_LR, pre=lambda t, some=some: clip_some(t, some))):
                return list(some)
    return None


OTHER_NORM = Mistake(
    "ex5.clip_other_norm", "a clip that measures another norm than the global L2 norm",
    "optax.clip_by_global_norm(max_norm) rescales the gradients when the L2 norm of all their elements together "
    "(the square root of the sum of every square, over every leaf) exceeds max_norm; the clip here measures "
    "another quantity (the message says what it was measured to be).")


def _clips_elsewhere(ctx: Context) -> str:
    """Words for a clip that acts at make_optimizer(learning_rate=0.01, max_norm=0.3) as a global L2 clip at a
    threshold far above max_norm, measured (another norm, smaller than the L2 norm); "" when it does not."""
    try:
        lr, max_norm = lr_and_max_norm("custom")
        steps = _as_steps(ctx.got("opt/custom"))
    except (StudentError, ValueError, AttributeError):
        return ""
    seq = _grads_seq(ctx)
    threshold = _measured_threshold(steps, seq, lr, [VARIANTS["reference"][1]])
    if threshold is None or threshold < 2 * max_norm or threshold > 0.99 * npref.global_norm(seq[SPIKE_STEP]):
        return ""
    other = _other_norm(seq[SPIKE_STEP], threshold / max_norm)
    return (f"at make_optimizer(learning_rate={lr:g}, max_norm={max_norm:g}) the updates are those of a clip at a "
            f"global L2 norm of {threshold:.3g}, {threshold / max_norm:.3g} times max_norm: the clip measures the "
            f"gradient as {max_norm / threshold:.3g} times its L2 norm" + (f", {other}" if other else ""))


def _factors_before_adam(got: Any, seq: list[dict], lr: float) -> list[float] | None:
    """The factor c_t by which each step's gradient was multiplied before Adam (its own eps) for Adam's updates to
    be ``got``'s, measured step by step on a log scale; None when no such factors give them."""
    try:
        steps = _as_steps(got)
    except (ValueError, AttributeError):
        return None
    if len(steps) != len(seq):
        return None
    factors, done = [], []
    for t, g in enumerate(seq):
        def distance(c: float, t: int = t, g: dict = g) -> float:
            built = npref.adam_updates([*done, {k: np.asarray(v, np.float64) * c for k, v in g.items()}], lr)
            return _distance([steps[t]], built[-1:])
        try:
            c = _log_search(distance, 1e-4, 1e2)
        except (KeyError, TypeError, ValueError):
            return None
        factors.append(c)
        done.append({k: np.asarray(v, np.float64) * c for k, v in g.items()})
    return factors if _same(steps, npref.adam_updates(done, lr)) else None


#: Laws a clip's factor may follow in max_norm (c) and the gradient's norm (n), where a clip's is min(1, c / n).
_FACTOR_LAWS = (
    ("max_norm / (max_norm + norm), a soft clip that scales every gradient down", lambda c, n: c / (c + n)),
    ("max_norm / sqrt(max_norm**2 + norm**2), a soft clip that scales every gradient down",
     lambda c, n: c / np.sqrt(c * c + n * n)),
    ("max(1, max_norm / norm), max where min belongs: gradients below max_norm scaled up to it, those above never "
     "shrunk", lambda c, n: max(1.0, c / n)),
)


NORM_LEAVES_MISSING = Mistake(
    "ex5.clip_norm_missing_leaves", "a clip whose norm leaves out some of the gradient's leaves",
    "The clip's norm must cover every leaf, weights and biases of every layer: sqrt of the sum of the squares of "
    "all of them (optax.global_norm). Here some leaves (the message says which) were left out of it, so the spike "
    "was scaled by another factor; a slice of the leaves that stops one short or starts one late (leaves[:-1], "
    "leaves[1:], range(1, n)) "
    "does this. optax.clip_by_global_norm(max_norm) covers them all.")


def _norm_leaves_missing(got: Any, seq: list[dict]) -> str:
    """Words for updates that are Adam's after a clip at max_norm whose norm leaves out one leaf, or one layer's
    leaves, measured; "" when no such clip gives them."""
    try:
        steps = _as_steps(got)
    except (ValueError, AttributeError):
        return ""
    keys = sorted(seq[0])
    groups = [[k] for k in keys] + [[k for k in keys if k.split("/")[0] == layer]
                                    for layer in sorted({k.split("/")[0] for k in keys})]
    for left_out in groups:
        def clip(g: dict, left_out: list[str] = left_out) -> dict:
            norm = float(np.sqrt(sum(np.sum(np.asarray(v, np.float64) ** 2) for k, v in g.items()
                                     if k not in left_out)))
            scale = 1.0 if norm <= DEFAULT_MAX_NORM else DEFAULT_MAX_NORM / norm
            return {k: np.asarray(v, np.float64) * scale for k, v in g.items()}
        try:
            if _same(steps, npref.adam_updates(seq, DEFAULT_LR, pre=clip)):
                return (f"these are the updates of a clip at max_norm={DEFAULT_MAX_NORM:g} whose norm leaves out "
                        f"{', '.join(left_out)} (the other leaves' squares alone), where the global norm covers "
                        "every leaf")
        except (KeyError, TypeError, ValueError):
            return ""
    return ""


def _scaled_before_adam(ctx: Context, got: dict) -> tuple[str, Mistake] | None:
    """Words and the mistake for make_optimizer()'s updates that are Adam's on each step's gradient times a factor
    (measured step by step) below 1 where a clip at max_norm leaves the gradient alone: a factor that follows a
    law of its own in max_norm and the norm (:data:`_FACTOR_LAWS`), at both max_norms measured; or a clip that
    measures the gradients as larger than their L2 norm, when the call with the large max_norm (5) leaves its
    small gradients unscaled, as a clip does (an Adam with a larger eps gives factors below 1 on every call).
    None otherwise."""
    seq = _grads_seq(ctx)
    factors = _factors_before_adam(got, seq, DEFAULT_LR)
    norms = [npref.global_norm(g) for g in seq]
    right = [min(1.0, DEFAULT_MAX_NORM / n) for n in norms]
    if factors is None or all(abs(c / r - 1) < 1e-2 for c, r in zip(factors, right)):
        return None
    try:
        lr, max_norm = lr_and_max_norm("positional")
        large = _factors_before_adam(ctx.got("opt/positional"), seq, lr)
    except (StudentError, Missing):
        return None
    if large is None:
        return None
    shown = ", ".join(f"{c:.3g}" for c in factors)
    said = f"step by step, the gradients reaching Adam were scaled by {shown} (measured with Adam's own eps)"
    laws = [(words, law, CLIP_WHEN) for words, law in _FACTOR_LAWS]
    first = factors[int(np.argmin(norms))]
    if first < 0.99:  # a constant under the norm's root, sqrt(k + sum of squares), fitted on the smallest gradient
        k = (DEFAULT_MAX_NORM / first) ** 2 - min(norms) ** 2
        laws.append((f"min(1, max_norm / sqrt({k:.3g} + norm**2)): the clip's norm has a constant {k:.3g} added to "
                     "the sum of squares under its square root (a sum or reduce started at it, an epsilon)",
                     lambda c, n, k=k: min(1.0, c / np.sqrt(k + n * n)), CLIP_NORM_CONSTANT))

    def error(law) -> float:
        return max(abs(f / law(m, n) - 1) for fs, m in ((factors, DEFAULT_MAX_NORM), (large, max_norm))
                   for f, n in zip(fs, norms))

    best, words, mistake = min(((error(law), words, mistake) for words, law, mistake in laws), key=lambda t: t[0])
    if best < 1e-2:
        return (f"{said}, and at max_norm={max_norm:g} by {', '.join(f'{c:.3g}' for c in large)}: the factor "
                f"is {words}, where a clip's is min(1, max_norm / norm) and leaves a gradient of norm "
                f"{norms[0]:.3g} as it is"), mistake
    if not all(c < 0.99 for c in factors):
        return None
    measured = [DEFAULT_MAX_NORM / c for c in factors]
    below = [t for t, m in enumerate(measured) if m < 0.9 * max_norm]
    if not below or any(abs(large[t] - 1) > 1e-2 for t in below):
        return None
    ratios = [m / n for m, n in zip(measured, norms)]
    return (f"{said}, where a clip at max_norm={DEFAULT_MAX_NORM:g} leaves those of norm {norms[0]:.3g} as they are, "
            f"and at max_norm={max_norm:g} those gradients were left as they are: a clip that measured the gradients "
            f"as {min(ratios):.3g} to {max(ratios):.3g} times their global L2 norm (a size of {measured[0]:.3g} for "
            f"a gradient of norm {norms[0]:.3g})"), OTHER_NORM


def _no_clip_or_after(ctx: Context) -> str:
    """Tell no clipping from clipping after Adam with the custom call, where they differ.

    At learning_rate=0.01 Adam's updates have a global norm well above
    max_norm=0.3, so a clip after Adam does trigger there. If that call matches
    exactly one of the two chains, name it; otherwise name both.
    """
    try:
        lr, max_norm = lr_and_max_norm("custom")
        kinds = set(_classify(ctx, ctx.got("opt/custom"), lr, max_norm)) & {"no_clip", "clip_after"}
    except StudentError:
        kinds = set()
    return VARIANTS[kinds.pop()][0] if len(kinds) == 1 else HINT_NO_CLIP_OR_AFTER


def _scaled_alike(ctx: Context, default: dict) -> bool:
    """Every call with other arguments gives the expected updates for them times the same factor, step by step, as
    make_optimizer() gives (not all 1): one mistake in the chain (charged in ex5.chain) that the arguments reach as
    they should, such as a bias correction or a schedule that ignores the learning rate it scales."""
    seq = _grads_seq(ctx)

    def factors(got: dict, want: dict) -> list[float] | None:
        return _step_scales(got, want) or _large_gradient_factors(got, want, seq)

    scales = factors(default, ctx.want("opt/default"))
    if not scales or all(abs(x - 1) < 1e-5 for x in scales):
        return False
    for config in _argument_configs(ctx):
        try:
            got = ctx.got(f"opt/{config}")
            if lr_and_max_norm(config)[0] == 0.0:  # a rate of 0: any factor of no update is no update
                if all(np.max(np.abs(np.asarray(v, np.float64)), initial=0.0) == 0.0 for v in got.values()):
                    continue
                return False
            other = factors(got, ctx.want(f"opt/{config}"))
        except (StudentError, Missing, AttributeError, TypeError, ValueError):
            return False
        if other is None or not np.allclose(other, scales, rtol=1e-3, atol=0):
            return False
    return True


def hyperparams(ctx: Context) -> Verdict:
    """learning_rate and max_norm are honoured (by keyword and by position).

    Judged against the same kind of chain the submission builds by default, so
    a wrong chain is charged once, in ``ex5.chain``. A default chain of no known
    kind cannot say what the arguments should give: then only arguments that
    change nothing at all are charged.
    """
    if ctx.verdict("ex5.chain").mistake in (CALLS_CHANGE.id, SHARED_SETTINGS.id):
        return skip("not judged: make_optimizer()'s optimizers change with the calls made before or after them "
                    "(charged in ex5.chain), and the calls with other arguments came after the first")
    if ctx.verdict("ex5.chain").mistake == UPDATES_ZERO.id:
        return skip("not judged: make_optimizer()'s updates are all exactly 0 (charged in ex5.chain), so no argument "
                    "can show what it changes")
    if ctx.verdict("ex5.chain").mistake == PARAMS_DEPENDENT.id:
        return skip("not judged: make_optimizer()'s updates depend on the params (charged in ex5.chain), so what "
                    "other arguments should give depends on what reads them")
    if ctx.verdict("ex5.chain").mistake == OTHER_NORM.id:
        return skip("not judged: the clip measures another norm (charged in ex5.chain), so what other arguments "
                    "should give is unknown")
    default = ctx.got("opt/default")
    kinds = _classify(ctx, default, DEFAULT_LR, DEFAULT_MAX_NORM)
    if not kinds:
        ignored = [config for config in ("custom", "positional")
                   if tree_mismatch(ctx.got(f"opt/{config}"), default) is None]
        if ignored:
            return fail(f"make_optimizer with other arguments ({', '.join(ignored)}) gave exactly the updates of "
                        "make_optimizer()", BOTH_IGNORED, fraction=1 - len(ignored) / 2)
        if _scaled_alike(ctx, default):
            return PASS
        return skip("not judged: make_optimizer() is not a chain the grader can reproduce (charged in ex5.chain), so "
                    "what other arguments should give is unknown; they do change its updates")
    builders = [VARIANTS[k][1] for k in kinds]
    seq = _grads_seq(ctx)
    problems, hint, wrong, default_lr, default_norm, other_rates = [], "", [], [], [], []
    guards: list[tuple[str, float]] = []  # (config, the guard its clip's factor measured)
    configs = _argument_configs(ctx)
    for config in configs:
        lr, max_norm = lr_and_max_norm(config)
        got = ctx.got(f"opt/{config}")
        try:
            steps = _as_steps(got)
        except (ValueError, AttributeError):
            steps = []
        if any(_same(steps, build(seq, lr, max_norm)) for build in builders):
            continue
        mismatch = tree_mismatch(got, ctx.want(f"opt/{config}"))
        if mismatch is None:  # the expected updates: what differs is the default, charged in ex5.chain
            continue
        wrong.append(config)
        problems.append(f"{written(config)}: {mismatch}")
        # the first argument left at its default (or both) that gives these updates, if one does
        fixed = next((wrong_hint for wrong_lr, wrong_mn, wrong_hint in (
            (DEFAULT_LR, max_norm, LR), (lr, DEFAULT_MAX_NORM, MAX_NORM), (DEFAULT_LR, DEFAULT_MAX_NORM, BOTH_IGNORED))
            if any(_same(steps, build(seq, wrong_lr, wrong_mn)) for build in builders)), None)
        if fixed is LR:
            default_lr.append(config)
        if fixed is MAX_NORM:
            default_norm.append(config)
        # a rate of 0 given the default's updates is 0 taken for a missing value, whatever call came before
        cached = _cached(ctx, config, configs) if not (fixed is LR and lr == 0.0) else ""
        if cached:
            problems[-1] += f"; measured: {cached}"
            hint = hint or CACHED
            continue
        if fixed is not None:
            hint = hint or fixed
        elif steps and (whole := _whole_max_norm(steps, seq, lr, max_norm, builders)) is not None:
            problems[-1] += (f"; measured: these are the updates of max_norm={whole:g}, max_norm cut to a whole "
                             f"number ({max_norm:g} asked)")
            hint = hint or MAX_NORM_WHOLE
        elif steps and (raw := _gradients_as_updates(steps, seq, max_norm)):
            problems[-1] += f"; measured: {raw}"
            hint = hint or GRADIENTS_AS_UPDATES
        elif steps and (used := _other_rate(got, ctx.want(f"opt/{config}"), lr)) is not None:
            problems[-1] += f"; measured: these are the updates of learning_rate={used:.4g}, where {lr:g} was asked"
            other_rates.append((config, used))
            hint = hint or LR_CHANGED
        else:
            guard = _measured_guard(steps, seq, lr, max_norm) if steps else None
            if guard is not None:
                guards.append((config, guard))
                continue
            threshold = _measured_threshold(steps, seq, lr, builders) if steps else None
            if threshold is not None and abs(threshold - max_norm) <= 1e-2 * max_norm:
                threshold = None  # the clip is at max_norm itself: what differs is elsewhere
            which = _clipped_steps(steps, seq, lr, max_norm) if steps and threshold is None else ""
            if which:
                problems[-1] += f"; measured: {which}"
                hint = hint or CLIP_WHEN
            if threshold is not None:
                relation = (" (max_norm squared)" if abs(threshold - max_norm ** 2) <= 1e-2 * max_norm ** 2 else
                            " (the square root of max_norm)" if abs(threshold - max_norm ** 0.5) <= 1e-2 * max_norm
                            else "")
                problems[-1] += (f"; measured: these are the updates of a clip at a global norm of "
                                 f"{threshold:.3g}{relation}, where max_norm={max_norm:g} was asked for")
                hint = hint or MAX_NORM_OTHER
    if guards:
        problems.append(f"measured: {_guard_words(guards)}")
        hint = hint or CLIP_GUARD
    large = _large_max_norm(ctx, seq, builders)
    if large:
        wrong.append("large_max_norm")
        problems.append(large[0])
        hint = hint or large[1]
    if not problems:
        return PASS
    ceiling = _rate_ceiling(other_rates, configs, wrong)
    if ceiling:
        problems.append(f"measured: {ceiling}")
    capped = _lr_capped(wrong, configs, default_lr) if hint is LR else ""
    if capped:
        problems.append(f"measured: {capped}")
        hint = LR_CAPPED
    zero = _zero_lr_replaced(wrong, configs, default_lr) if hint is LR else ""
    if zero:
        problems.append(f"measured: {zero}")
        hint = ZERO_LR_REPLACED
    floored = _max_norm_floored(wrong, configs, default_norm) if hint is MAX_NORM else ""
    if floored:
        problems.append(f"measured: {floored}")
        hint = MAX_NORM_FLOORED
    judged = len(configs) + ctx.student.observed("opt/large_max_norm")
    return fail("; ".join(problems), hint or HINT_ARGUMENTS, fraction=max(0.0, 1 - len(wrong) / judged))


def _large_max_norm(ctx: Context, seq: list[dict], builders: list[Variant]) -> tuple[str, Mistake | str] | None:
    """Words and hint for make_optimizer(max_norm=LARGE_MAX_NORM) on the gradients scaled by as much, where its
    updates are neither the reference's nor those of the chain the submission builds by default (``builders``: a
    wrong chain is charged in ex5.chain); None where they are, or this was not observed."""
    if not ctx.student.observed("opt/large_max_norm"):
        return None
    scaled = [{k: np.asarray(v, np.float64) * LARGE_MAX_NORM for k, v in g.items()} for g in seq]
    said = (f"make_optimizer(max_norm={LARGE_MAX_NORM:g}) on the same gradients {LARGE_MAX_NORM:g} times larger (a "
            f"spike of norm {npref.global_norm(seq[SPIKE_STEP]) * LARGE_MAX_NORM:.3g})")
    try:
        got = ctx.got("opt/large_max_norm")
    except StudentError as exc:
        return f"{said} raised {exc.error.summary()}", HINT_ARGUMENTS
    mismatch = tree_mismatch(got, ctx.want("opt/large_max_norm"))
    if mismatch is None:
        return None
    try:
        if any(_same(_as_steps(got), build(scaled, DEFAULT_LR, LARGE_MAX_NORM)) for build in builders):
            return None
    except (ValueError, AttributeError, KeyError):
        pass
    try:
        unclipped = _same(_as_steps(got), VARIANTS["no_clip"][1](scaled, DEFAULT_LR, LARGE_MAX_NORM))
    except (ValueError, AttributeError, KeyError):
        unclipped = False
    if unclipped:
        return (f"{said}: {mismatch}; measured: these are Adam's updates with nothing clipped, though the spike is "
                f"above max_norm, while smaller max_norms clip", CLIP_OFF_LARGE)
    return f"{said}: {mismatch}", HINT_ARGUMENTS


CLIP_OFF_LARGE = Mistake(
    "ex5.clip_off_for_large_max_norm", "no clipping at a large max_norm",
    "Any positive max_norm is honoured: chain optax.clip_by_global_norm(max_norm) before Adam whatever its value. "
    "A large max_norm clips only larger gradients; it does not switch the clip off (no branch on max_norm's size, "
    "no optax.identity() in its place).")


def _zero_lr_replaced(wrong: list[str], configs: list[str], default_lr: list[str]) -> str:
    """Words for a learning rate of 0 that gave the default rate's updates (``default_lr``: the calls measured so)
    while every other rate was honoured; "" otherwise."""
    zero = [c for c in configs if lr_and_max_norm(c)[0] == 0.0]
    others = [c for c in configs if lr_and_max_norm(c)[0] not in (0.0, DEFAULT_LR)]
    if not zero or any(c not in default_lr for c in zero) or any(c in wrong for c in others):
        return ""
    return (f"make_optimizer(learning_rate=0.0) gave the updates of the default learning rate {DEFAULT_LR:g}, while "
            "every other rate was honoured: 0 was taken for a missing value")


ZERO_LR_REPLACED = Mistake(
    "ex5.zero_learning_rate_replaced", "a learning rate of 0 replaced by the default",
    "learning_rate=0.0 is a valid value (nothing moves): `learning_rate or 1e-3` and `if not learning_rate` take it "
    "for a missing one. Pass learning_rate to optax.adam as it is, or test `learning_rate is None` where a missing "
    "value is meant.")


CACHED = Mistake(
    "ex5.optimizer_cached", "an optimizer cached by some of its arguments",
    "make_optimizer must build the chain from both of its arguments on every call: a cache keyed on some of them "
    "returns an optimizer made for other arguments (the message says which call's). optax.chain(...) is cheap to "
    "build; no cache is needed.")
LR_CAPPED = Mistake(
    "ex5.learning_rate_capped", "a learning rate capped at a maximum",
    "Pass learning_rate to optax.adam as it is: a rate above the default was replaced by the default (a min() or a "
    "clip on it), while smaller rates were honoured.")


def _argument_configs(ctx: Context) -> list[str]:
    """The calls of make_optimizer with arguments, as observed (a probe older than a call did not make it); a
    learning rate of 0 that make_optimizer refuses (an input check for a positive rate) is not judged."""
    return [config for config, _, _ in OPTIMIZERS[1:] if ctx.student.has(f"opt/{config}")
            or (f"opt/{config}" in ctx.student.errors and lr_and_max_norm(config)[0] != 0.0)]


def _cached(ctx: Context, config: str, configs: list[str]) -> str:
    """Words for a call that gave exactly the updates of an earlier call with other arguments, where the argument
    that differs is honoured by another call: the earlier call's optimizer returned again; "" otherwise."""
    order = ["default", *configs]
    got, mine = ctx.got(f"opt/{config}"), lr_and_max_norm(config)
    for earlier in order[:order.index(config)]:
        if tree_mismatch(got, ctx.got(f"opt/{earlier}")) is not None:
            continue
        theirs = lr_and_max_norm(earlier)
        shared = [name for name, a, b in zip(ARGUMENTS, mine, theirs) if a == b]
        differs = [i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b]
        # another call that sets each differing argument away from its default, and gets the right updates
        honoured = [other for other in configs if other != config and _right(ctx, other)
                    and all(lr_and_max_norm(other)[i] != DEFAULTS[i] for i in differs)]
        if shared and differs and honoured and _first_of_their_key_right(ctx, order, shared):
            said = " and ".join(ARGUMENTS[i] for i in differs)
            return (f"{written(config)} gave exactly the updates of the earlier {written(earlier)}, with which it "
                    f"shares {' and '.join(shared)}, though {written(honoured[0])} honours {said}: the optimizer made for "
                    f"the earlier call came back (a cache keyed on {' and '.join(shared)} alone)")
    return ""


def _first_of_their_key_right(ctx: Context, order: list[str], shared: list[str]) -> bool:
    """Every call that is the first (in ``order``) with its values of the ``shared`` arguments gave the right
    updates, as with a cache keyed on those arguments alone, which makes an optimizer only then."""
    seen = set()
    for config in order:
        key = tuple(lr_and_max_norm(config)[ARGUMENTS.index(name)] for name in shared)
        if key not in seen and not _right(ctx, config):
            return False
        seen.add(key)
    return True


#: make_optimizer's arguments, in order, and their defaults.
ARGUMENTS = ("learning_rate", "max_norm")
DEFAULTS = (DEFAULT_LR, DEFAULT_MAX_NORM)


def _right(ctx: Context, config: str) -> bool:
    try:
        return tree_mismatch(ctx.got(f"opt/{config}"), ctx.want(f"opt/{config}")) is None
    except (StudentError, Missing):
        return False


def _gradients_as_updates(steps: list[dict], seq: list[dict], max_norm: float) -> str:
    """Words for updates that are the gradients themselves, clipped at max_norm or not; "" otherwise."""
    for words, built in (("the gradients themselves", seq),
                         (f"the gradients clipped at max_norm={max_norm:g}", [npref.clip_global(g, max_norm)
                                                                             for g in seq])):
        if _same(steps, [{k: np.asarray(v, np.float64) for k, v in g.items()} for g in built]):
            return f"these updates are {words}, with no Adam step (and no learning rate) applied"
    return ""


GRADIENTS_AS_UPDATES = Mistake(
    "ex5.gradients_as_updates", "the gradients returned as the updates",
    "The updates are Adam's steps on the clipped gradients, scaled by the learning rate, for every argument: an "
    "optimizer that returns the gradients themselves (optax.identity(), a chain without optax.adam) moves the "
    "params by the raw gradients. For learning_rate=0, optax.adam(0.0) already gives updates of 0.")


def _other_rate(got: dict, want: dict, lr: float) -> float | None:
    """The learning rate whose updates ``got`` are, where they are the expected updates times one factor at every
    step (Adam's update is proportional to its rate) and that factor is not 1; None otherwise."""
    scales = _step_scales(got, want)
    if not scales or lr == 0.0:
        return None
    factor = float(np.median(scales))
    if abs(factor - 1) < 1e-3 or any(abs(s - factor) > 1e-3 * abs(factor) for s in scales):
        return None
    return lr * factor


def _rate_ceiling(other_rates: list[tuple[str, float]], configs: list[str], wrong: list[str]) -> str:
    """Words for learning rates above some value that all gave that value's updates, while every rate below it was
    honoured: a cap on the rate; "" otherwise."""
    if not other_rates:
        return ""
    used = {round(rate, 6) for _, rate in other_rates}
    if len(used) != 1:
        return ""
    cap = other_rates[0][1]
    above = [c for c in configs if lr_and_max_norm(c)[0] > cap]
    below = [c for c in configs if 0 < lr_and_max_norm(c)[0] <= cap]
    if {c for c, _ in other_rates} != set(above) or any(c in wrong for c in below) or not below:
        return ""
    return (f"the learning rates above {cap:.4g} ({_rates(above)}) gave the updates of {cap:.4g}, while "
            f"{_rates(below)} were honoured: the rate is capped at {cap:.4g}")


def _rates(configs: list[str]) -> str:
    """The learning rates of ``configs``' calls, as the message lists them."""
    return ", ".join(f"{lr_and_max_norm(c)[0]:g}" for c in configs)


LR_CHANGED = Mistake(
    "ex5.learning_rate_changed", "the learning rate changed on its way to Adam",
    "Pass learning_rate to optax.adam exactly as given: the updates measured are those of another rate (the message "
    "says which), as a cap, a clamp, a rescaling or a rounding of the rate gives. Any learning_rate >= 0 is valid.")


def _lr_capped(wrong: list[str], configs: list[str], default_lr: list[str]) -> str:
    """Words for learning rates above the default whose calls gave the default rate's updates (``default_lr``: the
    calls measured so) while every smaller one was honoured: a cap at the default; "" otherwise."""
    above = [c for c in configs if lr_and_max_norm(c)[0] > DEFAULT_LR]
    below = [c for c in configs if lr_and_max_norm(c)[0] < DEFAULT_LR]
    if not above or not below or any(c in wrong for c in below) or any(c not in default_lr for c in above):
        return ""
    return (f"learning rates above {DEFAULT_LR:g} ({_rates(above)}) gave the updates of {DEFAULT_LR:g}, while "
            f"{_rates(below)} was honoured: the rate is capped at {DEFAULT_LR:g}")


MAX_NORM_FLOORED = Mistake(
    "ex5.max_norm_floored", "a max_norm raised to a minimum",
    "Pass max_norm to optax.clip_by_global_norm as it is: a max_norm below the default was replaced by the default "
    "(a max() or a clamp on it), while larger ones were honoured. Any positive max_norm is valid; an input check, "
    "if any, rejects only max_norm <= 0.")


def _max_norm_floored(wrong: list[str], configs: list[str], default_norm: list[str]) -> str:
    """Words for max_norms below the default whose calls gave the default max_norm's updates (``default_norm``: the
    calls measured so) while every larger one was honoured: a floor at the default; "" otherwise."""
    below = [c for c in configs if lr_and_max_norm(c)[1] < DEFAULT_MAX_NORM]
    above = [c for c in configs if lr_and_max_norm(c)[1] > DEFAULT_MAX_NORM]
    if not above or not below or any(c in wrong for c in above) or any(c not in default_norm for c in below):
        return ""
    shown = lambda group: ", ".join(f"{v:g}" for v in sorted({lr_and_max_norm(c)[1] for c in group}))  # noqa: E731
    return (f"max_norm below {DEFAULT_MAX_NORM:g} ({shown(below)}) gave the updates of {DEFAULT_MAX_NORM:g}, while "
            f"{shown(above)} was honoured: "
            f"max_norm is raised to at least {DEFAULT_MAX_NORM:g}")


MAX_NORM_WHOLE = Mistake(
    "ex5.max_norm_whole", "max_norm cut to a whole number",
    "max_norm is a float: a max_norm below 1 came out as a whole number (int(max_norm), round, // or an int type), "
    "0 for 0.3, which clips every gradient to nothing. Pass max_norm to optax.clip_by_global_norm as it is given.")


def _whole_max_norm(steps: list[dict], seq: list[dict], lr: float, max_norm: float, builders: list) -> float | None:
    """The whole number (max_norm rounded down, or to the nearest) whose clip gives ``steps``, when max_norm is not
    one; None otherwise."""
    for whole in sorted({float(math.floor(max_norm)), float(round(max_norm))}):
        if whole != max_norm and any(_same(steps, build(seq, lr, whole)) for build in builders):
            return whole
    return None


CLIP_GUARD = Mistake(
    "ex5.clip_guard", "a clip factor max_norm / max(norm, c) with c other than max_norm",
    "The clip's factor must be min(1, max_norm / norm), that is max_norm / max(norm, max_norm): gradients at or "
    "below max_norm are left exactly as they are. A guard against dividing by a small norm written with another "
    "value (max_norm / max(norm, 1.0), or an eps) rescales gradients it must leave alone whenever max_norm is not "
    "that value. optax.clip_by_global_norm(max_norm) does this.")


def _clipped_with_guard(seq: list[dict], lr: float, max_norm: float, guard: float) -> list[dict]:
    """Adam's updates after every gradient is multiplied by max_norm / max(norm, guard) (``guard`` = max_norm is
    the right clip)."""
    def clip(g: dict) -> dict:
        scale = max_norm / max(npref.global_norm(g), guard)
        return {k: np.asarray(v, np.float64) * scale for k, v in g.items()}
    return npref.adam_updates(seq, lr, pre=clip)


def _measured_guard(steps: list[dict], seq: list[dict], lr: float, max_norm: float) -> float | None:
    """c, when the updates are Adam's after a clip whose factor is max_norm / max(norm, c) for a c that is not
    max_norm (searched for on a log scale) and gives other updates than the right clip; None otherwise."""
    try:
        guard = _log_search(lambda c: _distance(steps, _clipped_with_guard(seq, lr, max_norm, c)), 1e-4, 1e4)
        fits = _same(steps, _clipped_with_guard(seq, lr, max_norm, guard))
    except (KeyError, TypeError, ValueError):
        return None
    if not fits or abs(guard / max_norm - 1) < 1e-2 or _same(steps, _clipped_with_guard(seq, lr, max_norm, max_norm)):
        return None
    return guard


def _guard_words(guards: list[tuple[str, float]]) -> str:
    """What the clip's measured guard was in each call, and, when it is one value in all, that value."""
    calls = "; ".join(f"{written(config)}: max_norm / max(norm, {guard:.3g})" for config, guard in guards)
    values = [guard for _name, guard in guards]
    same = max(values) / min(values) < 1.01 and len({lr_and_max_norm(config)[1] for config, _guard in guards}) > 1
    return (f"the updates are Adam's after a clip whose factor is {calls}"
            + (f": the guard is {values[0]:.3g} whatever max_norm is" if same else "")
            + ", where the clip's factor is max_norm / max(norm, max_norm), min(1, max_norm / norm)")


CLIP_NORM_CONSTANT = Mistake(
    "ex5.clip_norm_constant", "a constant added to the clip's norm",
    "The clip's norm is sqrt(sum of the squares of every gradient leaf), nothing added: a sum or functools.reduce "
    "started at 1 instead of 0, or an epsilon under the root, makes every gradient look larger, so small ones are "
    "scaled down too. Start the sum at 0, or use optax.clip_by_global_norm(max_norm).")
CLIP_WHEN = Mistake(
    "ex5.clip_condition", "a clip that triggers on another condition than norm > max_norm",
    "The clip rescaled other gradients than those whose global L2 norm exceeds max_norm (the message lists which): "
    "rescale g to max_norm exactly when sqrt(sum of squares) > max_norm, g * min(1, max_norm / norm); "
    "optax.clip_by_global_norm(max_norm) does this.")


def _other_norm(clipped: dict, factor: float, tolerance: float = 1e-2) -> str:
    """Which norm of the one clipped gradient a clip at max_norm used, when a global L2 clip at ``factor`` times
    max_norm gives the same: that norm is the L2 norm divided by ``factor`` (every norm that fits, when several
    do). "" when no other norm fits."""
    fits: list[str] = []
    signed = np.concatenate([np.asarray(v, np.float64).reshape(-1) for v in clipped.values()])
    values = np.abs(signed)
    l2 = float(np.sqrt(np.sum(values ** 2)))
    leaves = [np.asarray(v, np.float64) for v in clipped.values()]
    for name, norm in (("the largest absolute element (the infinity norm)", float(values.max())),
                       ("the root of the mean square over all elements", l2 / np.sqrt(values.size)),
                       ("the root of the sum of squared deviations from the mean element, sqrt(n) times their "
                        "standard deviation (a norm taken about the mean, where the L2 norm is taken about 0)",
                        float(np.sqrt(np.sum((signed - signed.mean()) ** 2)))),
                       ("the root of the sum of each leaf's mean square",
                        float(np.sqrt(sum(np.mean(v ** 2) for v in leaves)))),
                       ("the sum of absolute values (the L1 norm)", float(values.sum())),
                       ("the sum of each leaf's own L2 norm (where the global norm is the root of the sum of their "
                        "squares)", float(sum(np.sqrt(np.sum(v ** 2)) for v in leaves))),
                       ("the largest of the leaves' own L2 norms (one leaf's norm, where the global norm covers them "
                        "all)", float(max(np.sqrt(np.sum(v ** 2)) for v in leaves))),
                       ("the largest of the layers' own L2 norms (one layer's norm, where the global norm covers them "
                        "all)", max(map(npref.global_norm, npref.grouped(clipped, npref.layer_of).values()))),
                       ("the root of the sum of each leaf's squared ord=2 norm, which for a matrix is its largest "
                        "singular value (jnp.linalg.norm(w, ord=2), the spectral norm), not the root of its sum of "
                        "squares", float(np.sqrt(sum((np.linalg.norm(v, 2) if v.ndim == 2 else
                                                      np.sqrt(np.sum(v ** 2))) ** 2 for v in leaves)))),
                       ("the sum of squares (the squared L2 norm, without the square root)", l2 ** 2)):
        if norm > 0 and abs(factor * norm / l2 - 1) < tolerance:
            fits.append(name)
    return fits[0] + "".join(f" (or, equally on these gradients, {name})" for name in fits[1:]) if fits else ""


def _clipped_steps(steps: list[dict], seq: list[dict], lr: float, max_norm: float) -> str:
    """Words for updates that are Adam's with some steps' gradients rescaled to norm max_norm and the others left
    as they were, when that set is not the steps whose norm exceeds max_norm: which were rescaled, measured over
    every set of steps. "" when no set gives them, or the set is the right one."""
    norms = [npref.global_norm(g) for g in seq]
    right = [i for i, norm in enumerate(norms) if norm > max_norm]
    for size in range(len(seq) + 1):
        for some in itertools.combinations(range(len(seq)), size):
            clipped = [npref.rescale_to(g, max_norm) if i in some else g for i, g in enumerate(seq)]
            if _same(steps, npref.adam_updates(clipped, lr)):
                if list(some) == right:
                    return ""
                def listed(indices):
                    steps = ", ".join(f"{i} (norm {norms[i]:.3g})" for i in indices)
                    return f"step{'s' if len(indices) != 1 else ''} {steps}" if indices else "no step"
                return (f"the gradients of {listed(some)} were rescaled to norm {max_norm:g} and the others left as "
                        f"they were; a clip at max_norm={max_norm:g} rescales exactly those whose norm exceeds it, "
                        f"{listed(right)}{_threshold_between(norms, some, max_norm)}")
    return ""


def _threshold_between(norms: list[float], rescaled: tuple[int, ...], max_norm: float) -> str:
    """Words for the steps rescaled being exactly those whose norm exceeds some threshold, between the largest norm
    left alone and the smallest rescaled, with the usual slips whose threshold lies there (max_norm's square root
    or square, the default max_norm), all of them; "" when no threshold separates them."""
    kept = [n for i, n in enumerate(norms) if i not in rescaled]
    cut = [n for i, n in enumerate(norms) if i in rescaled]
    low, high = max(kept, default=0.0), min(cut, default=float("inf"))
    if not low < high:
        return ""
    words = f": the norm was compared with a threshold between {low:.3g} and {high:.3g}, not with {max_norm:g}"
    fits = [f"{how} ({threshold:.3g})" for threshold, how in (
        (np.sqrt(max_norm), "sqrt(max_norm), as when the squared norm is compared with max_norm"),
        (max_norm ** 2, "max_norm squared, as when the norm is compared with max_norm ** 2"),
        (DEFAULT_MAX_NORM, "the default max_norm, as when the comparison does not use the max_norm given"))
        if low <= threshold < high and threshold != max_norm]
    if fits:  # max_norm itself never lies there: the steps above it would be the ones rescaled
        return f"{words}; thresholds that lie there: {'; '.join(fits)}"
    return words


def _log_search(distance: Callable[[float], float], low: float, high: float) -> float:
    """The positive value where ``distance`` is least, searched for on a log scale between ``low`` and ``high``:
    a wide grid, then a golden-section narrowing around its best point."""
    grid = np.geomspace(low, high, 37)
    best = int(np.argmin([distance(t) for t in grid]))
    low, high = np.log(grid[max(best - 1, 0)]), np.log(grid[min(best + 1, len(grid) - 1)])
    ratio = (np.sqrt(5) - 1) / 2  # each narrowing keeps one of the two inner points as the other
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    da, db = distance(np.exp(a)), distance(np.exp(b))
    for _ in range(40):  # one new point per narrowing
        if da < db:
            high, b, db = b, a, da
            a = high - ratio * (high - low)
            da = distance(np.exp(a))
        else:
            low, a, da = a, b, db
            b = low + ratio * (high - low)
            db = distance(np.exp(b))
    return float(np.exp((low + high) / 2))


def _distance(steps: list[dict], built: list[dict]) -> float:
    """The summed square difference between observed updates and built ones, leaf by leaf."""
    return sum(float(np.sum((np.asarray(s[k], np.float64) - b[k]) ** 2)) for s, b in zip(steps, built) for k in b)


def _measured_threshold(steps: list[dict], seq: list[dict], lr: float, builders: list) -> float | None:
    """The clipping threshold that gives ``steps`` with the learning rate asked for, searched for on a log scale;
    None when no threshold gives them."""
    try:
        threshold = _log_search(lambda t: _distance(steps, builders[0](seq, lr, t)), 1e-3, 1e3)
    except (KeyError, TypeError, ValueError):
        return None
    return threshold if any(_same(steps, build(seq, lr, threshold)) for build in builders) else None


CLIP_FACTOR = Mistake(
    "ex5.clip_factor_wrong", "a gradient above max_norm rescaled to another norm than max_norm",
    "The clip triggers on the right gradients but does not bring them to norm max_norm (the message says the norm "
    "a gradient came out with, and the factor that gives it): scale by max_norm / norm, with norm the square root "
    "of the sum of squares over every leaf, so the clipped gradient's norm is exactly max_norm. "
    "optax.clip_by_global_norm(max_norm) does this.")


def _clipped_by_power(seq: list[dict], lr: float, max_norm: float, power: float) -> list[dict]:
    """Adam's updates after a clip at max_norm whose factor is max_norm / norm**power (1 is the right clip)."""
    def clip(g: dict) -> dict:
        norm = npref.global_norm(g)
        scale = max_norm / norm ** power if norm > max_norm else 1.0
        return {k: np.asarray(v, np.float64) * scale for k, v in g.items()}
    return npref.adam_updates(seq, lr, pre=clip)


def _clip_factor(ctx: Context, got: dict) -> tuple[str, bool, float]:
    """Words for updates that are Adam's after a clip triggered at max_norm whose factor brings a gradient to
    another norm than max_norm: the norm the spike came out with (searched for on a log scale), and, where a
    factor max_norm / norm**p gives every optimizer's updates (other max_norms clip the small gradients too), p;
    and whether the other optimizers confirmed it (a clip at another threshold reads the same on the default's
    gradients), and the norm the spike came out with. "" when no single factor on the spike gives the default
    updates, or it is the right one."""
    seq = _grads_seq(ctx)
    spike = npref.global_norm(seq[SPIKE_STEP])
    if not all(npref.global_norm(g) <= DEFAULT_MAX_NORM for i, g in enumerate(seq) if i != SPIKE_STEP):
        return "", False, 0.0

    def built(norm: float) -> list[dict]:
        scaled = [{k: np.asarray(v, np.float64) * (norm / spike if i == SPIKE_STEP else 1.0) for k, v in g.items()}
                  for i, g in enumerate(seq)]
        return npref.adam_updates(scaled, DEFAULT_LR)

    try:
        steps = _as_steps(got)
        norm = _log_search(lambda n: _distance(steps, built(n)), 1e-6 * spike, 1e2 * spike)
    except (KeyError, TypeError, ValueError, AttributeError):
        return "", False, 0.0
    if abs(norm / DEFAULT_MAX_NORM - 1) < 1e-3 or abs(norm / spike - 1) < 1e-3 or not _same(steps, built(norm)):
        return "", False, 0.0  # the right clip, or none: told elsewhere
    words = (f"the gradients at or below max_norm={DEFAULT_MAX_NORM:g} were left as they were and the spike (norm "
             f"{spike:.4g}) was scaled by {norm / spike:.4g}, to norm {norm:.4g}, where a clip brings it to norm "
             f"{DEFAULT_MAX_NORM:g}")
    power = 1 - np.log(norm / DEFAULT_MAX_NORM) / np.log(spike)  # max_norm / spike**power gives that norm
    confirmed = []
    for name, _args, _kwargs in OPTIMIZERS[1:]:
        lr, max_norm = lr_and_max_norm(name)
        try:
            if not _same(_as_steps(ctx.got(f"opt/{name}")), _clipped_by_power(seq, lr, max_norm, power)):
                return words, False, norm
        except (StudentError, Missing, ValueError, AttributeError, KeyError):
            continue
        confirmed.append(f"make_optimizer({lr:g}, {max_norm:g})")
    if not confirmed:
        return words, False, norm
    named = {2.0: "max_norm / norm**2, the squared norm (without its square root) in place of the norm",
             0.5: "max_norm / sqrt(norm), the norm's square root in place of the norm",
             3.0: "max_norm / norm**3"}
    factor = next((text for p, text in named.items() if abs(power - p) < 1e-2), f"max_norm / norm**{power:.3g}")
    small = min(npref.global_norm(g) for g in seq)
    below = sorted({m for _lr, m in map(lr_and_max_norm, (n for n, _a, _k in OPTIMIZERS)) if m < small})
    also = (f" (with max_norm={', '.join(f'{m:g}' for m in below)} the gradients of norm {small:.2g} are clipped "
            "too, with that factor)") if below else ""
    return (f"{words}; that is a clip triggered at max_norm whose factor is {factor}: that factor gives the updates "
            f"of {', '.join(confirmed)} as well{also}"), True, norm


def _returned_order(observed) -> list[str]:
    """What each element of the step's returned tuple is, read off its leaves: params have layer weights, an
    optimizer state has Adam's moments or a step count, a loss is one number. [] when that cannot be read."""
    if not isinstance(observed, dict):
        return []
    parts: dict[str, set[str]] = {}
    for key in observed:
        index, _, rest = key.partition("/")
        parts.setdefault(index, set()).add(rest)
    order = []
    for index in sorted(parts, key=lambda i: int(i) if i.isdigit() else -1):
        leaves = parts[index]
        if leaves == {""}:
            order.append("loss")
        elif any({"mu", "nu", "count"} & set(leaf.split("/")) for leaf in leaves):
            order.append("new_opt_state")
        elif all(leaf.split("/")[-1] in ("w", "b") for leaf in leaves):
            order.append("new_params")
        else:
            return []
    return order if sorted(order) == ["loss", "new_opt_state", "new_params"] else []


def _split_step(observed: dict) -> tuple[dict, dict, object]:
    params = {k[2:]: v for k, v in observed.items() if k.startswith("0/")}
    state = {k[2:]: v for k, v in observed.items() if k.startswith("1/")}
    return params, state, observed.get("2")


UPDATED_TWICE = Mistake(
    "ex5.update_called_twice", "a step that calls optimizer.update more than once",
    "Each step calls optimizer.update once, with the loss's gradients: an extra call (on zeros, to 'reset' as "
    "optimizer.zero_grad() does in PyTorch, or a second pass) advances Adam's step count and moments. JAX "
    "gradients are computed afresh each step; there is nothing to zero.")


def _update_calls(ctx: Context, state: dict) -> int:
    """How many times one step called optimizer.update, where that count is also Adam's step count in the state it
    returned after one step from a fresh state (0 when either is not observed or they disagree)."""
    try:
        first = int(ctx.got("step/traces").get("first", 0)) if ctx.student.has("step/traces") else 0
    except (StudentError, TypeError, ValueError, AttributeError):
        return 0
    counts = [int(np.asarray(v).reshape(-1)[0]) for k, v in (state or {}).items()
              if k.split("/")[-1] == "count" and np.size(v) == 1]
    return first if first > 1 and counts and all(c == first for c in counts) else 0


STATE_KEPT = Mistake(
    "ex5.step_keeps_state", "a step that keeps something of its own from one call to the next",
    "step(params, opt_state, x, y) must compute its result from its arguments alone: called again with the same "
    "params, opt_state and batch it returned other values, so it keeps something between calls (its own copy of "
    "the optimizer state in a closure, a dict or a global, used in place of the opt_state it is given). Use the "
    "opt_state argument and return the new state; the caller threads it from one call to the next.")


def _called_again(ctx: Context, first: Any) -> str:
    """Words for the step called a second time with exactly the inputs of its first call (fresh params, the
    chain's fresh state, the same batch) returning other values than the first call; "" when it returned the
    same (or this was not observed, or failed: a crash there is judged with the step)."""
    if not ctx.student.has("step/again"):
        return ""
    try:
        again = ctx.got("step/again")
    except StudentError:
        return ""
    if not isinstance(again, dict) or "2" not in again:
        return ""
    (fp, fs, _fl), (ap, as_, _al) = _split_step(first), _split_step(again)
    differ = [label for label, a, b in (("new params", ap, fp), ("new optimizer state", as_, fs))
              if tree_mismatch(a, b) is not None]
    if not differ:
        return ""
    count = next((int(np.asarray(v).reshape(-1)[0]) for k, v in as_.items() if str(k).split("/")[-1] == "count"),
                 None) if isinstance(as_, dict) else None
    counted = (f" (its Adam step count came back {count}, where one update from the fresh state gives 1)"
               if count is not None and count != 1 else "")
    return (f"step called a second time with the same params, a fresh optimizer state and the same batch returned "
            f"other {' and '.join(differ)} than its first call{counted}: it did not start from the opt_state it was "
            "given")


def step_values(ctx: Context) -> Verdict:
    """One step with clip+Adam: new params, new state, the loss before the update; then steps chained.

    Four parts: the three results of one step from a fresh state, and the
    same step chained (each call given what the previous returned), where a
    step that re-initialises the optimizer state, or drops what it returned,
    first shows.
    """
    try:
        got = ctx.got("step/chain")
    except StudentError as exc:
        if (verdict := _not_fed_params(ctx, exc) or _lesson_widths_met(ctx, exc)) is None:
            raise
        return verdict
    want = ctx.want("step/chain")
    if not isinstance(got, dict) or "2" not in got:
        order = _returned_order(got)
        if order and order != ["new_params", "new_opt_state", "loss"]:
            return fail(f"step(params, opt_state, x, y) must return a tuple (new_params, new_opt_state, loss); measured: "
                        f"it returned ({', '.join(order)})", RETURN_ORDER)
        return fail("step(params, opt_state, x, y) must return a tuple (new_params, new_opt_state, loss)", HINT_STEP)
    (gp, gs, gl), (wp, ws, wl) = _split_step(got), _split_step(want)
    problems = []
    for label, g, w in (("new params", gp, wp), ("new optimizer state", gs, ws), ("loss", gl, wl)):
        problem = tree_mismatch(g, w)
        if problem:
            problems.append(f"{label}: {problem}")
    chained = _chained(ctx)
    if not problems:
        again = _called_again(ctx, got)
        if again:
            return fail(again, STATE_KEPT, fraction=1 - 1 / PARTS)
        if chained is None:
            ascent = _ascent(ctx)
            return fail(ascent[0], ascent[1], fraction=1 - 1 / PARTS) if ascent else _other_batch(ctx, gl)
        message, hint = chained
        return fail(message, hint, fraction=1 - 1 / PARTS)
    lost = len(problems) + (chained is not None)
    if gl is not None and np.ndim(gl) != 0:
        return fail(_loss_shape_words(gl, wl, not tree_mismatch(gp, wp) and not tree_mismatch(gs, ws)),
                    LOSS_NOT_SCALAR, fraction=1 - lost / PARTS)
    if (part := _state_part(gs, ws)) is not None:
        words = (f"it is the chain's state at [{part}] alone" if part else "it holds no arrays, where the whole "
                 "state holds Adam's count and moments: a part of the chain's state that has none, such as the "
                 "clip's")
        return fail(f"new optimizer state: {words}, not the whole state optimizer.update returned", STATE_PART,
                    fraction=1 - lost / PARTS)
    found = []
    if tree_mismatch(gp, wp):
        found += [m for m, variant in _params_variants(ctx, wp).items()
                  if _fits(m, gp, variant) and (m is not NOT_APPLIED or _gradients_reached(ctx) is True)]
    if tree_mismatch(gs, ws) and _all_zero(gs) and not _all_zero(ws):
        found.append(OLD_STATE)  # the state passed in is optimizer.init(params): zeros and a zero count
    if tree_mismatch(gl, wl) and gl is not None and not tree_mismatch(gp, wp):
        data = ctx.inputs["ex5"]
        after = npref.cross_entropy(npref.unflatten(wp), data["x"], data["y"])
        if abs(float(np.asarray(gl)) - after) <= 1e-4 * max(1.0, abs(after)):
            found.append(LOSS_AFTER)
    message = "one step with optax.chain(clip_by_global_norm(1.0), adam(1e-3)) on 16 examples: " + "; ".join(problems)
    if chained is not None:
        message += f"; and {CHAINED_STEPS} chained steps differ too"
    if tree_mismatch(gp, wp) and (earlier := _earlier_optimizers_step(ctx, gp)):
        return fail(f"{message}; measured: {earlier}", STEP_SHARED, fraction=1 - lost / PARTS)
    unread = _batch_unread(ctx, gl)
    if unread and not found:  # the wrong batch explains every part
        return fail(f"{message}; measured: {unread}", BATCH_UNREAD, fraction=1 - lost / PARTS)
    fed = _sgd_gradient_scale(ctx)
    scaled = _loss_scale(ctx, gl, wl, fed)
    if scaled is not None and not found:  # the loss is a multiple of the mean: every part follows from that
        return fail(f"{message}; measured: {scaled}", LOSS_SCALED, fraction=1 - lost / PARTS)
    updates = _update_calls(ctx, gs) if not found else 0
    if updates > 1:  # the params and the state both follow from the extra updates
        return fail(f"{message}; measured: one call of the step called optimizer.update {updates} times, and Adam's "
                    f"step count after it is {updates}, not 1", UPDATED_TWICE, fraction=1 - lost / PARTS)
    still = _leaves_not_moved(ctx, gp, wp) if tree_mismatch(gp, wp) and not found else []
    if still and not tree_mismatch(gl, wl) and _moments_zero_for(gs, ws, still):
        one = len(still) == 1
        return fail(f"{message}; measured: {', '.join(still)} {'is' if one else 'are'} exactly the params the step "
                    f"was given, and Adam's moments for {'it' if one else 'them'} are 0 after the step, while every "
                    f"other leaf moved as it should: {'its' if one else 'their'} gradient was 0", NO_GRADIENT_LEAVES,
                    fraction=1 - lost / PARTS)
    if still:
        found.append(PART_NOT_APPLIED)
        message += (f"; measured: {', '.join(still)} {'is' if len(still) == 1 else 'are'} exactly the params the step "
                    "was given, and every other leaf moved as it should")
    factor = _updates_factor(ctx, gp, wp) if tree_mismatch(gp, wp) and not found else None
    if factor is not None:
        found.append(UPDATES_SCALED)
        message += f"; measured: the params moved by {factor:.3g} times the right step's updates"
    moved = _gradient_multiple(ctx, gp) if tree_mismatch(gp, wp) and not found else None
    if moved is not None:
        found.append(GRADIENT_APPLIED)
        message += f"; measured: the params moved by {moved:.6g} times the loss's gradient"
    if fed is not None and abs(fed - 1) > 1e-3 and not found and not tree_mismatch(gl, wl):
        if tree_mismatch(gp, wp) and close(gp, _moved_by(ctx, wp, fed)):  # Adam undoes a scaled gradient
            return fail(f"{message}; measured: the params moved by {fed:.6g} times the optimizer's updates, with "
                        f"clip + Adam as with optax.sgd({SGD_LR})", UPDATES_SCALED, fraction=1 - lost / PARTS)
        clipped = _clipped_in_step(ctx, fed)
        return fail(f"{message}; measured: the loss is right, and make_train_step(optax.sgd({SGD_LR})) moved the params "
                    f"by -{SGD_LR} times {fed:.6g} times the loss's gradient" + (f"; {clipped}" if clipped else ""),
                    STEP_CLIPS if clipped else GRADIENT_SCALED, fraction=1 - lost / PARTS)
    if not found and not tree_mismatch(gl, wl) and _fed_the_params(ctx):
        return fail(f"{message}; measured: the loss is right, and the gradient the step gave optax.sgd({SGD_LR}) is "
                    "the params themselves (each param moved by -lr times itself)", PARAMS_AS_GRADIENTS,
                    fraction=1 - lost / PARTS)
    other = _other_gradient_words(ctx) if not found and not tree_mismatch(gl, wl) else None
    if other is not None:
        return fail(f"{message}; measured: {other}", OTHER_GRADIENT, fraction=1 - lost / PARTS)
    if len(found) == len(problems):  # every wrong part explained; the first named gives the hint
        names = " and ".join(m.name for m in found)
        return fail(f"{message}; this is what {names} gives", found[0], fraction=1 - lost / PARTS)
    if not found and _loss_differs(gl, wl) and not tree_mismatch(gp, wp) and not tree_mismatch(gs, ws):
        if own := _own_loss_off(ctx, gl, wl):
            return fail(f"{message}; measured: {own}", LOSS_FN_VALUE_OFF, fraction=1 - lost / PARTS)
        return fail(f"{message}; measured: {_only_loss_words(ctx, gl, wl)}", RETURNED_LOSS_OTHER,
                    fraction=1 - lost / PARTS)
    if not found and _loss_differs(gl, wl) and (whole := _whole_loss(gl, wl)):
        return fail(f"{message}; measured: {whole}", LOSS_ROUNDED, fraction=1 - lost / PARTS)
    if not found and _loss_differs(gl, wl) and (other_loss := _other_loss(ctx, gl)):
        return fail(f"{message}; measured: {other_loss}, so the gradient and every update that follow from it "
                    "differ too", OTHER_LOSS, fraction=1 - lost / PARTS)
    if not found and _loss_differs(gl, wl) and (unpaired := _labels_unpaired(ctx, gl)):
        return fail(f"{message}; measured: {unpaired}", LABELS_UNPAIRED, fraction=1 - lost / PARTS)
    if not found and _loss_differs(gl, wl) and (given := _given_code_changed(ctx, gl)):
        words, mistake = given
        return fail(f"{message}; measured: {words}", mistake, fraction=1 - lost / PARTS)
    if not found and _loss_differs(gl, wl):  # at the incoming params: before any update
        return fail(f"{message}; measured: the loss returned at the incoming params is not their mean "
                    f"cross-entropy{_rounding_words(gl, wl)}, so the gradient and every update that follow from it "
                    "differ too", HINT_LOSS, fraction=1 - lost / PARTS)
    if not found and tree_mismatch(gp, wp) and not _loss_differs(gl, wl):
        if small := _small_gradients_unmoved(ctx, gp, wp):
            return fail(f"{message}; measured: {small}", SMALL_GRADIENTS_DROPPED, fraction=1 - lost / PARTS)
    if not found and tree_mismatch(gp, wp) and not tree_mismatch(gs, ws) and not _loss_differs(gl, wl):
        if rounded := _params_rounded(ctx, gp, wp):
            return fail(f"{message}; measured: {rounded}", PARAMS_ROUNDED, fraction=1 - lost / PARTS)
    return fail(message, HINT_STEP, fraction=1 - lost / PARTS)


SMALL_GRADIENTS_DROPPED = Mistake(
    "ex5.small_gradients_dropped", "the smallest gradients set to 0 before the update",
    "Give the optimizer the gradients as jax.value_and_grad returns them. Adam divides each gradient by its own "
    "running size, so even a gradient of 1e-8 moves its param by about the learning rate: zeroing the small ones "
    "(to tidy noise, or as a sparsity trick) freezes those params.")


def _small_gradients_unmoved(ctx: Context, got: Any, want: dict) -> str:
    """Words for new params that are right except some that stayed exactly where they were, those and only those
    whose gradient (of the step's loss at the incoming params, computed here) is below one size; "" otherwise."""
    try:
        params, _ = _params_and_updates(ctx, want)
        data = ctx.inputs["ex5"]
        grads = npref.per_example_grads(npref.unflatten(params), np.asarray(data["x"], np.float64),
                                        npref.one_hot(np.asarray(data["y"])))
        keys = sorted(params)
        g, w, p = _vector(got, keys), _vector(want, keys), _vector(params, keys)
        size = np.abs(_vector({k: grads[k].mean(axis=0) for k in keys}, keys))
    except (KeyError, TypeError, ValueError, AttributeError):
        return ""
    if g.shape != w.shape:
        return ""
    wrong = np.abs(g - w) > 1e-6 + 1e-4 * np.abs(w)
    stuck = (g == p) & (w != p)
    moved = (w != p) & ~stuck
    if not wrong.any() or np.any(wrong & ~stuck) or not moved.any():
        return ""
    below, above = float(size[stuck].max()), float(size[moved].min())
    if below >= above:
        return ""
    n = int(stuck.sum())
    return (f"{n} param{'s' if n > 1 else ''} stayed exactly where {'they were' if n > 1 else 'it was'}, where Adam "
            f"moves each by about the learning rate; {'each of them has' if n > 1 else 'it has'} a gradient below {below:.2g} in size, and every param that moved has one of "
            f"at least {above:.2g}: the gradients that small were set to 0 before the update")


PARAMS_ROUNDED = Mistake(
    "ex5.params_rounded", "new params rounded to a 16-bit float",
    "The updates must be added to the params in float32: optax.apply_updates(params, updates), the params and "
    "updates left in their float32. A bfloat16 or float16 keeps 3 or 4 significant digits, so a weight near 0.3 "
    "is rounded by more than Adam's step of 1e-3 moves it: the update is lost in the rounding.")


def _params_rounded(ctx: Context, got: Any, want: dict) -> str:
    """Words for new params each within a 16-bit float's rounding of the right ones (at most 1/128 of each, where
    float32's is 1/16,777,216), most of them off, by more than a tenth of the step's typical update: the params,
    or the updates added to them, rounded to bfloat16 or float16. "" otherwise."""
    try:
        params, updates = _params_and_updates(ctx, want)
        keys = sorted(updates)
        g, w, u = _vector(got, keys), _vector(want, keys), _vector(updates, keys)
    except (KeyError, TypeError, ValueError, AttributeError):
        return ""
    if g.shape != w.shape or not np.all(np.isfinite(g)):
        return ""
    big = np.abs(w) > 1e-3 * float(np.max(np.abs(w)))
    off = np.abs(g - w)[big] / np.abs(w)[big]
    if not off.size or float(np.max(off)) > 2.0 ** -7 or \
            float(np.max(np.abs(g - w))) <= 0.1 * float(np.median(np.abs(u))):
        return ""
    if float(np.mean(off > 1e-5)) < 0.5:  # rounding moves most params; a few off by a step is something else
        return ""
    narrow = sixteen_bit(g)
    kind = f" (every new param is a {narrow} number)" if narrow else ""
    return (f"every new param is within {float(np.max(off)):.2%} of the right one, {SIXTEEN_BIT_WORDS}, while "
            f"the step's updates move them by {float(np.median(np.abs(u))):.2g} (the median){kind}: the update "
            "was added in a 16-bit float, or the params rounded to one")


BATCH_UNREAD = Mistake(
    "ex5.batch_unread", "a step that does not compute on the x and y it is given",
    "step(params, opt_state, x, y) must compute the loss and its gradient on its own x and y, on every call: "
    "jax.value_and_grad(loss_fn)(params, x, y). A batch from outside the function (a notebook cell's x_batch, "
    "a batch captured when the step was made) read in their place gives every batch the same loss.")


def _same_as_sgd_step(ctx: Context, params: dict) -> bool:
    """``params`` are the new params of the probe's first step, with optax.sgd(SGD_LR) (``step/sgd``), from the same
    params and batch."""
    try:
        earlier = _split_step(ctx.got("step/sgd"))[0]
    except (StudentError, Missing, AttributeError):
        return False
    return isinstance(params, dict) and bool(earlier) and tree_mismatch(params, earlier) is None


def _earlier_optimizers_step(ctx: Context, params: Any) -> str:
    """Words for clip+Adam new params that are exactly those the earlier step made with optax.sgd(ASCENT_LR) gave
    on the same params and batch, where that step was right: the earlier optimizer's compiled step was run again;
    "" otherwise. (The sgd(SGD_LR) step is not compared: a step that moves the params by a fixed multiple of the
    gradient, whatever its optimizer, gives those params too.)"""
    try:
        ascent = ctx.got("step/ascent")
        right = tree_mismatch(ascent, ctx.want("step/ascent")) is None
    except (StudentError, Missing):
        return ""
    if not right or not isinstance(params, dict) or tree_mismatch(params, ascent) is not None:
        return ""
    return (f"the new params are exactly those of the earlier step made by make_train_step(optax.sgd({ASCENT_LR:g})) "
            "on the same params and batch, a gradient ascent: that optimizer's step was run again for clip+Adam")


def _ascent(ctx: Context) -> tuple[str, Mistake | str] | None:
    """Words and hint for a step, right with clip+Adam, that did not apply the update of an optimizer that raises
    the loss (optax.sgd(ASCENT_LR), ``step/ascent``); None where it did, or this was not observed."""
    if not ctx.student.observed("step/ascent"):
        return None
    try:  # judged where the step is right with SGD: a step that ignores its optimizer is charged where that shows
        if tree_mismatch(ctx.got("step/sgd"), ctx.want("step/sgd")) is not None:
            return None
    except (StudentError, Missing):
        return None
    said = f"one step with optax.sgd({ASCENT_LR:g}), whose update raises the loss (a gradient ascent)"
    try:
        got = ctx.got("step/ascent")
    except StudentError as exc:
        return f"{said} raised {exc.error.summary()}", HINT_STEP
    problem = tree_mismatch(got, ctx.want("step/ascent"))
    if problem is None:
        return None
    given = flatten(ctx.inputs["ex5"]["params"])
    if _same_as_sgd_step(ctx, got):
        return (f"{said} returned the params of one step with optax.sgd({SGD_LR:g}), the optimizer an earlier "
                "make_train_step was given (the same params and batch): that step's compiled update was used again "
                "for another optimizer"), STEP_SHARED
    if isinstance(got, dict) and tree_mismatch(got, given, rtol=0, atol_scale=0) is None:
        return (f"{said} returned the incoming params unchanged, where the update moves them: the update is applied "
                "only when it lowers the loss"), UPDATE_KEPT_IF_BETTER
    return f"{said}, new params: {problem}", HINT_STEP


STEP_SHARED = Mistake(
    "ex5.step_shared_between_optimizers", "one compiled step shared between optimizers",
    "Each make_train_step(optimizer) returns a step that updates through that optimizer: a jitted function cached "
    "across calls (a module-level jit with the optimizer as a static argument whose hash or == ignores which "
    "optimizer it is, a cache keyed on the shapes) runs the first optimizer's update for every later one. Define "
    "the jitted step inside make_train_step, closing over its optimizer.")


UPDATE_KEPT_IF_BETTER = Mistake(
    "ex5.update_only_if_loss_falls", "the update applied only when the loss falls",
    "The step applies the optimizer's update every time, new_params = optax.apply_updates(params, updates), "
    "whatever it does to the loss: an accept/reject test on the loss is not part of the optimizer, and it leaves "
    "params and the optimizer's state out of step.")


def _near_max_norm(ctx: Context) -> tuple[str, Mistake | str] | None:
    """Words and hint for make_optimizer(max_norm=NEAR_MAX_NORM) on the usual gradients (ordinary steps 2% above
    it), where the updates differ from clip+Adam's; named when they are those of the ordinary steps left unclipped
    (a clip that lets small overshoots through). None where they agree, or this was not observed."""
    if not ctx.student.observed("opt/near_max_norm"):
        return None
    try:  # judged where every other max_norm is honoured: a max_norm handled wrongly is charged in ex5.hyperparams
        if any(tree_mismatch(ctx.got(f"opt/{config}"), ctx.want(f"opt/{config}")) is not None
               for config in [*(name for name, _, _ in OPTIMIZERS[1:]), "large_max_norm"]
               if ctx.student.has(f"opt/{config}")):
            return None
    except (StudentError, Missing):
        return None
    seq = _grads_seq(ctx)
    said = (f"make_optimizer(max_norm={NEAR_MAX_NORM:g}) on the usual gradients, whose ordinary steps have norm "
            f"{npref.global_norm(seq[0]):.3g} (just above it)")
    try:
        got = ctx.got("opt/near_max_norm")
    except StudentError as exc:
        return f"{said} raised {exc.error.summary()}", HINT_ARGUMENTS
    problem = tree_mismatch(got, ctx.want("opt/near_max_norm"))
    if problem is None:
        return None
    try:
        steps = _as_steps(got)
    except (ValueError, AttributeError):
        return f"{said}: {problem}", HINT_ARGUMENTS
    for factor in (1.01, 1.02, 1.03, 1.05, 1.1, 1.2, 1.5):
        built = npref.adam_updates(seq, DEFAULT_LR, pre=lambda t, f=factor: (
            t if npref.global_norm(t) <= f * NEAR_MAX_NORM else npref.clip_global(t, NEAR_MAX_NORM)))
        if _same(steps, built):
            return (f"{said}: {problem}; measured: these are the updates with the ordinary steps left unclipped and "
                    f"the spike clipped to {NEAR_MAX_NORM:g}: gradients a little above max_norm pass through (a "
                    "tolerance on the comparison)"), CLIP_TOLERANCE
    return f"{said}: {problem}", HINT_ARGUMENTS


CLIP_TOLERANCE = Mistake(
    "ex5.clip_tolerance", "small overshoots of max_norm left unclipped",
    "Every gradient whose global norm is above max_norm is scaled to max_norm, however little above: compare norm > "
    "max_norm with no margin (optax.clip_by_global_norm(max_norm) does).")


def _other_batch(ctx: Context, got_loss) -> Verdict:
    """The step, right on the probe's batch, is asked for its loss on another batch of the same shapes."""
    if not ctx.student.has("step/other_batch"):
        return PASS
    try:
        other = ctx.got("step/other_batch")
    except StudentError as exc:
        return fail(f"one step on another batch of the same shapes (16 examples) raised {exc.error.summary()}",
                    HINT_STEP, fraction=1 - 1 / PARTS)
    problem = tree_mismatch(other, ctx.want("step/other_batch"))
    if not problem:
        return PASS
    unread = _batch_unread(ctx, got_loss)
    return fail(f"one step on another batch of the same shapes (16 examples), loss: {problem}"
                + (f"; measured: {unread}" if unread else ""), BATCH_UNREAD if unread else HINT_STEP,
                fraction=1 - 1 / PARTS)


def _batch_unread(ctx: Context, got_loss) -> str:
    """Words for a step that returned exactly the same loss on another batch of the same shapes (the same
    params and state), where the reference's losses differ; "" otherwise."""
    if not ctx.student.has("step/other_batch") or got_loss is None or np.ndim(got_loss) != 0:
        return ""
    try:
        other, want_other = ctx.got("step/other_batch"), ctx.want("step/other_batch")
    except StudentError:
        return ""
    try:
        same = np.ndim(other) == 0 and float(np.asarray(other)) == float(np.asarray(got_loss))
        finite = bool(np.isfinite(float(np.asarray(got_loss))))
    except (TypeError, ValueError):
        return ""
    if not finite:  # inf on every batch says nothing of which batch was read
        return ""
    if not same or not _loss_differs(np.asarray(want_other), np.asarray(ctx.want("step/chain")["2"])):
        return ""
    return (f"the step returned exactly the same loss, {float(np.asarray(got_loss)):.6g}, on another batch of the "
            "same shapes (the same params and state), where the right losses differ: it does not compute on the x "
            "and y it is given")


LABELS_UNPAIRED = Mistake(
    "ex5.labels_unpaired", "a loss that does not pair each example with its own label",
    "The loss must take example i's log-probability at its own label, y[i], and average those B numbers: "
    "-jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1)), or the mean of jnp.sum(one_hot(y, 10) * logp, "
    "axis=1). A product or an index that crosses examples with labels (logp[:, y], logp @ one_hot(y).T without a "
    "batch axis, a dot_general without batch dimensions) averages every example's log-probability at every label in "
    "the batch, which moving the labels among the examples does not change.")


def _labels_unpaired(ctx: Context, got_loss) -> str:
    """Words for a step whose loss stays the same (to float rounding) when its labels are moved among the examples
    (``step/labels_moved``: the same x, params and state), where the right losses differ; "" otherwise."""
    if not ctx.student.has("step/labels_moved") or got_loss is None or np.ndim(got_loss) != 0:
        return ""
    try:
        moved, want_moved = ctx.got("step/labels_moved"), ctx.want("step/labels_moved")
        got, moved = float(np.asarray(got_loss)), float(np.asarray(moved))
    except (StudentError, TypeError, ValueError):
        return ""
    right = float(np.asarray(ctx.want("step/chain")["2"]))
    if not np.isfinite(got) or abs(moved - got) > 1e-6 * max(1.0, abs(got)) or abs(float(np.asarray(want_moved)) - right) < 1e-3 * abs(right):
        return ""
    return (f"the step's loss stayed {got:.6g} when each example was given another example's label (the same x, "
            f"params and state; the right loss goes from {right:.6g} to {float(np.asarray(want_moved)):.6g}): it "
            "does not pair each example with its own label")


LOSS_NOT_SCALAR = Mistake(
    "ex5.loss_not_scalar", "a loss returned as an array, not one number",
    "The step's third result is the loss as one number: the mean over the batch that jax.value_and_grad "
    "differentiated (a per-example vector kept for logging is not it). Return that scalar.")


def _loss_shape_words(got_loss: Any, want_loss: Any, rest_right: bool) -> str:
    """What a loss returned as an array is, measured: its shape, and whether its mean is the right loss."""
    got = np.asarray(got_loss, np.float64)
    words = f"step returned a loss of shape {tuple(got.shape)}, where one number is expected"
    if got.size:
        mean, want = float(np.mean(got)), float(np.asarray(want_loss, np.float64))
        words += (f"; measured: its mean, {mean:.6g}, is the right loss" if abs(mean - want) <= 1e-4 * max(1.0, abs(want))
                  else f"; measured: its mean is {mean:.6g}, the right loss {want:.6g}")
    if rest_right:
        words += "; the new params and optimizer state are right"
    return words


OTHER_LOSS = Mistake(
    "ex5.other_loss", "a loss other than the mean softmax cross-entropy",
    "The step's objective is the lesson's loss_fn(params, x, y): the mean over the batch of -log_softmax(logits)"
    "[y], computed from the raw logits (no softmax before it, no sum in place of the mean). Differentiate loss_fn "
    "itself with jax.value_and_grad(loss_fn)(params, x, y).")


def _losses(z: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Other objectives a step may compute from the logits ``z`` at labels ``y``, as a message words them."""
    def ce(logits):
        logp = np.log(npref.softmax(logits))
        return -logp[np.arange(len(y)), y]

    t = npref.one_hot(y, z.shape[1])
    s = npref.sigmoid(z)
    bce = -(t * np.log(s) + (1 - t) * np.log(1 - s))
    return {
        "the cross-entropy of softmax(logits), a softmax applied before a loss that applies its own (a double "
        "softmax)": float(np.mean(ce(npref.softmax(z)))),
        "the cross-entropy summed over the batch, not averaged": float(np.sum(ce(z))),
        "a sigmoid binary cross-entropy against one_hot(y), summed over the classes": float(np.mean(bce.sum(1))),
        "a sigmoid binary cross-entropy against one_hot(y), averaged over every element": float(np.mean(bce)),
        "the squared error between the logits and one_hot(y), averaged over every element":
            float(np.mean((z - t) ** 2)),
        "a log_softmax taken over the batch axis (axis 0), not over the classes":
            float(-np.mean(np.sum((z - np.log(np.sum(np.exp(z - z.max(0)), axis=0)) - z.max(0)) * t, axis=-1))),
        "the cross-entropy of every example's prediction against every label in the batch, averaged over all "
        "B x B (example, label) pairs (each example met every label, not only its own)":
            float(-np.mean(np.log(npref.softmax(z))[:, y])),
    }


def _other_loss(ctx: Context, got_loss: Any) -> str:
    """Words for a loss (at the params the step was given) that another objective gives, computed from the same
    logits; "" when none does."""
    try:
        loss = float(np.asarray(got_loss, np.float64))
    except (TypeError, ValueError):
        return ""
    data = ctx.inputs["ex5"]
    y = np.asarray(data["y"])
    z = npref.mlp(data["params"], np.asarray(data["x"], np.float64))
    for words, value in _losses(z, y).items():
        if abs(loss - value) <= 1e-4 * max(1.0, abs(value)):
            return (f"the loss returned at the incoming params is {loss:.6g}, what {words} gives, not their mean "
                    f"cross-entropy ({npref.cross_entropy(data['params'], data['x'], y):.6g})")
    return ""


RETURNED_LOSS_OTHER = Mistake(
    "ex5.returned_loss_other", "a returned loss other than the loss differentiated",
    "The new params and state are right, so the step differentiated the right loss; only the loss it returns is "
    "another number. Return the loss that jax.value_and_grad(loss_fn)(params, x, y) gave with the gradient, "
    "unchanged (the mean over the batch at the incoming params).")


LOSS_FN_VALUE_OFF = Mistake(
    "ex5.loss_value_off", "a loss function whose value is off while its gradient is right",
    "The module's loss_fn gives the value the step returned, and the step's update is right: loss_fn's gradient is "
    "the cross-entropy's, its value is not. A term with no gradient is in the value and not in the gradient: a "
    "constant, or a value under jax.lax.stop_gradient (a stable log-sum-exp must add its stop-gradient max back: "
    "m + log(sum(exp(z - m)))). Make loss_fn the mean cross-entropy itself: jax.nn.log_softmax gives stable "
    "log-probabilities.")


GIVEN_FORWARD_CHANGED = Mistake(
    "ex5.given_forward_changed", "the module's forward pass is not the lesson's MLP",
    "forward(params, x) is given code: the lesson's MLP, ReLU after layers 1 and 2, h @ w + b in each layer. The "
    "module's forward gives other logits at the step's params (the message says how far), so the loss the step "
    "differentiates is not the lesson's. Put forward back as the exercise file gives it.")
GIVEN_LOSS_CHANGED = Mistake(
    "ex5.given_loss_changed", "the module's loss_fn is not the mean cross-entropy",
    "loss_fn(params, x, y) is given code: the mean softmax cross-entropy of forward's logits. The module's forward "
    "is right, and its loss_fn gives another value at the step's params and batch (the message says which), the "
    "value the step returned. Put loss_fn back as the exercise file gives it.")


def _given_code_changed(ctx: Context, got_loss: Any) -> tuple[str, Mistake] | None:
    """Words and the mistake for a step whose wrong loss comes from the module's own forward or loss_fn (given
    code), measured by calling them at the step's params and batch; None when they are right or not recorded."""
    data = ctx.inputs["ex5"]
    params, x, y = data["params"], np.asarray(data["x"], np.float64), np.asarray(data["y"])
    logits = npref.mlp(params, x)
    if ctx.student.has("forward/own"):
        try:
            own = np.asarray(ctx.got("forward/own"), np.float64)
        except (StudentError, TypeError, ValueError):
            own = None
        if own is not None and (problem := array_mismatch(own, logits)):
            return (f"the module's forward(params, x) at the step's params and batch gives other logits than the "
                    f"lesson's MLP: {problem}"), GIVEN_FORWARD_CHANGED
    if not ctx.student.has("loss/own"):
        return None
    try:
        own_loss, got = float(np.asarray(ctx.got("loss/own"))), float(np.asarray(got_loss, np.float64))
    except (StudentError, TypeError, ValueError):
        return None
    right = npref.cross_entropy(params, data["x"], y)
    if not (own_loss == got or abs(own_loss - got) <= 1e-5 * max(1.0, abs(got))) or (
            abs(own_loss - right) <= 1e-4 * max(1.0, abs(right))):
        return None
    return (f"the module's forward is the lesson's MLP, and its loss_fn gives {own_loss:.6g} at the step's params "
            f"and batch, the loss the step returned, where the mean cross-entropy is {right:.6g}"), GIVEN_LOSS_CHANGED


def _own_loss_off(ctx: Context, got_loss: Any, want_loss: Any) -> str:
    """Words for a returned loss that is the module's own loss_fn at the same params and batch, where that value
    is not the mean cross-entropy (the update being right); "" otherwise."""
    if not ctx.student.has("loss/own"):
        return ""
    try:
        own = float(np.asarray(ctx.got("loss/own")))
        got, want = float(np.asarray(got_loss, np.float64)), float(np.asarray(want_loss, np.float64))
    except (StudentError, TypeError, ValueError):
        return ""
    if not (own == got or abs(own - got) <= 1e-5 * max(1.0, abs(got))) or abs(own - want) <= 1e-4 * max(1.0, abs(want)):
        return ""
    return (f"the new params and optimizer state are right (so is the gradient the update used), and the returned "
            f"loss, {got:.6g}, is what the module's loss_fn gives at these params and batch, where the mean "
            f"cross-entropy is {want:.6g} ({got - want:+.4g}): loss_fn's gradient is right and its value is not")


def _only_loss_words(ctx: Context, got_loss: Any, want_loss: Any) -> str:
    """Words for a returned loss that is wrong beside right new params and state: what it is, when measured."""
    head = "the new params and optimizer state are right (so is the gradient the update used), the returned loss is not"
    try:
        got, want = float(np.asarray(got_loss, np.float64)), float(np.asarray(want_loss, np.float64))
    except (TypeError, ValueError):
        return head
    batch = len(ctx.inputs["ex5"]["y"])
    if want and abs(got / want - batch) < 1e-3 * batch:
        return f"{head}: it is {got:.6g}, {batch} (the batch size) times the mean cross-entropy {want:.6g}, a sum"
    if other := _other_loss(ctx, got_loss):
        return f"{head}: {other}"
    return f"{head}: it is {got:.6g}, the mean cross-entropy at the incoming params is {want:.6g}"


def _rounding_words(got_loss: Any, want_loss: Any) -> str:
    """" (off by 0.31%, ...)" when the loss is off by no more than a 16-bit float's rounding and is itself a
    16-bit float's value (float16, or bfloat16: a float32 whose low 16 bits are 0); " (off by 0.31%)" when only
    the size fits; "" otherwise."""
    off = rounding_error(got_loss, want_loss)
    if off is None:
        return ""
    try:
        got = np.asarray(got_loss, np.float32).reshape(-1)
    except (TypeError, ValueError):
        return ""
    sixteen_bit = bool(np.all(got.astype(np.float16).astype(np.float32) == got)
                       or np.all(got.view(np.uint32) & 0xFFFF == 0))
    return f" (off by {off:.2%}: {SIXTEEN_BIT_WORDS})" if sixteen_bit else f" (off by {off:.2%})"


LOSS_ROUNDED = Mistake(
    "ex5.loss_rounded", "a loss rounded to a whole number (floor, //, int)",
    "The loss must be the mean cross-entropy as it is: rounded (// for the mean, jnp.floor, int(), round()) it is "
    "flat between whole numbers, so its gradient is 0 everywhere and the optimizer moves nothing. Divide with /, or "
    "use jnp.mean.")


def _whole_loss(got_loss: Any, want_loss: Any) -> str:
    """Words for a returned loss that is a whole number, the right loss rounded down, up or to the nearest; "" else."""
    try:
        got, want = float(np.asarray(got_loss)), float(np.asarray(want_loss))
    except (TypeError, ValueError):
        return ""
    if got != np.round(got) or abs(got - want) < 1e-6:
        return ""
    for how, value in (("down", np.floor(want)), ("up", np.ceil(want)), ("to the nearest", np.round(want))):
        if got == value:
            return (f"the loss returned at the incoming params is {got:g}, a whole number, where their mean "
                    f"cross-entropy is {want:.6g}: the loss was rounded {how}, and a rounded loss has a gradient of "
                    "0 everywhere")
    return ""


def _loss_differs(got_loss: Any, want_loss: Any) -> bool:
    """The step's loss (at the params it was given) is a number other than the right one."""
    try:
        return np.size(got_loss) == 1 and tree_mismatch(got_loss, want_loss) is not None
    except (TypeError, ValueError):
        return False


PARTS = 4
"""step_values' parts: one step's new params, new state and loss, and the chained steps."""


def _chained(ctx: Context) -> tuple[str, "str | Mistake"] | None:
    """``None`` when the chained steps agree with the reference's, else (message, hint) from what was measured."""
    try:
        got = ctx.got("step/chained")
    except StudentError as exc:
        return f"{CHAINED_STEPS} chained steps: {exc.error.summary()}", HINT_STEP
    want = ctx.want("step/chained")
    problems = [f"{label}: {problem}" for label, key in (("losses", "losses"), ("final params", "params"),
                                                         ("final optimizer state", "state"))
                if (problem := tree_mismatch(_part(got, key), _part(want, key)))]
    if not problems:
        return None
    message = (f"{CHAINED_STEPS} steps chained (each given the params and state the previous returned), "
               f"from a fresh state: " + "; ".join(problems))
    counts = [int(c) for c in np.asarray(_part(got, "counts")).reshape(-1)] if "counts" in got else []
    if counts and all(c == 1 for c in counts):
        return f"{message}; Adam's step count read {counts} after the calls", REINIT
    if counts:
        message += f"; Adam's step count read {counts} after the calls (the reference's: " \
                   f"{[int(c) for c in np.asarray(want['counts']).reshape(-1)]})"
    return message, HINT_CHAINED


def _part(observed: dict, key: str):
    """One entry of a flattened ``{"params": ..., "state": ...}`` observation: a leaf, or a ``{path: leaf}`` tree."""
    if key in observed:
        return observed[key]
    prefix = key + "/"
    return {k[len(prefix):]: v for k, v in observed.items() if k.startswith(prefix)}


def _gradient(ctx: Context) -> dict:
    """The gradient of the lesson's mean cross-entropy at ex5's params and batch, in float64."""
    data = ctx.inputs["ex5"]
    per_example = npref.per_example_grads(data["params"], data["x"], npref.one_hot(data["y"]))
    return {k: v.mean(axis=0) for k, v in per_example.items()}


STEP_CLIPS = Mistake(
    "ex5.step_clips", "a step that clips the gradient itself before the optimizer",
    "The step rescaled the gradient to a fixed norm before optimizer.update (the message measures it): clipping is "
    "the optimizer's job (the clip in make_optimizer's chain), so the step passes the gradient from "
    "jax.value_and_grad(loss_fn) to optimizer.update as it is, whatever optimizer it is given.")


def _clipped_in_step(ctx: Context, fed: float) -> str:
    """Words for a gradient that reached the optimizer scaled down to a round global norm (a clip in the step),
    measured from the factor ``fed`` the SGD step's move shows; "" otherwise."""
    norm = npref.global_norm(_gradient(ctx))
    received = fed * norm
    if not 0 < fed < 1 or abs(received - round(received, 1)) > 1e-4 * max(1.0, received):
        return ""
    return (f"the gradient optax.sgd received has global norm {received:.4g}, where the loss's has {norm:.4g}: it "
            f"was rescaled to norm {round(received, 1):g} before the optimizer")


def _gradient_multiple(ctx: Context, new_params: dict) -> float | None:
    """How many times the loss's gradient the params moved by, when they moved by a multiple of it."""
    params = flatten(ctx.inputs["ex5"]["params"])
    try:
        moved = {k: np.asarray(new_params[k], np.float64) - np.asarray(v, np.float64) for k, v in params.items()}
    except (KeyError, TypeError, ValueError):
        return None
    k = common_factor(moved, _gradient(ctx), rtol=1e-3)
    return k if k is not None and abs(k) > 1e-12 else None


def _fed_gradient(ctx: Context) -> dict | None:
    """The gradient make_train_step(optax.sgd(SGD_LR)) gave its optimizer, read off how far the params moved."""
    try:
        got = ctx.got("step/sgd")
    except (StudentError, Missing):
        return None
    if not isinstance(got, dict):
        return None
    new, params = _split_step(got)[0], flatten(ctx.inputs["ex5"]["params"])
    try:
        return {k: (np.asarray(v, np.float64) - np.asarray(new[k], np.float64)) / SGD_LR for k, v in params.items()}
    except (KeyError, TypeError, ValueError):
        return None


def _fed_to_chain_too(ctx: Context, fed: dict) -> bool:
    """The step with clip + Adam gave its optimizer that same gradient: Adam's first moment after one step is
    (1 - b1) = 0.1 times it, clipped to global norm 1."""
    try:
        state = _split_step(ctx.got("step/chain"))[1]
    except (StudentError, Missing):
        return False
    mu = {k.split("mu/", 1)[1]: v for k, v in state.items() if ("/" + k).count("/mu/") == 1}
    clipped = npref.clip_global(fed, 1.0)
    if set(mu) != set(clipped):
        return False
    scale = max(float(np.max(np.abs(v))) for v in clipped.values()) * 0.1
    return all(np.allclose(np.asarray(mu[k], np.float64), 0.1 * v, rtol=1e-3, atol=1e-4 * scale)
               for k, v in clipped.items())


PARAMS_AS_GRADIENTS = Mistake(
    "ex5.params_as_gradients", "the params given to the optimizer where the gradients go",
    "optimizer.update takes (grads, opt_state, params): the gradients first. The step gave it the params in the "
    "gradients' place, so the updates ignore the loss. Call updates, opt_state = optimizer.update(grads, opt_state, "
    "params).")


def _fed_the_params(ctx: Context) -> bool:
    """The SGD step's optimizer was given the params themselves as the gradient, read off how far they moved."""
    fed = _fed_gradient(ctx)
    return fed is not None and close(fed, flatten(ctx.inputs["ex5"]["params"]), rtol=1e-3)


def _other_gradient_words(ctx: Context) -> str | None:
    """Words for a step whose optimizers (SGD, and clip + Adam) were given one gradient that is not the loss's
    gradient: how it compares with the loss's; None when that is not what was measured."""
    fed = _fed_gradient(ctx)
    if (fed is None or close(fed, _gradient(ctx), rtol=1e-3) or _sgd_gradient_scale(ctx) is not None
            or max(float(np.max(np.abs(v))) for v in fed.values()) < 1e-12 or not _fed_to_chain_too(ctx, fed)):
        return None  # a multiple of the loss's gradient, or none at all, is measured as such
    truth = _gradient(ctx)
    means = {k: np.full(np.shape(truth[k]), np.mean(np.asarray(truth[k], np.float64))) for k in truth}
    if set(fed) == set(truth) and close(fed, means, rtol=1e-3, atol_scale=1e-3):
        return ("the loss is right, but each leaf of the gradient the step gave its optimizer is one number repeated, "
                "the mean of that leaf's gradient over every axis: a mean taken with no axis (jnp.mean(g)) where the "
                "examples' axis alone was meant (jnp.mean(g, axis=0))")
    a = np.concatenate([np.asarray(fed[k]).reshape(-1) for k in sorted(truth)])
    b = np.concatenate([np.asarray(truth[k]).reshape(-1) for k in sorted(truth)])
    cosine = float(a @ b / max(np.linalg.norm(a) * np.linalg.norm(b), 1e-30))
    return (f"the loss is right, but the gradient the step gave its optimizer is not that loss's gradient: both "
            f"optax.sgd({SGD_LR}) and clip + Adam were given one vector of norm {np.linalg.norm(a):.4g}, where the "
            f"loss's gradient has norm {np.linalg.norm(b):.4g} (cosine {cosine:.3f} between them)")


def _sgd_gradient_scale(ctx: Context) -> float | None:
    """The multiple of the loss's gradient the SGD step was fed, read off its move: -SGD_LR * gradient is 1."""
    try:
        got = ctx.got("step/sgd")
    except (StudentError, Missing):
        return None
    if not isinstance(got, dict):
        return None
    k = _gradient_multiple(ctx, _split_step(got)[0])
    return None if k is None else k / -SGD_LR


def _loss_scale(ctx: Context, got_loss, want_loss, fed: float | None) -> str | None:
    """Words for a loss that is k times the mean cross-entropy (k not 1), when the gradient the SGD step was fed
    (``fed``, from :func:`_sgd_gradient_scale`) is k times the mean's gradient too; None otherwise."""
    try:
        ratio = float(np.asarray(got_loss, np.float64)) / float(np.asarray(want_loss, np.float64))
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    # within a percent of 1 the factor is rounding (a lower precision), not a scale anyone wrote
    if not np.isfinite(ratio) or abs(ratio - 1) < 1e-2 or fed is None or abs(fed - ratio) > 1e-3 * abs(ratio):
        return None
    batch = len(ctx.inputs["ex5"]["y"])
    size = f" (the batch size: {batch} examples)" if abs(ratio - batch) < 1e-3 * batch else ""
    return (f"the loss is {ratio:.6g} times the mean cross-entropy{size}, and the gradient make_train_step(optax.sgd("
            f"{SGD_LR})) applied is that same multiple of the mean's gradient")


PART_NOT_APPLIED = Mistake(
    "ex5.updates_partly_applied", "updates applied to some leaves only",
    "Some leaves of the params never moved (the message says which): apply the updates to every leaf, "
    "weights and biases: optax.apply_updates(params, updates).")


NO_GRADIENT_LEAVES = Mistake(
    "ex5.leaves_get_no_gradient", "some leaves of params given no gradient (stop_gradient, constants)",
    "The gradient of some leaves (the message names them) was exactly 0, so the optimizer never moves them: the "
    "loss reaches them through jax.lax.stop_gradient, or as values closed over rather than through the params "
    "argument. The step differentiates loss_fn(params, x, y) with respect to every leaf of params: "
    "jax.value_and_grad(loss_fn)(params, x, y), with no stop_gradient in the forward pass.")


def _moments_zero_for(got_state: Any, want_state: Any, leaves: list[str]) -> bool:
    """The optimizer state after a step holds 0 wherever it is about one of ``leaves`` (Adam's moments of a zero
    gradient), where the expected state does not; False when it cannot be read so. (The other leaves' moments may
    differ: with less gradient in all, the clip scales it less.)"""
    if not isinstance(got_state, dict) or not isinstance(want_state, dict) or set(got_state) != set(want_state):
        return False
    about = [key for key in want_state if any(key.endswith("/" + leaf) for leaf in leaves)]
    try:
        return bool(about) and all(not np.any(np.asarray(got_state[key], np.float64))
                                   and np.any(np.asarray(want_state[key], np.float64)) for key in about)
    except (TypeError, ValueError):
        return False


def _leaves_not_moved(ctx: Context, got_params: Any, want_params: dict) -> list[str]:
    """The leaves of the new params that are the incoming ones exactly, when those are some leaves and every other
    leaf is right; [] otherwise."""
    params, _ = _params_and_updates(ctx, want_params)
    try:
        same = [k for k in sorted(params) if np.array_equal(np.asarray(got_params[k], np.float64), params[k])]
        rest_right = all(tree_mismatch({k: got_params[k]}, {k: want_params[k]}) is None
                         for k in params if k not in same)
    except (KeyError, TypeError, ValueError):
        return []
    return same if 0 < len(same) < len(params) and rest_right else []


def _params_and_updates(ctx: Context, want_params: dict) -> tuple[dict, dict]:
    """The params the step was given and the right step's updates (the right new params minus them), flat."""
    params = {k: np.asarray(v, np.float64) for k, v in flatten(ctx.inputs["ex5"]["params"]).items()}
    return params, {k: np.asarray(want_params[k], np.float64) - v for k, v in params.items()}


def _params_variants(ctx: Context, want_params: dict) -> dict[Mistake, dict]:
    """What the usual slips in applying the updates return, given the right new params."""
    params, updates = _params_and_updates(ctx, want_params)
    return {
        RETURNED_UPDATES: updates,
        SUBTRACTED: {k: params[k] - u for k, u in updates.items()},
        NOT_APPLIED: params,
    }


def _moved_near(ctx: Context, got_params: Any, want_params: dict) -> float | None:
    """How far the params' move is from the right step's updates, relative to the updates' size, when within a
    fifth of it (the optimizer's updates applied, not exactly); None otherwise or when it cannot be read."""
    try:
        params, updates = _params_and_updates(ctx, want_params)
        keys = sorted(updates)
        moved = _vector(got_params, keys) - _vector(params, keys)
        right = _vector(updates, keys)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    size = float(np.linalg.norm(right))
    if not size or not np.all(np.isfinite(moved)):
        return None
    off = float(np.linalg.norm(moved - right)) / size
    return off if off <= 0.2 else None


def _fits(mistake: Mistake, got: Any, variant: dict) -> bool:
    """Whether ``got`` is what ``mistake`` gives. Unchanged params must be exactly the incoming ones: params
    moved by a small fraction of the updates are within any tolerance of them, yet moved."""
    if mistake is not NOT_APPLIED:
        return close(got, variant)
    try:
        return isinstance(got, dict) and set(got) == set(variant) and \
            all(np.array_equal(np.asarray(got[k], np.float64), v) for k, v in variant.items())
    except (TypeError, ValueError):
        return False


def _updates_factor(ctx: Context, got_params: Any, want_params: dict) -> float | None:
    """The one factor k by which the params moved k times the right step's updates, when k is not 1 (nor 0 or
    -1, which are other mistakes); None when no one factor fits.

    Measured on the moves themselves, relative to their size: a move a thousand times too small is within
    any tolerance of the params, and of any other small move, but not of a thousandth of the right one. The
    tolerance allows for float32 params, whose moves are read to a few digits.
    """
    params, updates = _params_and_updates(ctx, want_params)
    try:
        moved = {k: np.asarray(got_params[k], np.float64) - v for k, v in params.items()}
    except (KeyError, TypeError, ValueError):
        return None
    factor = common_factor(moved, updates, rtol=5e-2, of_got=True)  # relative to the move itself
    if factor is None or factor == 0.0 or min(abs(factor - 1), abs(factor + 1)) < 5e-2:
        return None  # (0.0 fits only params that did not move at all)
    return factor


def _moved_by(ctx: Context, want_params: dict, factor: float) -> dict:
    """The params moved by ``factor`` times the right step's updates."""
    params, updates = _params_and_updates(ctx, want_params)
    return {k: v + factor * updates[k] for k, v in params.items()}


def _moments(state: dict) -> dict:
    """The leaves of Adam's moments (mu and nu) in a flattened optimizer state."""
    return {k: v for k, v in state.items() if {"mu", "nu"} & set(k.split("/"))}


def _gradients_reached(ctx: Context) -> bool | None:
    """Whether the clip + Adam step fed the optimizer nonzero gradients, read off Adam's moments after it.

    ``None`` when that cannot be read: the step failed, or returned no Adam moments, or the reference's are
    zero too. Params that come back unchanged are not applying the updates only when this is True; when it
    is False the updates were zero.
    """
    try:
        got, want = ctx.got("step/chain"), ctx.want("step/chain")
    except (StudentError, Missing):
        return None
    if not isinstance(got, dict) or not isinstance(want, dict):
        return None
    moments, wanted = _moments(_split_step(got)[1]), _moments(_split_step(want)[1])
    if not moments or not wanted or _all_zero(wanted):
        return None
    return not _all_zero(moments)


ZERO_GRADIENTS = (
    "The params came back unchanged because the gradients the optimizer received were all zero: the loss the "
    "gradient is taken of does not change with the params argument it is taken with respect to (it is taken of "
    "other params, or it is flat: rounded, or a count). Compute loss, grads = jax.value_and_grad(loss_fn)(params, "
    "x, y) on the params the step was given, with the mean cross-entropy as it is.")
UNCHANGED = (
    "The step returned the params it was given, unchanged. Either the updates were not applied (return "
    "optax.apply_updates(params, updates)) or the gradients were all zero (the loss must depend on the params "
    "the gradient is taken with respect to); what was measured does not tell which.")


def _all_zero(tree: dict) -> bool:
    return bool(tree) and all(not np.any(np.asarray(v)) for v in tree.values())


GRAD_WRT_INPUT = Mistake(
    "ex5.grad_wrt_input", "the gradient taken with respect to x, not params",
    "jax.value_and_grad(loss_fn) differentiates the argument in position argnums (0 by default): call it as "
    "jax.value_and_grad(loss_fn)(params, x, y), with params first and argnums left at 0, so the gradient is a "
    "tree shaped like params.")


def _not_fed_params(ctx: Context, error: StudentError) -> Verdict | None:
    """A step that raised after feeding its optimizer something other than a tree shaped like params: what it fed,
    measured (the first update call of the step given an SGD); None when it fed a params-shaped tree or nothing."""
    try:
        fed = ctx.got("step/fed")
    except StudentError:
        return None
    if not isinstance(fed, dict) or not fed or fed.get("params_like", True):
        return None
    shapes = [tuple(s) for s in fed.get("shapes", [])]
    x_shape = tuple(np.shape(ctx.inputs["ex5"]["x"]))
    given = (f"one array of shape {shapes[0]}" if fed.get("leaves") == 1 and shapes else
             f"a tree of {fed.get('leaves')} arrays (shapes {shapes}{', ...' if fed.get('leaves', 0) > 4 else ''})")
    message = (f"make_train_step raised {error.error.summary()}; measured: the optimizer's update was given {given}, "
               "not a tree shaped like params")
    if shapes == [x_shape]:
        return fail(f"{message}: the shape of x, so the gradient was taken with respect to x", GRAD_WRT_INPUT)
    return fail(message, "Pass optimizer.update the gradient with respect to params, a tree shaped like params: "
                         "jax.value_and_grad(loss_fn)(params, x, y)[1].")


def _lesson_widths_met(ctx: Context, error: StudentError) -> Verdict | None:
    """A shape crash naming a hidden width of the lesson's network (256, 128), which none of the arrays the step
    was given has: an array of the lesson's network from outside the step's arguments, or a width written into the
    code; None otherwise."""
    given = {d for a in flatten(ctx.inputs["ex5"]).values() for d in np.shape(a)}
    foreign = sorted({d for shape in shapes_met(error.error) for d in shape if d in LESSON_WIDTHS[1:-1]} - given,
                     reverse=True)
    if not foreign:
        return None
    widths = "-".join(str(d) for d in _params_widths(ctx))
    return fail(f"make_train_step raised {error.error.summary()}; measured: the shapes that met include "
                f"{' and '.join(map(str, foreign))}, a width of the lesson's {'-'.join(map(str, LESSON_WIDTHS))} "
                f"network that no array the step was given has (its params here are {widths}, x "
                f"{tuple(np.shape(ctx.inputs['ex5']['x']))})", LESSON_WIDTHS_MET)


def _params_widths(ctx: Context) -> list[int]:
    """The widths of ex5's network, layer1's input first."""
    params = ctx.inputs["ex5"]["params"]
    names = npref.layer_names(params)
    return [np.shape(params[names[0]]["w"])[0]] + [np.shape(params[n]["w"])[1] for n in names]


LESSON_WIDTHS_MET = Mistake(
    "ex5.lesson_widths_met", "an array of the lesson's network where the step's own belong",
    "The step computes on the params, opt_state, x and y it is given, whatever their widths: the message names a "
    "width that none of them has. It came from elsewhere: params or an array of the lesson's network read from "
    "outside the function (a notebook cell's params), or a width written into the code. Use the step's own "
    "arguments (optax.apply_updates(params, updates) on the params it was given).")


def uses_given_optimizer(ctx: Context) -> Verdict:
    """The step updates through the optimizer it was given (an SGD here)."""
    try:
        got = ctx.got("step/sgd")
    except StudentError as exc:
        if exc.error.kind == RESULT_DOES_NOT_FIT:
            return skip(f"not judged: {exc.error.message} (charged in ex5.step_values), so its new params cannot be "
                        "read")
        if (verdict := _not_fed_params(ctx, exc) or _lesson_widths_met(ctx, exc)) is None:
            raise
        return verdict
    want = ctx.want("step/sgd")
    if ctx.verdict("ex5.step_values").mistake == NO_GRADIENT_LEAVES.id:
        return skip("not judged: some leaves get no gradient (charged in ex5.step_values), so the params any "
                    "optimizer gives back differ there too")
    if ctx.verdict("ex5.step_values").mistake == RETURN_ORDER.id:
        return skip("not judged: the step returns its results in another order (charged in ex5.step_values), so "
                    "its new params cannot be read")
    if not isinstance(got, dict):
        return fail("step did not return (new_params, new_opt_state, loss)", HINT_STEP)
    new_params, want_params = _split_step(got)[0], _split_step(want)[0]
    problem = tree_mismatch(new_params, want_params)
    if problem is None:
        return PASS
    message = f"make_train_step(optax.sgd({SGD_LR})): new params {problem}"
    for mistake, variant in _params_variants(ctx, want_params).items():
        if _fits(mistake, new_params, variant):  # the SGD's updates are there, applied as in the chain step
            if mistake.id == ctx.verdict("ex5.step_values").mistake:
                return Verdict(True, f"the step uses the SGD it is given ({mistake.name} is charged in "
                                     "ex5.step_values)")
            if mistake is NOT_APPLIED:
                reached = _gradients_reached(ctx)
                if reached is False:
                    return fail(f"{message}: they are the params it was given; after one step with clip + Adam, "
                                "Adam's moments were all zero, so the gradients it received were zero",
                                ZERO_GRADIENTS)
                if reached is None:
                    return fail(f"{message}: they are the params it was given", UNCHANGED)
            return fail(f"{message}; {equals(mistake, 'the result')}", mistake)
    if ctx.verdict("ex5.step_values").mistake == PART_NOT_APPLIED.id and _leaves_not_moved(ctx, new_params,
                                                                                           want_params):
        return Verdict(True, "the step uses the SGD it is given (updates applied to some leaves only are charged in "
                             "ex5.step_values)")
    fed = _sgd_gradient_scale(ctx)
    charged = ctx.verdict("ex5.step_values").mistake
    if fed is not None and charged in {m.id for m in (LOSS_SCALED, GRADIENT_APPLIED, GRADIENT_SCALED, UPDATES_SCALED,
                                                      STEP_CLIPS)}:
        return Verdict(True, f"the step uses the SGD it is given: its params moved by -{SGD_LR} times {fed:.6g} times "
                             f"the loss's gradient (the difference is charged in ex5.step_values)")
    if charged in (OTHER_GRADIENT.id, PARAMS_AS_GRADIENTS.id):
        return Verdict(True, "the step updates through the SGD it is given, with another gradient than the loss's "
                             "(charged in ex5.step_values)")
    if _loss_differs(_split_step(got)[2], _split_step(want)[2]):
        return skip("not judged: the step's loss at the params it was given differs already (charged in "
                    "ex5.step_values), so its gradient, and where any optimizer moves the params, differ too")
    if fed is not None and not charged:  # clip + Adam cannot see a scale that clipping or Adam undoes; SGD does
        clipped = _clipped_in_step(ctx, fed)
        return fail(f"{message}; measured: they moved by -{SGD_LR} times {fed:.6g} times the loss's gradient"
                    + (f"; {clipped}" if clipped else ""), STEP_CLIPS if clipped else GRADIENT_SCALED)
    try:
        chained = _split_step(ctx.want("step/chain"))[0]
    except Missing:
        chained = None
    if chained is not None and close(new_params, chained):
        return fail(f"{message}; these are the new params that clip + Adam give", OWN_OPTIMIZER)
    near = _moved_near(ctx, new_params, want_params)
    if near is not None and not ctx.passed("ex5.step_values"):
        return Verdict(True, f"the step uses the SGD it is given: its params moved by the SGD's update to within "
                             f"{near:.1%} of that update's size; the new params are not exact, as clip + Adam's are "
                             "not (charged in ex5.step_values)")
    return fail(message, "step must update through its optimizer argument: optimizer.update(grads, opt_state, "
                         "params), then optax.apply_updates.")


NOT_AN_OPTIMIZER = Mistake(
    "ex5.not_a_transformation", "something other than one optax transformation from make_optimizer",
    "make_optimizer returns one optax.GradientTransformation, an object with .init and .update; it returned "
    "something else (the message says its type). If that holds the transforms, combine them into one with "
    "optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)).")
STEP_DICT = Mistake(
    "ex5.step_returns_dict", "a dict in place of the (new_params, new_opt_state, loss) tuple",
    "The step returned a dict; the training loop unpacks params, opt_state, loss = step(...), which gives a "
    "dict's keys (strings). Return the tuple (new_params, new_opt_state, loss), in that order.")

STEP_COUNT = Mistake(
    "ex5.step_returns_other_count", "a step that returns another number of values than three",
    "The step returned another number of values than the three the training loop unpacks (the message says how "
    "many): params, opt_state, loss = step(...). Return exactly (new_params, new_opt_state, loss), in that order; "
    "anything else you want to log (a gradient norm, the updates) is computed outside the step or left out.")


STATE_PART = Mistake(
    "ex5.state_part", "one part of the optimizer state returned in place of the whole",
    "Return the whole new state optimizer.update gave you: a chain's state is a tuple with one state per "
    "transform (the clip's and Adam's), and the next update needs all of it, in that structure.")


def _state_part(got: Any, want: Any) -> str | None:
    """Where in the right state ``got`` sits, when it is one part of it (a flattened key prefix such as ``1``, or
    "" for a part with no arrays); None otherwise."""
    if not isinstance(got, dict) or not isinstance(want, dict) or not want:
        return None
    if not got:  # a part that holds no arrays (the clip's state)
        return ""
    for prefix in sorted({k.split("/", 1)[0] for k in want if "/" in k}):
        part = {k[len(prefix) + 1:]: v for k, v in want.items() if k.startswith(prefix + "/")}
        if set(part) == set(got) and set(part) != set(want) and not tree_mismatch(got, part):
            return prefix
    return None


#: optax's words when a chain is given a state of another structure than its own.
CHAIN_STRUCTURE = "has to be the same in chain"
CHAIN_STATE = ("optax's chain was given a state whose structure is not its own (the message quotes optax): the state "
               "a step returned was passed to the next one, so it is not the whole state optimizer.update returned, "
               "or not this optimizer's state.")


def error_hint(error: ObservationError) -> Mistake | str:
    """When a probe raised: what make_optimizer or the step returned instead of the contract's types, by the
    probe's error type; optax's complaint about a state's structure; otherwise the crash's kind decides."""
    if CHAIN_STRUCTURE in error.summary():
        return CHAIN_STATE
    return {"NotAnOptimizer": NOT_AN_OPTIMIZER, "StepReturnedDict": STEP_DICT,
            "StepReturnedOtherCount": STEP_COUNT}.get(error.type, "")


def foreign_state_hint(error: ObservationError) -> Mistake | str:
    """optax's complaints when an optimizer is handed another optimizer's state."""
    text = error.summary()
    if CHAIN_STRUCTURE in text or (error.type == "AttributeError" and "State" in text):
        return FOREIGN_STATE
    return error_hint(error)


def jitted(ctx: Context) -> Verdict:
    """The step is jitted once: three calls with the same shapes trace it once (or once more at the second call,
    where the state it returned differs in layout or type from the first call's inputs, and never after).

    Traces are counted through the optimizer the step is given. A step that
    never calls it (charged in uses_given_optimizer) cannot be counted; it
    passes here if it is a jax.jit-wrapped function.
    """
    obs = ctx.got("step/traces")
    if obs["traces"] == 1 or (obs["traces"] == obs.get("first") and obs.get("traced", 0) == obs["traces"]):
        return PASS  # traced once (calling the optimizer once, or several times in that one trace)
    after = obs.get("after") or []
    if (len(after) == 3 and after[2] == after[1] and after[1] - after[0] == after[0]
            and obs.get("traced", 0) == obs["traces"]):
        # traced once more at the second call only, as jax.jit does when the state it returned comes back with
        # another layout or type than the first call's inputs (a sharding, a weak type), and never again
        return PASS
    if obs["traces"] == 0:
        if obs["has_lower"]:
            return PASS
        return fail("the step never called the optimizer it was given, and it is not a jax.jit-wrapped function",
                    NOT_JITTED)
    traced = obs.get("traced", obs["traces"] if obs["has_lower"] else 0)
    hint = NOT_JITTED if traced == 0 else RETRACED
    detail = "never under a trace (eagerly)" if traced == 0 else f"{traced} of them under a new trace"
    if obs.get("first", 1) > 1:
        detail += f" (the first call alone ran it {obs['first']} times)"
    return fail(f"{obs['calls']} calls with the same shapes ran the step's Python body {obs['traces']} times, "
                f"{detail}", hint)


def params_unchanged(ctx: Context) -> Verdict:
    """Neither make_optimizer's updates nor the step modify the params passed in.

    The step gets its own copy of params (a step may donate its buffers), which
    is compared after the call like the optimizer's.
    """
    original = ctx.inputs["ex5"]["params"]
    verdict = unchanged(ctx, "input/params_after", original, ("opt/default",))
    return verdict if not verdict.passed else unchanged(ctx, "input/step_params_after", original, ("step/chain",))


CHECKS = [
    Check("ex5.chain", "clip by global norm, then Adam (checked across a gradient spike)", chain, ("make_optimizer",),
          error_hint),
    Check("ex5.hyperparams", "learning_rate and max_norm are honoured", hyperparams, ("make_optimizer",),
          error_hint, reads=("ex5.chain",)),
    Check("ex5.step_values", "a step: new params, new state, loss before the update; state carried over steps",
          step_values, ("make_train_step",), error_hint),
    Check("ex5.uses_given_optimizer", "the step uses the optimizer it is given", uses_given_optimizer,
          ("make_train_step",), foreign_state_hint, reads=("ex5.step_values",)),
    # A jitted no-op step is jitted and computes nothing.
    Check("ex5.jitted", "the step is jitted and not retraced", jitted, ("make_train_step",), error_hint,
          requires=("ex5.step_values",)),
    Check("ex5.params_unchanged", "params are not modified", params_unchanged, ("make_optimizer", "make_train_step"),
          error_hint, requires=("ex5.step_values",)),
]
