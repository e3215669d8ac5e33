"""Exercise 5 rubric: clip-then-Adam, its arguments, and the jitted training step.

Updates are compared with the reference over a gradient sequence whose norm
spikes once: with Adam, that is the only place where clipping (and where it
sits in the chain) changes anything. When they differ, the judges recompute
the usual wrong chains in numpy to say which one the submission built.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from grader.checks import PASS, Check, Context, StudentError, Verdict, fail
from grader.checks import npref
from grader.checks.common import unchanged
from grader.checks.compare import close, tree_mismatch
from grader.inputs import flatten
from grader.protocol import EX5_OPTIMIZERS, EX5_SGD_LR, EX5_SPIKE_STEP
from grader.sandbox import ObservationError

DEFAULT_LR, DEFAULT_MAX_NORM = 1e-3, 1.0

HINT_NO_CLIP = "These are plain Adam updates: the gradient was never clipped. Chain clip_by_global_norm before adam."
HINT_NO_CLIP_OR_AFTER = (
    "These are plain Adam updates at the spike: either nothing clips the gradient, or the clipping comes "
    "after Adam, whose updates are already tiny, so it never triggers. Clip the raw gradient first: "
    "optax.chain(clip_by_global_norm(max_norm), adam(learning_rate))."
)
HINT_CLIP_AFTER = (
    "Clipping comes after Adam here. Adam rescales every update to about learning_rate, so clipping its "
    "output does nothing at a spike: clip the raw gradient first, optax.chain(clip, adam)."
)
HINT_ELEMENTWISE = (
    "Each element was clipped to [-max_norm, max_norm] (optax.clip). Clip the global norm instead "
    "(optax.clip_by_global_norm), which rescales the whole gradient and keeps its direction."
)
HINT_PER_LEAF = (
    "Each leaf's norm was clipped separately. The global norm covers all leaves together: "
    "optax.clip_by_global_norm(max_norm)."
)
HINT_CHAIN = "The updates differ from global-norm clipping followed by Adam; compare your chain with the lesson's."
HINT_LR = "learning_rate is ignored: pass it to Adam instead of a fixed value."
HINT_MAX_NORM = "max_norm is ignored: pass it to the clipping transformation instead of a fixed value."
HINT_STEP = (
    "step must compute loss and grads at the incoming params with jax.value_and_grad(loss_fn), then "
    "updates, new_state = optimizer.update(grads, opt_state, params), then optax.apply_updates."
)
HINT_LOSS_AFTER = "The returned loss is the loss after the update; return the loss computed at the incoming params."
HINT_OWN_OPTIMIZER = (
    "The step ignored the optimizer it was given (an SGD optimizer here): use the optimizer argument "
    "of make_train_step, not one built inside it."
)
HINT_FOREIGN_STATE = (
    "The step ignored the optimizer it was given: it failed on the state that optimizer (an SGD here) made, "
    "so it updates through another one. Use the optimizer argument of make_train_step, not one built elsewhere."
)
HINT_NOT_JITTED = "The step ran un-jitted (its body ran on every call): wrap it in jax.jit."
HINT_RETRACED = (
    "The step was traced again on calls with the same shapes: create the jitted function once in "
    "make_train_step and return it, instead of calling jax.jit inside every step."
)

# name -> (hint, update sequence builder(grads_seq, lr, max_norm))
Variant = Callable[[list, float, float], list]
VARIANTS: dict[str, tuple[str, Variant]] = {
    "reference": ("", lambda g, lr, mn: npref.adam_updates(g, lr, pre=lambda t: npref.clip_global(t, mn))),
    "no_clip": (HINT_NO_CLIP, lambda g, lr, mn: npref.adam_updates(g, lr)),
    "clip_after": (HINT_CLIP_AFTER, lambda g, lr, mn: npref.adam_updates(g, lr, post=lambda t: npref.clip_global(t, mn))),
    "elementwise": (HINT_ELEMENTWISE,
                    lambda g, lr, mn: npref.adam_updates(g, lr, pre=lambda t: npref.clip_elementwise(t, mn))),
    "per_leaf": (HINT_PER_LEAF, lambda g, lr, mn: npref.adam_updates(g, lr, pre=lambda t: npref.clip_per_leaf(t, mn))),
}


def _grads_seq(ctx: Context) -> list[dict]:
    grads = ctx.inputs["ex5"]["grads"]
    return [flatten(grads[str(i)]) for i in range(len(grads))]


def _config(name: str) -> tuple[float, float]:
    for config, args, kwargs in EX5_OPTIMIZERS:
        if config == name:
            lr = kwargs.get("learning_rate", args[0] if args else DEFAULT_LR)
            max_norm = kwargs.get("max_norm", args[1] if len(args) > 1 else DEFAULT_MAX_NORM)
            return lr, max_norm
    raise KeyError(name)


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


def _first_divergence(got: dict, want: dict) -> str:
    try:
        got_steps, want_steps = _as_steps(got), _as_steps(want)
    except (ValueError, AttributeError):
        return ""
    for i, (g, w) in enumerate(zip(got_steps, want_steps)):
        if tree_mismatch(g, w):
            spike = " (the norm spike)" if i == EX5_SPIKE_STEP else ""
            return f"; the updates first differ at step {i}{spike}"
    return ""


def chain(ctx: Context) -> Verdict:
    """make_optimizer() equals clip_by_global_norm(1.0) then adam(1e-3) across a norm spike."""
    got, want = ctx.got("opt/default"), ctx.want("opt/default")
    problem = tree_mismatch(got, want)
    if problem is None:
        return PASS
    kinds = [k for k in _classify(ctx, got, DEFAULT_LR, DEFAULT_MAX_NORM) if k != "reference"]
    if {"no_clip", "clip_after"} <= set(kinds):
        hint = _no_clip_or_after(ctx)
    else:
        hint = VARIANTS[kinds[0]][0] if kinds else HINT_CHAIN
    spike = npref.global_norm(_grads_seq(ctx)[EX5_SPIKE_STEP])
    return fail(f"make_optimizer() over 6 gradients (norm 0.5, a spike of norm {spike:.0f} at step {EX5_SPIKE_STEP})"
                f"{_first_divergence(got, want)}: {problem}", hint)


def _no_clip_or_after(ctx: Context) -> str:
    """Tell no clipping from clipping after Adam with the custom call, where they differ.

    At learning_rate=0.01 Adam's updates have a global norm well above
    max_norm=0.3, so a clip after Adam does trigger there. If that call matches
    exactly one of the two chains, name it; otherwise name both.
    """
    try:
        lr, max_norm = _config("custom")
        kinds = set(_classify(ctx, ctx.got("opt/custom"), lr, max_norm)) & {"no_clip", "clip_after"}
    except StudentError:
        kinds = set()
    return VARIANTS[kinds.pop()][0] if len(kinds) == 1 else HINT_NO_CLIP_OR_AFTER


def hyperparams(ctx: Context) -> Verdict:
    """learning_rate and max_norm are honoured (by keyword and by position).

    Judged against the same kind of chain the submission builds by default, so
    a wrong chain is charged once, in ``ex5.chain``.
    """
    kinds = _classify(ctx, ctx.got("opt/default"), DEFAULT_LR, DEFAULT_MAX_NORM) or ["reference"]
    builders = [VARIANTS[k][1] for k in kinds]
    seq = _grads_seq(ctx)
    problems, hint = [], ""
    for config in ("custom", "positional"):
        lr, max_norm = _config(config)
        got = ctx.got(f"opt/{config}")
        try:
            steps = _as_steps(got)
        except (ValueError, AttributeError):
            steps = []
        if any(_same(steps, build(seq, lr, max_norm)) for build in builders):
            continue
        call = "make_optimizer(learning_rate=0.01, max_norm=0.3)" if config == "custom" else "make_optimizer(0.05, 5.0)"
        problems.append(f"{call}: {tree_mismatch(got, ctx.want(f'opt/{config}'))}")
        for wrong_lr, wrong_mn, wrong_hint in ((DEFAULT_LR, max_norm, HINT_LR), (lr, DEFAULT_MAX_NORM, HINT_MAX_NORM),
                                               (DEFAULT_LR, DEFAULT_MAX_NORM, HINT_LR + " " + HINT_MAX_NORM)):
            if any(_same(steps, build(seq, wrong_lr, wrong_mn)) for build in builders):
                hint = hint or wrong_hint
                break
    if not problems:
        return PASS
    return fail("; ".join(problems), hint or "Use both arguments: learning_rate for Adam, max_norm for clipping.",
                fraction=1 - len(problems) / 2)


def _split_step(observed: dict) -> tuple[dict, dict, object]:
    params = {k[2:]: v for k, v in observed.items() if k.startswith("0/")}
    state = {k[2:]: v for k, v in observed.items() if k.startswith("1/")}
    return params, state, observed.get("2")


def step_values(ctx: Context) -> Verdict:
    """One step with clip+Adam: new params, new state, and the loss before the update."""
    got, want = ctx.got("step/chain"), ctx.want("step/chain")
    if not isinstance(got, dict) or "2" not in got:
        return fail("step(params, opt_state, x, y) must return a tuple (new_params, new_opt_state, loss)", HINT_STEP)
    (gp, gs, gl), (wp, ws, wl) = _split_step(got), _split_step(want)
    problems = []
    for label, g, w in (("new params", gp, wp), ("new optimizer state", gs, ws), ("loss", gl, wl)):
        problem = tree_mismatch(g, w)
        if problem:
            problems.append(f"{label}: {problem}")
    if not problems:
        return PASS
    hint = HINT_STEP
    if gl is not None and not tree_mismatch(gp, wp):
        data = ctx.inputs["ex5"]
        after = npref.cross_entropy(npref.unflatten(wp), data["x"], data["y"])
        if abs(float(np.asarray(gl)) - after) <= 1e-4 * max(1.0, abs(after)):
            hint = HINT_LOSS_AFTER
    return fail("one step with optax.chain(clip_by_global_norm(1.0), adam(1e-3)) on 16 examples: "
                + "; ".join(problems), hint, fraction=1 - len(problems) / 3)


def uses_given_optimizer(ctx: Context) -> Verdict:
    """The step updates through the optimizer it was given (an SGD here)."""
    got, want = ctx.got("step/sgd"), ctx.want("step/sgd")
    if not isinstance(got, dict):
        return fail("step did not return (new_params, new_opt_state, loss)", HINT_STEP)
    problem = tree_mismatch(_split_step(got)[0], _split_step(want)[0])
    if problem is None:
        return PASS
    return fail(f"make_train_step(optax.sgd({EX5_SGD_LR})): new params {problem}", HINT_OWN_OPTIMIZER)


def foreign_state_hint(error: ObservationError) -> str:
    """optax's complaints when an optimizer is handed another optimizer's state."""
    text = error.summary()
    if "has to be the same in chain" in text or (error.type == "AttributeError" and "State" in text):
        return HINT_FOREIGN_STATE
    return ""


def jitted(ctx: Context) -> Verdict:
    """The step is jitted once: three calls with the same shapes trace it once.

    Traces are counted through the optimizer the step is given. A step that
    never calls it (charged in uses_given_optimizer) cannot be counted; it
    passes here if it is a jax.jit-wrapped function.
    """
    obs = ctx.got("step/traces")
    if obs["traces"] == 1:
        return PASS
    if obs["traces"] == 0:
        if obs["has_lower"]:
            return PASS
        return fail("the step never called the optimizer it was given, and it is not a jax.jit-wrapped function",
                    HINT_NOT_JITTED)
    traced = obs.get("traced", obs["traces"] if obs["has_lower"] else 0)
    hint = HINT_NOT_JITTED if traced == 0 else HINT_RETRACED
    detail = "never under a trace (eagerly)" if traced == 0 else f"{traced} of them under a new trace"
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
    Check("ex5.chain", "clip by global norm, then Adam (checked across a gradient spike)", chain, ("make_optimizer",)),
    Check("ex5.hyperparams", "learning_rate and max_norm are honoured", hyperparams, ("make_optimizer",)),
    Check("ex5.step_values", "one step: new params, new state, loss before the update", step_values,
          ("make_train_step",)),
    Check("ex5.uses_given_optimizer", "the step uses the optimizer it is given", uses_given_optimizer,
          ("make_train_step",), foreign_state_hint),
    Check("ex5.jitted", "the step is jitted and not retraced", jitted, ("make_train_step",)),
    Check("ex5.params_unchanged", "params are not modified", params_unchanged, ("make_optimizer", "make_train_step")),
]
