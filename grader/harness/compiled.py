"""A student's function run as one compiled program where that is what running it op by op gives.

Eager JAX runs (and, the first time in a child, loads or compiles) one small program per operation and shape: a
student's function on a batch is dozens of them; compiled, it is one. :func:`compiled_or_eager` lets a probe
take that saving only where nothing tells the two apart:

- a function's first call runs op by op, and so does every call of a function whose first call changed what its
  module holds (a cache, a counter, a default argument filled in): what it keeps may answer a later call, and a
  trace would keep tracers there;
- a compiled call gets its arguments as they are (dicts in their own key order, Python numbers as numbers), and
  stands only where its trace keeps no tracer (JAX's leak checker), changes none of the arguments, reads no
  traced value (not even in a ``try`` that catches JAX's error and goes another way), and returns dicts, lists
  and tuples of arrays computed in the call;
- anything else, a refusal to trace included (Python control flow on values, NumPy on the arguments, an error),
  runs op by op, which raises or returns what it always did.

As with jax.jit, a later call on arguments of the same layout and shapes runs the program again without running
the function's Python. Every child compiles as eagerly (``grader.harness.xla_options.AS_EAGER``): a compiled program
rounds each operation's result to its type, as an eager operation does; where this JAX's cannot
(:func:`compiles_as_eagerly`), every call runs op by op. Observations that look for what one call keeps for the
next call the function directly.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import types
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np


class _OpByOp(Exception):
    """A call one compiled program would not reproduce: it runs op by op instead."""


#: (function, arguments' layout and shapes) -> (its jax.jit, the result's layout), for this child.
_COMPILED: dict = {}
#: Each function whose first call has run: whether that call changed what its module holds.
_KEEPS_STATE: dict = {}


def compiled_or_eager(fn: Callable, *args: Any, owners: tuple[Callable, ...] = ()) -> Any:
    """``fn(*args)``, compiled where that gives what running it op by op gives (see the module's docstring).

    ``owners``: the student's functions whose first call and state decide (default: ``fn`` itself), when ``fn``
    is the probe's own function around them (a gradient of the student's forward pass)."""
    owners = owners or (fn,)
    first = [owner for owner in owners if owner not in _KEEPS_STATE]
    if first:
        before = [_state(owner) for owner in first]
        try:
            return fn(*args)
        finally:
            for owner, state in zip(first, before):
                _KEEPS_STATE[owner] = _state(owner) != state
    if any(_KEEPS_STATE[owner] for owner in owners) or not compiles_as_eagerly():
        return fn(*args)
    arrays: list = []
    try:
        layout = _layout(args, arrays)
        key = (fn, layout, tuple((np.shape(a), str(a.dtype)) for a in arrays))
        hash(key)
    except TypeError:  # an argument jax.jit cannot take as it is
        return fn(*args)
    known = _COMPILED.get(key)
    if known is None:
        known = _COMPILED[key] = (jax.jit(_traced(fn, layout, result_layout := [])), result_layout)
    compiled, result_layout = known
    try:
        with jax.checking_leaks():
            leaves = compiled(*arrays)
        return _build(result_layout[-1], iter(leaves))
    except Exception:  # noqa: BLE001 - whatever tracing refused, the eager run raises again or measures
        return fn(*args)


@functools.cache
def compiles_as_eagerly() -> bool:
    """Whether this JAX's compiled programs give what its operations give one by one, bit for bit, on a sample
    of what students write (a matmul chain divided by a number; bfloat16 and float16 squares, sums, roots and
    tanh). Older XLA keeps float32 inside a fused bfloat16 computation whatever it is told, and a compiled
    program there would hide a precision mistake: every call then runs op by op. Asked once per process."""
    x = jnp.asarray(np.linspace(-3.0, 3.0, 24, dtype=np.float32).reshape(4, 6))
    w = jnp.asarray(np.linspace(-1.0, 2.0, 18, dtype=np.float32).reshape(6, 3))

    def sample(x, w):
        h = (x @ w @ w.T) / 0.75
        low = jnp.sqrt(jnp.sum(h.astype(jnp.bfloat16) ** 2, axis=1)).astype(jnp.float32)
        half = (jnp.tanh(h.astype(jnp.float16)) * 3 + jnp.exp(x.astype(jnp.float16) / 4)).astype(jnp.float32)
        return h, low, half

    return all(np.array_equal(a, b) for a, b in zip(sample(x, w), jax.jit(sample)(x, w)))


def forget() -> None:
    """Drop every program and finding: a process that observes one submission after another (the test suite)
    starts each afresh, as a child does."""
    _COMPILED.clear()
    _KEEPS_STATE.clear()


def _traced(fn: Callable, layout: Any, result_layout: list) -> Callable:
    """``fn`` as jax.jit traces it: from the arguments' arrays, rebuilt as given, to the result's arrays (its
    layout appended to ``result_layout``); raises where the call is not one a compiled program reproduces."""
    def traced(*given_arrays):
        given = _build(layout, iter(given_arrays))
        with _value_reads() as reads:
            out = fn(*given)
        if reads:
            raise _OpByOp("the call read a traced value (an error it caught, as a try around float(x) does)")
        after: list = []
        if _layout(given, after) != layout or any(a is not b for a, b in zip(after, given_arrays)):
            raise _OpByOp("the call changed its arguments")
        leaves: list = []
        result_layout.append(_layout(out, leaves))
        if not all(isinstance(leaf, jax.core.Tracer) for leaf in leaves) or _holds_values(result_layout[-1]):
            raise _OpByOp("the result holds values not computed in this call")
        return leaves

    return traced


#: JAX's errors for code that reads a traced value (as a number, a bool, a NumPy array, an index).
_VALUE_READ_ERRORS = tuple(getattr(jax.errors, name) for name in (
    "ConcretizationTypeError", "NonConcreteBooleanIndexError", "TracerArrayConversionError",
    "TracerBoolConversionError", "TracerIntegerConversionError") if hasattr(jax.errors, name))


@contextlib.contextmanager
def _value_reads():
    """Counts the errors of :data:`_VALUE_READ_ERRORS` made while the block runs, caught ones included: code that
    reads a value under a trace and catches the error takes another path than it does op by op."""
    made: list = []
    inits = {cls: cls.__init__ for cls in _VALUE_READ_ERRORS}

    def counting(init):
        def __init__(self, *args, **kwargs):
            made.append(type(self))
            init(self, *args, **kwargs)
        return __init__

    for cls, init in inits.items():
        cls.__init__ = counting(init)
    try:
        yield made
    finally:
        for cls, init in inits.items():
            cls.__init__ = init


def _layout(tree: Any, arrays: list) -> Any:
    """``tree``'s containers as hashable data, dicts in their own key order (jax.jit sorts them), its arrays
    appended to ``arrays`` (each a ``None`` in the layout) and every other leaf kept in it as a value."""
    if type(tree) is dict:
        return (dict, tuple((k, _layout(v, arrays)) for k, v in tree.items()))
    if type(tree) in (list, tuple):
        return (type(tree), tuple(_layout(v, arrays) for v in tree))
    if isinstance(tree, (jax.Array, np.ndarray, np.generic)):
        arrays.append(tree)
        return None
    hash(tree)  # a Python number, a string, None: part of the layout, as a jax.jit static argument is
    return ("value", tree)


def _build(layout: Any, arrays: Any) -> Any:
    """The tree ``layout`` describes, its arrays taken in order from the iterator ``arrays``."""
    if layout is None:
        return next(arrays)
    kind, items = layout
    if kind is dict:
        return {k: _build(v, arrays) for k, v in items}
    if kind == "value":
        return items
    return kind(_build(v, arrays) for v in items)


def _holds_values(layout: Any) -> bool:
    """The tree ``layout`` describes holds something other than arrays."""
    if layout is None:
        return False
    kind, items = layout
    if kind == "value":
        return True
    return any(_holds_values(v) for v in ((v for _, v in items) if kind is dict else items))


def _state(fn: Callable) -> tuple:
    """What a call of ``fn`` may change that outlives it, as identities: what its module holds (each name's value,
    and two levels into containers, objects, classes and the defaults and closures of functions)."""
    plain = inspect.unwrap(fn) if callable(fn) else fn
    module = getattr(plain, "__globals__", None)
    if module is None:
        owner = inspect.getmodule(plain)
        module = vars(owner) if owner is not None else {}
    return tuple((name, id(value), _inside(value, 2)) for name, value in list(module.items())
                 if not name.startswith("__")) + (_inside(plain, 2),)


def _inside(value: Any, depth: int) -> Any:
    """The identities of what ``value`` holds, ``depth`` levels down (imported modules are not the student's)."""
    if depth == 0 or isinstance(value, types.ModuleType):
        return None
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = list(enumerate(value))
    elif isinstance(value, types.FunctionType):
        cells = [c.cell_contents if _filled(c) else None for c in value.__closure__ or ()]
        items = list(enumerate([*(value.__defaults__ or ()), *(value.__kwdefaults__ or {}).values(), *cells]))
    elif isinstance(getattr(value, "__dict__", None), (dict, types.MappingProxyType)):
        items = list(vars(value).items())
    else:
        return None
    return tuple((k if isinstance(k, (str, int)) else id(k), id(v), _inside(v, depth - 1)) for k, v in items)


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents
    except ValueError:  # a closure cell not yet assigned
        return False
    return True
