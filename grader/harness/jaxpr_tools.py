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


def inside(eqn: Any) -> Iterator[Any]:
    """Every equation anywhere inside ``eqn``'s sub-jaxprs (a call's body, a loop's, a branch's)."""
    for sub in _sub_jaxprs(eqn):
        yield from _walk(sub)


def jaxpr_stats(fn: Callable[..., Any], *args: Any) -> dict[str, Any]:
    """Equation count (recursive), loop primitives and output shapes of ``fn`` traced at ``args``."""
    closed = jax.make_jaxpr(fn)(*args)
    eqns = list(_walk(closed.jaxpr))
    return {
        "eqns": len(eqns),
        "loops": sorted({e.primitive.name for e in eqns if e.primitive.name in _LOOPS}),
        "out_shapes": [list(getattr(aval, "shape", ())) for aval in closed.out_avals],
    }


def key_uses(fn: Callable[..., Any], *args: Any) -> list[dict[str, Any]]:
    """Evaluate ``fn(*args)`` step by step, recording every key consumed and how.

    Returns one entry per consumption, in execution order: ``{"op": "bits" |
    "split" | "fold_in", "key": [uint32 words of every key, flattened],
    "keys": [[uint32 words] per key], "shape": [the op's shape argument],
    "out_shape": [the shape it produced], "from_key": False (see :func:`draws_and_masks`)}``. A draw under
    ``jax.vmap`` consumes a
    batch of keys at once: ``keys`` lists each, and ``out_shape`` includes the
    batch axes that ``shape`` leaves out.
    """
    return draws_and_masks(fn, *args)[0]


def draws_and_masks(fn: Callable[..., Any], *args: Any, data_args: tuple[int, ...] = (),
                     key_args: tuple[int, ...] = ()) -> tuple[list, list]:
    """:func:`key_uses`, and the masks the random draws became: where each first met the data.

    The values computed from the arguments numbered in ``data_args`` (the params and the batch, not the key)
    are the data; the values computed from a random draw are random. Each key use also says whether the key it
    consumed was computed from an argument numbered in ``key_args`` (``"from_key"``: False for a key made inside
    ``fn`` or kept from outside it), and each mask whether every draw feeding it was. A mask is applied where one
    operation takes a random value that does not come from the data, and a value that does (``h * mask``,
    ``jnp.where(mask, h / keep, 0)``; the data may carry earlier masks): one entry per such operation, in
    execution order, ``{"shape": [its output's shape, every batch axis included], "keys": [[uint32 words] of
    each key whose draw feeds it], "data_min": the smallest element of the data it was applied to (0 or more
    after a ReLU), "kept": the fraction of that data's nonzero elements that came out nonzero,
    "row_agreement": over the examples (the leading axis), how often an element is kept or dropped as in the
    first example (about 1 - 2 rate (1 - rate) for independent masks, 1 for one mask shared by the batch),
    "column_agreement": the same along the last axis, "from_key": every draw feeding it consumed a key computed from
    the ``key_args``}``.
    """
    closed = jax.make_jaxpr(fn)(*args)
    uses: list[dict[str, Any]] = []
    masks: list[dict[str, Any]] = []
    taints = []
    for i, arg in enumerate(args):
        taints += [(frozenset(), i in data_args, i in key_args)] * len(jax.tree_util.tree_leaves(arg))
    _eval(closed.jaxpr, closed.consts, jax.tree_util.tree_leaves(args), uses, taints, masks)
    return uses, masks


#: (frozenset of indices into uses: the draws a value comes from, bool: it comes from the data,
#: bool: it comes from a key argument)
_Taint = tuple
_CLEAN: _Taint = (frozenset(), False, False)


def _agreement(kept: np.ndarray, live: np.ndarray) -> float | None:
    """How often an element of rows 1.. of ``kept`` equals row 0's, where both are live (None: nothing to
    compare). ``kept`` and ``live`` are 2-D bool arrays of one shape."""
    both = live[1:] & live[:1]
    if kept.shape[0] < 2 or not both.any():
        return None
    return float(np.mean((kept[1:] == kept[:1])[both]))


