"""Judges shared by several exercises."""

from __future__ import annotations

import re

from typing import Any, Callable

from grader.checks import PASS, Context, Mistake, StudentError, Verdict, fail
from grader.checks.compare import tree_mismatch
from grader.inputs import flatten
from grader.observations import ObservationError

NUMPY_ON_TRACER = Mistake(
    "numpy_on_tracer", "numpy on a traced array",
    "A numpy function (np.where, np.sum, np.asarray, ...) was given a traced array: under jax.jit arrays are "
    "tracers, which numpy cannot read. Use the jax.numpy function of the same name (jnp.where, ...). A check "
    "on the values themselves (an assert or an if on np.isnan(...)) cannot run inside jax.jit in any form: take it "
    "out of the function, or print with jax.debug.print.")
STALE = Mistake(
    "stale_result", "a result kept from an earlier call",
    "A call with other arguments of the same shapes returned what an earlier call's arguments give: something "
    "computed on an earlier call (a cache, a module-level global, a mutable default argument, a jitted closure over "
    "the first arguments) was reused. Compute from the arguments of each call; pass params into a jitted function "
    "as an argument rather than closing over them.")
MUTATED = Mistake(
    "params_mutated", "changing the params passed in",
    "The function changed the params it was given. JAX code is functional: build new dicts and arrays "
    "(e.g. with jax.tree.map or a dict comprehension) instead of assigning into the input.")


def unchanged(ctx: Context, name: str, original: dict[str, Any], calls: tuple[str, ...], where: str = "") -> Verdict:
    """The snapshot ``name`` taken after the calls equals the ``original`` input tree.

    ``calls`` are observations of the calls that received the params: if they
    failed, there is nothing to judge and the failure is reported instead.
    ``where`` says which call it was, for the message.
    """
    for call in calls:
        ctx.got(call)
    want = flatten(original)
    got = ctx.got(name)
    problem = tree_mismatch(got, want, rtol=0, atol_scale=0)
    if problem:
        removed = _layers_removed(got, want)
        return fail(f"after the {where or 'calls'}, params differ from what was passed in: {problem}"
                    + (f"; measured: {removed}" if removed else ""), MUTATED)
    return PASS


def _layers_removed(got: Any, want: dict[str, Any]) -> str:
    """Words for params that, after a call, lack whole entries of the dict passed in (every leaf under them gone,
    nothing else changed, as ``params.pop(name)`` does); "" otherwise."""
    if not isinstance(got, dict) or set(got) - set(want) or set(got) == set(want):
        return ""
    gone = sorted({path.split("/")[0] for path in set(want) - set(got)})
    if any(path.split("/")[0] in gone for path in got) or any(tree_mismatch(got[k], want[k], rtol=0, atol_scale=0)
                                                             for k in got):
        return ""
    return (f"{', '.join(repr(name) for name in gone)} {'was' if len(gone) == 1 else 'were'} taken out of the "
            "caller's dict (as params.pop(name) or del params[name] does), the rest left as it was")


def unchanged_where_returned(ctx: Context, cases: list[tuple[str, dict[str, Any], str]],
                             where: Callable[[str], str] = lambda call: "") -> Verdict:
    """``unchanged`` for each ``(snapshot, original, call)`` whose call returned: a call that raised is charged by
    the checks of its values, not here. If none returned, there is nothing to judge: the first crash is raised.
    ``where(call)`` words the call for the message."""
    crashed = None
    judged = 0
    for name, original, call in cases:
        try:
            ctx.got(call)
        except StudentError as exc:
            crashed = crashed or exc
            continue
        judged += 1
        verdict = unchanged(ctx, name, original, (call,), where(call))
        if not verdict.passed:
            return verdict
    if not judged and crashed:
        raise crashed
    return PASS


def mutated(ctx: Context, name: str, original: dict[str, Any]) -> bool:
    """True when the snapshot ``name`` shows the params were changed (so repeated calls cannot agree)."""
    try:
        return tree_mismatch(ctx.got(name), flatten(original), rtol=0, atol_scale=0) is not None
    except Exception:  # noqa: BLE001 - no snapshot, no evidence
        return False


def numpy_on_tracer(error: ObservationError) -> Mistake | str:
    """``error_hint`` for checks that trace: numpy handed a tracer is a mistake named by its error type."""
    return NUMPY_ON_TRACER if NUMPY_ON_TRACER.id in (error.kind, _KIND_OF_TYPE.get(error.type)) else ""


