"""Judges shared by several exercises."""

from __future__ import annotations

from typing import Any

from grader.checks import PASS, Context, Mistake, Verdict, fail
from grader.checks.compare import tree_mismatch
from grader.inputs import flatten
from grader.sandbox import ObservationError

NUMPY_ON_TRACER = Mistake(
    "numpy_on_tracer", "numpy on a traced array",
    "A numpy function (np.where, np.sum, np.asarray, ...) was given a traced array: under jax.jit arrays are "
    "tracers, which numpy cannot read. Use the jax.numpy function of the same name (jnp.where, ...).")
MUTATED = Mistake(
    "params_mutated", "changing the params passed in",
    "The function changed the params it was given. JAX code is functional: build new dicts and arrays "
    "(e.g. with jax.tree.map or a dict comprehension) instead of assigning into the input.")


def unchanged(ctx: Context, name: str, original: dict[str, Any], calls: tuple[str, ...]) -> Verdict:
    """The snapshot ``name`` taken after the calls equals the ``original`` input tree.

    ``calls`` are observations of the calls that received the params: if they
    failed, there is nothing to judge and the failure is reported instead.
    """
    for call in calls:
        ctx.got(call)
    problem = tree_mismatch(ctx.got(name), flatten(original), rtol=0, atol_scale=0)
    if problem:
        return fail(f"after the calls, params differ from what was passed in: {problem}", MUTATED)
    return PASS


def mutated(ctx: Context, name: str, original: dict[str, Any]) -> bool:
    """True when the snapshot ``name`` shows the params were changed (so repeated calls cannot agree)."""
    try:
        return tree_mismatch(ctx.got(name), flatten(original), rtol=0, atol_scale=0) is not None
    except Exception:  # noqa: BLE001 - no snapshot, no evidence
        return False


def numpy_on_tracer(error: ObservationError) -> Mistake | str:
    """``error_hint`` for checks that trace: numpy handed a tracer is a mistake named by its error type."""
    return NUMPY_ON_TRACER if error.type == "TracerArrayConversionError" else ""