def _mask(out: Any, data: Any, draws: frozenset, uses: list[dict[str, Any]]) -> dict[str, Any]:
    out, data = np.asarray(out), np.broadcast_to(np.asarray(data), np.shape(out))
    live, kept = data != 0, out != 0
    rows = (kept.reshape(kept.shape[0], -1), live.reshape(kept.shape[0], -1)) if kept.ndim >= 2 else None
    cols = (np.moveaxis(kept, -1, 0).reshape(kept.shape[-1], -1),
            np.moveaxis(live, -1, 0).reshape(kept.shape[-1], -1)) if kept.ndim >= 2 else None
    return {
        "shape": list(np.shape(out)),
        "keys": [k for i in sorted(draws) for k in uses[i]["keys"] if uses[i]["op"] == "bits"],
        "data_min": float(np.min(data)) if data.size else 0.0,
        "kept": float(np.mean(kept[live])) if live.any() else 0.0,
        "row_agreement": _agreement(*rows) if rows else None,
        "column_agreement": _agreement(*cols) if cols else None,
        "from_key": all(uses[i]["from_key"] for i in draws if uses[i]["op"] == "bits"),
    }


def _eval(jaxpr: Any, consts: list[Any], args: list[Any], uses: list[dict[str, Any]],
          taints: list[_Taint] | None = None, masks: list[dict[str, Any]] | None = None) -> tuple[list, list]:
    env: dict[Any, Any] = {}
    marks: dict[Any, _Taint] = {}

    def read(var: Any) -> Any:
        return var.val if hasattr(var, "val") else env[var]

    def taint(var: Any) -> _Taint:
        return _CLEAN if hasattr(var, "val") else marks.get(var, _CLEAN)

    env.update(zip(jaxpr.constvars, consts))
    env.update(zip(jaxpr.invars, args))
    marks.update(zip(jaxpr.invars, taints or [_CLEAN] * len(jaxpr.invars)))
    for eqn in jaxpr.eqns:
        invals = [read(v) for v in eqn.invars]
        inmarks = [taint(v) for v in eqn.invars]
        name = eqn.primitive.name
        subs = list(_sub_jaxprs(eqn)) if name in _CALLS else []
        if name == "cond":  # evaluated eagerly, the index is concrete: step into the branch it takes
            branch = eqn.params["branches"][int(np.clip(int(invals[0]), 0, len(eqn.params["branches"]) - 1))]
            outvals, outmarks = _eval(branch.jaxpr, list(branch.consts), invals[1:], uses, inmarks[1:], masks)
        elif subs:
            inner = eqn.params.get("jaxpr") or eqn.params.get("call_jaxpr") or eqn.params.get("fun_jaxpr")
            inner_jaxpr = inner.jaxpr if hasattr(inner, "jaxpr") else inner
            inner_consts = list(getattr(inner, "consts", []))
            outvals, outmarks = _eval(inner_jaxpr, inner_consts, invals, uses, inmarks, masks)
        else:
            use = None
            if name in _KEY_CONSUMERS:
                data = np.asarray(jax.random.key_data(invals[0]))
                use = {
                    "op": _KEY_CONSUMERS[name],
                    "key": data.reshape(-1).tolist(),
                    "keys": data.reshape(-1, data.shape[-1] if data.ndim else 1).tolist(),
                    "shape": list(eqn.params.get("shape", ())),
                    "from_key": bool(inmarks[0][2]),
                }
                uses.append(use)
            bound = eqn.primitive.get_bind_params(eqn.params)
            if isinstance(bound, tuple):  # jax < 0.7 returns (subfuns, params)
                outvals = eqn.primitive.bind(*bound[0], *invals, **bound[1])
            else:
                outvals = eqn.primitive.bind(*invals, **bound)
            if not eqn.primitive.multiple_results:
                outvals = [outvals]
            draws = frozenset().union(*(m[0] for m in inmarks)) if inmarks else frozenset()
            from_data = any(m[1] for m in inmarks)
            from_key = any(m[2] for m in inmarks)
            if use is not None:
                use["out_shape"] = list(np.shape(outvals[0]))
                if name == "random_bits":
                    draws = draws | {len(uses) - 1}
            if masks is not None and len(outvals) == 1:  # a random value (not from the data) meets the data
                random = [m[0] for m in inmarks if m[0] and not m[1]]
                data = [i for i, m in enumerate(inmarks) if m[1]]
                if random and data:
                    masks.append(_mask(outvals[0], invals[data[0]], frozenset().union(*random), uses))
            outmarks = [(draws, from_data, from_key)] * len(outvals)
        for var, val, mark in zip(eqn.outvars, outvals, outmarks):
            if type(var).__name__ != "DropVar":
                env[var] = val
                marks[var] = mark
    return [read(v) for v in jaxpr.outvars], [taint(v) for v in jaxpr.outvars]