PYTHON_ON_TRACER = (
    "Python control flow or a conversion (if, while, int(), float(), bool(), x[mask]) was applied to a traced "
    "array: under jax.jit (and vmap, grad) values are not known while tracing. Use jnp.where or jax.lax.cond, "
    "or keep such values as Python arguments.")
TRACED_ARGUMENT = (
    "Python control flow or a conversion (if, while, int(), float(), bool()) was applied to a value that comes from an "
    "argument of a jax.jit function (JAX's message names it: 'depends on the value of the argument ...'): jit traces "
    "every argument not marked static. If that argument is a Python setting that chooses what the code does (a flag "
    "such as train, a rate, a count), mark it static: jax.jit(f, static_argnames=('train',)); if it is an array, "
    "use jnp.where or jax.lax.cond.")
LEAKED_TRACER = ("A traced value escaped its transformation: under jax.jit a value computed inside the function was "
                 "kept after the call, in a global, a class attribute, a default argument or a list outside the "
                 "function (JAX's message says what refers to it). Keep functions pure: store nothing outside them, "
                 "and return what you compute.")
KEY_REUSE = "JAX's key-reuse checker saw one key used twice: split it, and use each new key once."
SIGNATURE = ("The call did not fit the function's parameters (it failed before any line of your function ran): "
             "check the parameter names, their order and defaults against the docstring, and that none the "
             "docstring passes by position is keyword-only (after a bare * or *args); the grader calls each function "
             "exactly as documented.")
CALL_DID_NOT_FIT = ("A call your code makes does not fit the parameters of the function it calls (the message says "
                    "how: how many arguments it takes and how many it was given, or which name it does not know; the "
                    "last line of your code in the traceback is the call): pass exactly what that function takes, "
                    "in its order, unpacking a tuple result into its parts first if you pass them on.")
OWN_RAISE = ("Your own code raised this error on purpose (the raise or assert in the traceback) for a call the "
             "grader makes as the docstring allows (the message quotes the call): the condition it tests does not "
             "hold there. Remove the test, or make it true for every argument the docstring allows; a test of what "
             "happened during calls (a count, a value kept) does not hold under jax.jit, whose Python body runs only "
             "while it traces.")
UNBOUND_LOCAL = ("A name was read in a function before the function gave it a value: a name assigned anywhere in a "
                 "function (name = ...) is local to all of it, so an earlier line that means the module's name reads "
                 "the local one, not yet set. Give the new value another name (jitted_step = jax.jit(train_step)).")
FUNCTION_NOT_CALLED = ("A function was used where what it returns belongs: the message shows a function object (a "
                       "'function' or 'builtin_function_or_method') asked for an attribute its result has, or given "
                       "to arithmetic. Call it, with its arguments: time.perf_counter(), optax.adam(learning_rate), "
                       "not time.perf_counter, optax.adam.")
UNPACK = ("A tuple assignment got another number of values than it names (the message says how many): check what "
          "the right-hand side returns (a tuple of how many parts? a dict, whose unpacking gives its keys?) "
          "against the names on the left.")
NO_ATTRIBUTE = ("Your code asked a value for an attribute its type does not have (the message names the type and "
                "the attribute): the value is not what the code expects there; check what the function that made "
                "it returns (print type(value)).")
TRACER_METHOD = ("A method that needs the array's values (.block_until_ready(), .item(), .tolist(), ...) was called on "
                 "a traced array: under jax.jit (and vmap, grad) arrays have no values while the function is traced. "
                 "Leave such calls to the caller, outside the transformed function: it waits for the result itself.")
SHAPE = ("An operation got arrays whose shapes do not fit together: print the shapes going in (x.shape, "
         "w.shape) and check them against the docstring.")
RESHAPE = ("A reshape failed: the array did not have as many elements as the shape asked for. Print its shape "
           "before the reshape, and reshape with the sizes the array has (x.shape[0], -1) rather than fixed ones.")
UNEVEN_SPLIT = ("An array was split into equal parts (jnp.split(x, n), np.split) and its length is not a multiple of n: "
                "the docstring allows any batch size, odd ones and 1 included. Work on the whole batch at once "
                "(jax.vmap maps every example), or split with jnp.array_split, which allows a shorter last part.")
