"""Helpers shared by the probes."""

from __future__ import annotations

import inspect
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np


class ResultDoesNotFit(TypeError):
    """Raised by a probe, not by the student's code: what a function returned does not fit the contract (the
    message says how). The report words it as that function's result, not as something the function raised."""


def as_jax(tree: Any) -> Any:
    """Numpy leaves to fresh JAX arrays, keeping each dict's key order as written.

    A numpy array is put on the device as it is (the same dtypes ``jnp.asarray`` gives): ``jnp.asarray``
    would compile a small program for each new shape, and the probes' inputs come in dozens of shapes."""
    if isinstance(tree, dict):
        return {name: as_jax(value) for name, value in tree.items()}
    if isinstance(tree, (np.ndarray, np.generic)):
        return jax.device_put(tree)
    return jnp.asarray(tree)


def snapshot(tree: Any) -> Any:
    """A detached numpy copy, to see later whether the student changed the input."""
    if isinstance(tree, dict):
        return {name: snapshot(value) for name, value in tree.items()}
    return np.array(tree, copy=True)


def same_array(a: Any, b: Any) -> bool:
    """Both are arrays of one shape and the same values (False for anything else, whatever it is)."""
    try:
        return np.shape(a) == np.shape(b) and bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except Exception:  # noqa: BLE001 - whatever the student returned, comparing it must not fail
        return False


def no_leaks(fn, *args):
    """Call ``fn`` with JAX's tracer-leak checker on."""
    with jax.checking_leaks():
        return fn(*args)


def key(seed: int) -> jax.Array:
    return jax.random.PRNGKey(seed)


def parameters(fn) -> list[str]:
    """The names of ``fn``'s parameters, in order (``*args`` and ``**kwargs`` as written, with their stars)."""
    stars = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    return [stars.get(p.kind, "") + name for name, p in inspect.signature(fn).parameters.items()][:16]
