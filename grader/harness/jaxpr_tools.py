"""Look inside a function's jaxpr: how big it is, which loops it has, which keys it draws from.

These read structure, not implementation details: a Python loop over a batch
makes the jaxpr grow with the batch; every random number in JAX comes from a
``random_bits`` primitive applied to a key, however the sampler is spelled.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import jax
import numpy as np

#: Call-like primitives whose body is a sub-jaxpr we can step into.
_CALLS = {"pjit", "jit", "closed_call", "core_call", "custom_jvp_call", "custom_vjp_call",
          "custom_vjp_call_jaxpr", "remat", "checkpoint"}
_LOOPS = {"scan", "while", "fori_loop"}
_KEY_CONSUMERS = {"random_bits": "bits", "random_split": "split", "random_fold_in": "fold_in"}


def _sub_jaxprs(eqn: Any) -> Iterator[Any]:
    for value in eqn.params.values():
        for item in value if isinstance(value, (tuple, list)) else (value,):
            if hasattr(item, "eqns"):
                yield item
            elif hasattr(item, "jaxpr") and hasattr(item.jaxpr, "eqns"):
                yield item.jaxpr


def _walk(jaxpr: Any) -> Iterator[Any]:
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in _sub_jaxprs(eqn):
            yield from _walk(sub)


def jaxpr_stats(fn: Callable[..., Any], *args: Any) -> dict[str, Any]:
    """Equation count (recursive) and loop primitives of ``fn`` traced at ``args``."""
    closed = jax.make_jaxpr(fn)(*args)
    eqns = list(_walk(closed.jaxpr))
    return {
        "eqns": len(eqns),
        "loops": sorted({e.primitive.name for e in eqns if e.primitive.name in _LOOPS}),
    }


def key_uses(fn: Callable[..., Any], *args: Any) -> list[dict[str, Any]]:
    """Evaluate ``fn(*args)`` step by step, recording every key consumed and how.

    Returns one entry per consumption, in execution order: ``{"op": "bits" |
    "split" | "fold_in", "key": [uint32 words of every key, flattened],
    "keys": [[uint32 words] per key], "shape": [the op's shape argument],
    "out_shape": [the shape it produced]}``. A draw under ``jax.vmap`` consumes a
    batch of keys at once: ``keys`` lists each, and ``out_shape`` includes the
    batch axes that ``shape`` leaves out.
    """
    closed = jax.make_jaxpr(fn)(*args)
    uses: list[dict[str, Any]] = []
    _eval(closed.jaxpr, closed.consts, jax.tree_util.tree_leaves(args), uses)
    return uses


def _eval(jaxpr: Any, consts: list[Any], args: list[Any], uses: list[dict[str, Any]]) -> list[Any]:
    env: dict[Any, Any] = {}

    def read(var: Any) -> Any:
        return var.val if hasattr(var, "val") else env[var]

    env.update(zip(jaxpr.constvars, consts))
    env.update(zip(jaxpr.invars, args))
    for eqn in jaxpr.eqns:
        invals = [read(v) for v in eqn.invars]
        name = eqn.primitive.name
        subs = list(_sub_jaxprs(eqn)) if name in _CALLS else []
        if subs:
            inner = eqn.params.get("jaxpr") or eqn.params.get("call_jaxpr") or eqn.params.get("fun_jaxpr")
            inner_jaxpr = inner.jaxpr if hasattr(inner, "jaxpr") else inner
            inner_consts = list(getattr(inner, "consts", []))
            outvals = _eval(inner_jaxpr, inner_consts, invals, uses)
        else:
            use = None
            if name in _KEY_CONSUMERS:
                data = np.asarray(jax.random.key_data(invals[0]))
                use = {
                    "op": _KEY_CONSUMERS[name],
                    "key": data.reshape(-1).tolist(),
                    "keys": data.reshape(-1, data.shape[-1] if data.ndim else 1).tolist(),
                    "shape": list(eqn.params.get("shape", ())),
                }
                uses.append(use)
            bound = eqn.primitive.get_bind_params(eqn.params)
            if isinstance(bound, tuple):  # jax < 0.7 returns (subfuns, params)
                outvals = eqn.primitive.bind(*bound[0], *invals, **bound[1])
            else:
                outvals = eqn.primitive.bind(*invals, **bound)
            if not eqn.primitive.multiple_results:
                outvals = [outvals]
            if use is not None:
                use["out_shape"] = list(np.shape(outvals[0]))
        for var, val in zip(eqn.outvars, outvals):
            if type(var).__name__ != "DropVar":
                env[var] = val
    return [read(v) for v in jaxpr.outvars]