KEY_BATCH = ("A jax.random function that takes one key was given an array of several (JAX's message gives its shape: "
             "a raw key is shape (2,), so (1, 2) is a batch of one key): a slice that keeps its axis (keys[i:i + 1], "
             "jax.lax.index_in_dim's default keepdims=True, jnp.split of split keys) or split's whole result is a "
             "batch of keys. Pass one key: key1, key2 = jax.random.split(key), or keys[i].")
AXES_CONTRACTED = ("A product contracted more than one axis of each array (the message lists two sizes on each side): "
                   "jnp.tensordot contracts two axes unless told otherwise (axes=2). A layer contracts one, x's last "
                   "with w's first: x @ w, jnp.dot(x, w), or jnp.tensordot(x, w, axes=1).")
INVALID_KEY = ("A PRNG key of the wrong shape reached jax.random (a raw key is a uint32 array of shape (2,)): new keys "
               "come from jax.random.split(key) (key1, key2 = jax.random.split(key)), not from slicing or splitting "
               "the key's array (jnp.split, key[0]), which gives pieces that are not keys.")
NOT_A_KEY = ("A jax.random function got something that is not a key where its key goes (JAX's message names its "
             "type): every jax.random function takes the key first, then the rest, jax.random.normal(key, shape), "
             "jax.random.randint(key, shape, low, high), jax.random.split(key, n).")
SHAPE_FOR_KEY = Mistake(
    "shape_for_key", "a shape passed where a jax.random function takes its key",
    "A jax.random function got a shape where its key goes (the message says which call, and what it held there). "
    "Every jax.random function takes the key first and the shape after it: jax.random.normal(key, (n, m)), "
    "jax.random.randint(key, (n,), low, high).")
VALUE_FOR_KEY = Mistake(
    "value_for_key", "a value passed where a jax.random function takes its key",
    "A jax.random function got a number or an array of values where its key goes (the message says which call and "
    "what it held there): every jax.random function takes the key first, then the rest, "
    "jax.random.bernoulli(key, p, shape), jax.random.normal(key, shape).")
DELETED_ARRAY = ("An array was used after it had been deleted (JAX's words): a jax.jit with donate_argnums gives XLA "
                 "the buffers of the arguments in those places, and deletes the arrays once it has run. The arrays "
                 "a function is given (x, params, the batch) belong to its caller and must stay usable after it "
                 "returns: leave donate_argnums out.")
PROBE_STOPPED_HINT = (
    "The grader stopped observing this exercise when one of its own steps failed (the message shows the error) on "
    "what your functions had left behind, so this check's values were never observed: a function changed an "
    "argument it was given (a key added to or taken from the params dict, an array deleted by donate_argnums) or "
    "kept something between calls. Functions must leave their arguments as they found them; the checks that "
    "fail or pass above this one show which call did it.")
AOT_COMPILED = ("A function compiled ahead of time (jax.jit(f).lower(...).compile(), JAX's words name it) runs only "
                "on the shapes and types it was compiled for, and no transformation (jax.jit, grad, vmap) can be "
                "applied to it, while the grader calls your function on other shapes and under jax.jit. Use "
                "jax.jit(f) itself: it compiles again for each new shape, the first time it meets it.")
CHAIN_STATE = ("optax's chain was given a state that is not one its own init made (optax's words): "
               "optimizer.update(grads, opt_state, params) takes the gradients first, then the state "
               "optimizer.init(params) made for this same optimizer, then the params.")
GRAD_NOT_SCALAR = ("jax.grad differentiates a function that returns one number (shape ()), and the function given "
                   "to it returned an array (the message gives its shape): reduce it to one number (jnp.mean or "
                   "jnp.sum of a vector of losses, [0] of a batch of one), or differentiate the docstring's loss, "
                   "which is already a mean.")
UNHASHABLE = ("A dict, list or array was used where Python needs a hashable value: a dict key, a set, an argument of "
              "functools.lru_cache / functools.cache, or a static argument of jax.jit. Params are a dict of arrays: "
              "do not cache on them or hash them; compute from the arguments on every call.")
VMAP_SIZES = ("jax.vmap mapped arguments whose leading axes differ in size (the error names them): map only what has "
              "the batch on its leading axis, as it is given to this call. With in_axes=0 (the default) every argument "
              "is mapped, params included: map only the batch, jax.vmap(f, in_axes=(None, 0, 0)) for f(params, x, "
              "y); an array built for another batch (a fixed size, or kept from an earlier call) does not fit either.")
