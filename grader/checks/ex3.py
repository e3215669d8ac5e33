"""Exercise 3 rubric: an MLP whose depth and layer order come from the params."""

from __future__ import annotations

import numpy as np

from grader.checks import PASS, Check, Context, StudentError, Verdict, fail
from grader.checks import npref
from grader.checks.common import unchanged
from grader.checks.compare import array_mismatch
from grader.sandbox import ObservationError
from grader.inputs import EX3_CASES

DEPTH_CASES = ("d1", "d2", "d3", "d5")

HINT_STRING_ORDER = (
    "The layers ran in string order (layer1, layer10, layer11, layer12, layer2, ...): sorted() on the "
    "names compares them as text. Order the layers by the number in their name instead."
)
HINT_OUTPUT_RELU = "The output went through a ReLU: apply ReLU after every layer except the last; return raw logits."
HINT_OUTPUT_SOFTMAX = "The output went through a softmax: mlp_forward returns the last layer's raw values (logits)."
HINT_DEPTH = (
    "The depth must come from params: loop over however many layer<i> entries there are (1 or 12 as "
    "well as 3), in numeric order, and index each layer's 'w' and 'b' by name."
)
HINT_LEAF_ORDER = (
    "jax.tree.leaves(params['layer1']) gives [b, w] (dict keys are sorted), not [w, b]: take "
    "layer['w'] and layer['b'] by name."
)
HINT_DICT_ORDER = (
    "The layers ran in the order the params dict lists them, which is not the layer order (this case lists "
    "them backwards, and jax.jit or jax.tree functions reorder keys too). Sort the names by their number."
)
HINT_JIT_DICT_ORDER = (
    "Under jax.jit the layers ran in string order (layer1, layer10, layer11, ...): jit rebuilds the params "
    "dict with its keys sorted as text, so the dict's own order is not the layer order. Sort the names by "
    "their number."
)
HINT_JIT = "Under jax.jit the forward pass failed or changed: keep it pure (no Python side effects, no global state)."


def _case(ctx: Context, case: str) -> dict:
    return ctx.inputs["ex3"][case]


def _describe(case: str) -> str:
    widths, b, order = EX3_CASES[case]
    listed = " listed in reverse order" if order == "reversed" else ""
    return f"{len(widths) - 1} layers, widths {list(widths)}, B={b}{listed}"


def _matches_up_to_output(got: np.ndarray, want: np.ndarray) -> bool:
    """True when got equals want or want with an activation on the output (judged by output_linear)."""
    for candidate in (want, npref.relu(want), npref.softmax(want)):
        if array_mismatch(got, candidate) is None:
            return True
    return False


def error_hint(error: ObservationError) -> str:
    """Name the usual causes when mlp_forward raises; "" (the engine's hint by error type) for others."""
    text = error.summary()
    if "KeyError" in text and "layer" in text:
        return HINT_DEPTH
    if any(s in text for s in ("dot_general", "shape", "Incompatible", "incompatible", "matmul")):
        return HINT_LEAF_ORDER + " " + HINT_DEPTH
    return ""


def _judge_cases(ctx: Context, cases: tuple[str, ...], wrong_hint) -> Verdict:
    problems, hints, errors, failed = [], [], [], []
    for case in cases:
        try:
            got = np.asarray(ctx.got(f"out/{case}"), dtype=np.float64)
        except StudentError as exc:
            errors.append(exc)
            failed.append(case)
            problems.append(f"{_describe(case)}: {exc.error.summary()}")
            hints.append(error_hint(exc.error) or HINT_DEPTH)  # some cases ran: the crash depends on depth
            continue
        want = np.asarray(ctx.want(f"out/{case}"), dtype=np.float64)
        if got.shape == want.shape and _matches_up_to_output(got, want):
            continue
        failed.append(case)
        problems.append(f"{_describe(case)}: {array_mismatch(got, want)}")
        hints.append(wrong_hint(ctx, case, got))
    if errors and len(errors) == len(cases):
        raise errors[0]
    if not problems:
        return PASS
    out_of_order = [c for c in cases if EX3_CASES[c][2] != "numeric"]
    hint = HINT_DICT_ORDER if len(out_of_order) < len(cases) and failed == out_of_order else hints[0]
    return fail("; ".join(problems), hint, fraction=1 - len(problems) / len(cases))


def _wrong_depth_hint(ctx: Context, case: str, got: np.ndarray) -> str:
    return HINT_DEPTH