STACK_SHAPES = ("Arrays of different shapes were stacked: layers of different widths do not fit in one array. Run "
                "them one at a time, in a Python loop over the layers.")
SCAN_CARRY = ("jax.lax.scan needs a carry of the same shape at every step, and layers of different widths change "
              "it. Run the layers one at a time, in a Python loop over them.")
JIT_ARGUMENT = ("A function under jax.jit was called with an argument that is not an array (a function, an "
                "optimizer, a Python object): jit the function that takes the arrays, or mark that argument static "
                "(jax.jit(f, static_argnums=...)).")

STATIC_ARRAY = ("An array was passed to a jax.jit function as a static argument (static_argnums / "
                "static_argnames): static arguments must be hashable Python values, compiled into the program. "
                "Pass arrays as ordinary arguments, which jit traces.")

TRACED_KEY = ("A dict key was built from a traced value (the key in the message holds a tracer): a loop index "
              "of jax.lax.fori_loop or scan, or an argument under jit, is not a Python number while tracing. "
              "Index params with Python strings: loop over the layer names in a plain Python for loop.")

NOT_OBSERVABLE = ("The function returned something other than what its docstring describes (the message says what: "
                  "a dtype, a type, a size): return arrays of the input's dtype (float32 here), or the pytree of them "
                  "the docstring describes, computed with jax.numpy.")

ARGUMENTS_SWAPPED = Mistake(
    "arguments_swapped", "two arguments passed in each other's places",
    "Two arguments reached a function in each other's places (the message says which, what each held, and the call "
    "that passed them): pass them in the order of the function's parameters, e.g. forward(params, x), "
    "loss_fn(params, x, y), step_fn(params, opt_state, x, y).")

#: Hint for each kind of crash the child reports (``ObservationError.kind``); a kind the child invents gets none.
CRASH_HINTS: dict[str, Mistake | str] = {
    NUMPY_ON_TRACER.id: NUMPY_ON_TRACER,
    "python_on_tracer": PYTHON_ON_TRACER,
    "traced_argument": TRACED_ARGUMENT,
    "leaked_tracer": LEAKED_TRACER,
    "key_reuse": KEY_REUSE,
    "signature": SIGNATURE,
    "call_did_not_fit": CALL_DID_NOT_FIT,
    "own_raise": OWN_RAISE,
    "unbound_local": UNBOUND_LOCAL,
    "function_not_called": FUNCTION_NOT_CALLED,
    "unpack": UNPACK,
    "no_attribute": NO_ATTRIBUTE,
    "tracer_method": TRACER_METHOD,
    "shape": SHAPE,
    "reshape": RESHAPE,
    "uneven_split": UNEVEN_SPLIT,
    "invalid_key": INVALID_KEY,
    "key_batch": KEY_BATCH,
    "axes_contracted": AXES_CONTRACTED,
    "grad_not_scalar": GRAD_NOT_SCALAR,
    "unhashable": UNHASHABLE,
    "vmap_sizes": VMAP_SIZES,
    "stack_shapes": STACK_SHAPES,
    "scan_carry": SCAN_CARRY,
    "jit_argument": JIT_ARGUMENT,
    "static_array": STATIC_ARRAY,
    "traced_key": TRACED_KEY,
    "not_observable": NOT_OBSERVABLE,
    "arguments_swapped": ARGUMENTS_SWAPPED,
    "not_a_key": NOT_A_KEY,
    "shape_for_key": SHAPE_FOR_KEY,
    "value_for_key": VALUE_FOR_KEY,
    "chain_state": CHAIN_STATE,
    "deleted_array": DELETED_ARRAY,
    "aot_compiled": AOT_COMPILED,
    "probe_stopped": PROBE_STOPPED_HINT,
}
#: Crashes of code that cannot be traced (jax.jit, jax.make_jaxpr): numpy or Python control flow on a tracer.
TRACING_CRASHES = frozenset({NUMPY_ON_TRACER.id, "python_on_tracer"})
#: Crashes that come with the batch size, not with anything a network's depth changes.
BATCH_SIZE_CRASHES = frozenset({"uneven_split"})
#: JAX's own error classes, for an error recorded without a kind.
_KIND_OF_TYPE = {
    "TracerArrayConversionError": NUMPY_ON_TRACER.id,
    "ConcretizationTypeError": "python_on_tracer",
    "TracerBoolConversionError": "python_on_tracer",
    "TracerIntegerConversionError": "python_on_tracer",
    "NonConcreteBooleanIndexError": "python_on_tracer",
    "UnexpectedTracerError": "leaked_tracer",
    "KeyReuseError": "key_reuse",
}