def depths(ctx: Context) -> Verdict:
    """Agreement at depths 1, 2, 3 and 5, with equal and unequal widths and any dict order."""
    return _judge_cases(ctx, DEPTH_CASES, _wrong_depth_hint)


def _wrong_order_hint(ctx: Context, case: str, got: np.ndarray) -> str:
    c = _case(ctx, case)
    string_order = npref.mlp(c["params"], c["x"], order="string")
    if _matches_up_to_output(got, string_order):
        return HINT_STRING_ORDER
    return "With 12 layers, apply layer1, layer2, ..., layer9, layer10, layer11, layer12 in numeric order."


def deep(ctx: Context) -> Verdict:
    """Twelve equal-width layers, where string order silently gives a wrong answer."""
    return _judge_cases(ctx, ("d12",), _wrong_order_hint)


def output_linear(ctx: Context) -> Verdict:
    """No activation after the last layer: outputs can be negative."""
    for case in ("d3", "d5", "d12"):
        try:
            got = np.asarray(ctx.got(f"out/{case}"), dtype=np.float64)
        except StudentError:
            continue
        want = np.asarray(ctx.want(f"out/{case}"), dtype=np.float64)
        if got.shape != want.shape or array_mismatch(got, want) is None:
            continue
        if array_mismatch(got, npref.relu(want)) is None:
            return fail(f"{_describe(case)}: every negative output came back as 0", HINT_OUTPUT_RELU)
        if array_mismatch(got, npref.softmax(want)) is None:
            return fail(f"{_describe(case)}: the outputs are softmax probabilities", HINT_OUTPUT_SOFTMAX)
    return PASS


def jit_agrees(ctx: Context) -> Verdict:
    """Same result under jax.jit and on a repeated call; no leaked tracers.

    A case whose eager call raised is left out: that crash is charged in depths
    or deep, and there is nothing to agree with. A jitted call that raises is
    charged here.
    """
    problems, compared, crashed = [], 0, None
    for name, ref, label in (("jit/d12", "out/d12", "jax.jit, 12 layers"), ("jit/d5", "out/d5", "jax.jit, 5 layers"),
                             ("again/d12", "out/d12", "a second call, 12 layers")):
        try:
            eager = ctx.got(ref)
        except StudentError as exc:
            crashed = crashed or exc
            continue
        compared += 1
        problem = array_mismatch(ctx.got(name), eager)
        if problem:
            problems.append(f"{label}: {problem}")
    if not compared and crashed:
        raise crashed
    if not problems:
        return PASS
    return fail("; ".join(problems), HINT_JIT_DICT_ORDER if _jit_ran_in_string_order(ctx) else HINT_JIT)


def _jit_ran_in_string_order(ctx: Context) -> bool:
    """Eagerly right on 12 layers, but in string order under jit (which sorts dict keys as text)."""
    try:
        eager, jitted = (np.asarray(ctx.got(n), dtype=np.float64) for n in ("out/d12", "jit/d12"))
    except StudentError:
        return False
    c = _case(ctx, "d12")
    want = np.asarray(ctx.want("out/d12"), dtype=np.float64)
    return (eager.shape == jitted.shape == want.shape and _matches_up_to_output(eager, want)
            and _matches_up_to_output(jitted, npref.mlp(c["params"], c["x"], order="string")))


def params_unchanged(ctx: Context) -> Verdict:
    """mlp_forward leaves params as it found them.

    Judged on every case whose call returned; a call that raised is charged in
    depths or deep, not here. If none returned, there is nothing to judge.
    """
    judged, crashed = 0, None
    for case in EX3_CASES:
        try:
            ctx.got(f"out/{case}")
        except StudentError as exc:
            crashed = crashed or exc
            continue
        judged += 1
        verdict = unchanged(ctx, f"input/params_after/{case}", _case(ctx, case)["params"], (f"out/{case}",))
        if not verdict.passed:
            return verdict
    if not judged and crashed:
        raise crashed
    return PASS


CHECKS = [
    Check("ex3.depths", "agrees at depths 1, 2, 3 and 5 with any widths", depths, ("mlp_forward",), error_hint),
    Check("ex3.deep", "12 layers run in numeric order (layer10 after layer9)", deep, ("mlp_forward",), error_hint),
    Check("ex3.output_linear", "no activation after the last layer", output_linear, ("mlp_forward",), error_hint),
    Check("ex3.jit", "agrees under jax.jit and on repeated calls", jit_agrees, ("mlp_forward",), error_hint),
    Check("ex3.params_unchanged", "params are not modified", params_unchanged, ("mlp_forward",), error_hint),
]