def crash_kind(error: ObservationError) -> str:
    """The kind of a crash: the child's classification, else JAX's error class; "" when unknown."""
    kind = error.kind if error.kind in CRASH_HINTS else ""
    return kind or _KIND_OF_TYPE.get(error.type, "")


_SHAPE = re.compile(r"\((\d+(?:, ?\d+)*)?,?\)")


def shapes_met(error: ObservationError) -> list[tuple[int, ...]]:
    """The array shapes a shape crash names (JAX's "incompatible shapes for broadcasting: (5, 7), (128, 7)"), in
    order; [] for other crashes. At most 8."""
    if crash_kind(error) != "shape":
        return []
    return [tuple(int(d) for d in m.group(1).split(",")) if m.group(1) else ()
            for m in _SHAPE.finditer(error.message)][:8]


def fixed_rows(shapes: list[tuple[int, ...]], rows: int) -> int | None:
    """n, when among ``shapes`` one of ``rows`` rows met one of n != rows rows with the same trailing axes: an
    array made for a batch of n written into the code; None otherwise."""
    ours = [s for s in shapes if len(s) >= 2 and s[0] == rows]
    for shape in shapes:
        if len(shape) >= 2 and shape[0] not in (rows, 1) and any(o[1:] == shape[1:] for o in ours):
            return shape[0]
    return None


PARAMETERS = Mistake(
    "parameters_differ", "parameters other than the contract's, or in another order",
    "Give the function the parameters its docstring lists, in that order and with those names: the grader calls it "
    "as the contract does (by position), so an argument meant for one parameter lands in another (the message "
    "shows both lists).")


def parameters_words(ctx: Context, function: str, reordered_only: bool = False) -> str:
    """Words for ``function``'s parameters where they differ from the contract's (the reference's), as the probes
    record them (``parameters/<function>``); "" where they agree or were not recorded. With ``reordered_only``,
    only the contract's names in another order count (other names alone say nothing of what the function does)."""
    name = f"parameters/{function}"
    try:
        got, want = ctx.got(name), ctx.want(name)
    except Exception:  # noqa: BLE001 - not recorded (an older probe), or the function could not be inspected
        return ""
    if not isinstance(got, list) or not isinstance(want, list) or got == want:
        return ""
    if reordered_only and sorted(map(str, got)) != sorted(want):
        return ""
    words = f"{function}'s parameters are ({', '.join(map(str, got))}), the contract's ({', '.join(want)})"
    if sorted(map(str, got)) == sorted(want):
        moved = [w for g, w in zip(got, want) if g != w]
        words += (f": the same names in another order, so called by position as the contract calls it, the "
                  f"argument for {moved[0]} lands in {got[want.index(moved[0])]}")
    return words


_RESHAPE = re.compile(r"reshape array of shape \((\d+)[,)].*? into shape \((-?\d+)[,)]")
_CONTRACTING = re.compile(r"contracting dimensions to have the same shape, got \((\d+),\) and \((\d+),\)")


def crash_hint(error: ObservationError) -> Mistake | str:
    """The hint for a crash, chosen from its kind, and worded from the sizes JAX's message names where they show
    more (a reshape into a fixed number of rows, images not flattened); "" when the kind says nothing."""
    kind = crash_kind(error)
    if kind == "reshape" and (m := _RESHAPE.search(error.message)) and int(m.group(2)) > 0 \
            and int(m.group(1)) != int(m.group(2)):
        return (f"A reshape into {m.group(2)} rows was asked of an array of {m.group(1)} rows: a number of rows "
                "written into the code (the lesson's batch?) where the array's own belongs. Reshape with the array's "
                "leading size, g.reshape(g.shape[0], -1).")
    if kind == "shape" and (m := _CONTRACTING.search(error.message)) and int(m.group(1)) ** 2 == int(m.group(2)):
        side = m.group(1)
        return (f"A matrix product met an input whose last axis is {side} where the weights take {m.group(2)} "
                f"features: {side} x {side} images not flattened. Flatten each image to {m.group(2)} values, "
                "x.reshape(x.shape[0], -1), before the first layer.")
    return CRASH_HINTS.get(kind, "")
