"""Exercise 1 observations: dropout at several rates and keys; the MLP's key use.

``dropout`` is also called with its first two arguments swapped
(``dropout/swapped``): a dropout written as ``dropout(x, key, ...)`` works only
that way round, which names its mistake from what it computes.

``forward_with_dropout`` is observed with the module's ``dropout`` replaced by
the contract's dropout (``contract_dropout`` below), taking its two first
arguments in the order the student's own ``dropout`` works in (and returning a tuple, output first, when the
student's own returns one), so a forward pass
consistent with its dropout is judged on what it does itself. Its checks judge what the
forward pass itself is responsible for (splitting the key, where dropout sits,
passing ``train`` on), so a mistake inside the student's ``dropout`` is charged
once, in dropout's own checks, and not again in every forward check. A forward
pass that does not call ``dropout`` (it inlines its masks) is observed as is.
"""

import jax
import jax.numpy as jnp
import numpy as np

from grader.harness.jaxpr_tools import draws_and_masks
from grader.harness.probe_tools import as_jax, key, no_leaks, parameters, same_array, snapshot
from grader.exercises.ex1.shared import (CURVE_BIASES, CURVE_GRID, HIGH_RATE, RATES, SMALL_RATE, SMALL_RATE_TILES,
                                         SCALAR_CALLS, SCALAR_KEYS, VERY_HIGH_RATE,
                                         WIDE_SCALE, WIDE_SHIFT,
                                         bias_params, large_params, mean_params, other_shapes)


class DropoutArgumentOrder(TypeError):
    """forward_with_dropout called dropout with the key and x in the other order than dropout takes them."""


def _is_key(value) -> bool:
    """A PRNG key: a typed key array, or raw uint32 key data (``jax.random.PRNGKey``)."""
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        return False
    return jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key) or (dtype == jnp.uint32 and jnp.shape(value)[-1:] == (2,))


#: The calls the forward pass made to the contract's dropout while a probe watches (``_calls_made``): each one's
#: rate (None when traced) and, for a concrete key, the key and the shape of the values.
_CALLS: list | None = None


def _calls_made(fn) -> list[dict]:
    """``fn()``, and every call of the contract's dropout it made."""
    global _CALLS
    _CALLS = []
    try:
        fn()
        return list(_CALLS)
    finally:
        _CALLS = None


def _calls_given(fn):
    """``fn()``, and every call of the contract's dropout it made, as data: its key's words (None for a traced
    key), its rate and train flag (None where traced)."""
    given = []
    for call in _calls_made(fn):
        key = call["key"]
        if key is not None and jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key):
            key = jax.random.key_data(key)
        given.append({"key": None if key is None else np.asarray(key).reshape(-1).tolist(), "rate": call["rate"],
                      "train": call["train"]})
    return given


def _rates_given(fn):
    """``fn()``, and the rate of every call of the contract's dropout it made (None for a traced rate)."""
    return [call["rate"] for call in _calls_made(fn)]


#: The submission's own dropout, while the contract's stands in for it: a call with keywords of its own (a
#: ``deterministic=`` beside ``train``) means what the submission's dropout makes of them, so it answers that call.
_OWN = None
#: Whether that dropout takes (x, key) rather than (key, x).
_OWN_X_FIRST = False


def contract_dropout(key, x, rate, train=True, **own_keywords):
    """Inverted dropout exactly as the exercise API specifies it. Keywords the API does not have (the submission's
    dropout's own) hand the call to the submission's dropout, whose meaning for them only it knows; its key and
    rate are recorded all the same."""
    if _CALLS is not None:
        try:
            given = float(rate)
        except (TypeError, jax.errors.ConcretizationTypeError):
            given = None
        concrete = not isinstance(key, jax.core.Tracer)
        flag = bool(train) if isinstance(train, (bool, np.bool_)) else None
        _CALLS.append({"rate": given, "train": flag, "key": key if concrete else None,
                       "shape": tuple(x.shape) if concrete else None})
    if _is_key(x) and not _is_key(key):
        raise DropoutArgumentOrder(
            "forward_with_dropout called dropout(x, key, ...), but its dropout takes (key, x, ...)")
    if own_keywords and _OWN is not None:
        out = _OWN(*((x, key) if _OWN_X_FIRST else (key, x)), rate, train, **own_keywords)
        return out[0] if isinstance(out, tuple) and out else out  # a tuple's output: the stand-in's form adds the rest
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0).astype(x.dtype)


def contract_dropout_x_first(x, key, rate, train=True, **own_keywords):
    """The contract's dropout for a submission whose own dropout takes (x, key): judged with its own order."""
    if _is_key(x) and not _is_key(key):
        raise DropoutArgumentOrder(
            "forward_with_dropout called dropout(key, x, ...), but its dropout takes (x, key, ...)")
    return contract_dropout(key, x, rate, train, **own_keywords)


def _in_form_of(dropout_fn, extra: int):
    """``dropout_fn``, returning ``(output, mask, ...)`` as a student's dropout that returns a tuple of
    ``1 + extra`` items, its output first, does: its forward pass unpacks what its dropout returns."""

    def as_tuple(*args, **kwargs):
        out = dropout_fn(*args, **kwargs)
        return (out, *([out != 0] * extra))

    return as_tuple


#: Train-mode outputs recomputed with each dropout call's output scaled: by name, the factor (of ``rate``).
RESCALED = {"rescaled_again": lambda rate: 1.0 / (1.0 - rate), "rescale_undone": lambda rate: 1.0 - rate}
#: Train-mode outputs recomputed with one dropout call made but its output not passed on (the next layer reads the
#: values dropout was given): by name, which of the two calls' outputs are used.
UNUSED = {"first_unused": (False, True), "second_unused": (True, False)}


def _recomputed(forward, params, xb, k, rate):
    """The lesson MLP in train mode, recomputed with the dropout calls ``forward`` made (their keys, in order):
    what its output must be, when it called the contract's dropout once on each hidden layer's (B, 256) and
    (B, 128) values with concrete keys; None otherwise (it drew its masks another way: judged by them). Beside
    it, under ``RESCALED``'s names, the same pass with each dropout call's output scaled again."""
    try:
        calls = _calls_made(lambda: forward(params, xb, k, rate, True))
    except BaseException:  # noqa: BLE001 - a forward pass that fails is charged where it is observed
        return None
    b = xb.shape[0]
    if [c["shape"] for c in calls] != [(b, 256), (b, 128)]:  # a traced key has no shape recorded
        return None
    if any(c["train"] is False for c in calls):  # dropout told not to act: what train mode did is judged by its draws
        return None

    def recompute(scale, used=(True, True)):
        h = jax.nn.relu(xb @ params["layer1"]["w"] + params["layer1"]["b"])
        h = contract_dropout(calls[0]["key"], h, rate) * scale if used[0] else h
        h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
        h = contract_dropout(calls[1]["key"], h, rate) * scale if used[1] else h
        return h @ params["layer3"]["w"] + params["layer3"]["b"]

    return {"output": recompute(1.0), **{name: recompute(factor(rate)) for name, factor in RESCALED.items()},
            **{name: recompute(1.0, used) for name, used in UNUSED.items()}}


def _try(fn):
    try:
        return fn()
    except BaseException:  # noqa: BLE001 - a measurement that fails measures nothing (as in Recorder.record)
        return None


def _scalars(dropout, k, scalar_x):
    """dropout(key, x, 0.5) on a 0-d x for SCALAR_KEYS keys split from ``k``, in one jax.vmap over the keys (one
    program); a dropout that cannot be vmapped over its key is called SCALAR_CALLS times, one key each."""
    try:
        got = jax.vmap(lambda key: jnp.asarray(dropout(key, scalar_x(), 0.5)))(jax.random.split(k, SCALAR_KEYS))
        if got.shape == (SCALAR_KEYS,):
            return got
    except Exception:  # noqa: BLE001 - a Python branch on a traced value: called one key at a time below
        pass
    return jnp.stack([jnp.asarray(dropout(key, scalar_x(), 0.5)) for key in jax.random.split(k, SCALAR_CALLS)])


def _works(value, x) -> bool:
    """``value`` is an array shaped like ``x`` (what a working dropout returns)."""
    return isinstance(value, jax.Array) and value.shape == x.shape


def probe(rec, modules, inputs, options):
    global _OWN, _OWN_X_FIRST
    m = modules["ex1_dropout"]
    data = as_jax(inputs["ex1"])
    k1, k2 = (key(int(s)) for s in inputs["ex1"]["key_seeds"])
    x = data["x"]

    rec.record("parameters/dropout", lambda: parameters(m.dropout))
    dropped = {rate: rec.record(f"dropout/rate{rate}", lambda rate=rate: m.dropout(k1, x, rate)) for rate in RATES}
    rec.record("dropout/high_rate", lambda: m.dropout(k1, jnp.asarray(inputs["ex1"]["x"]), HIGH_RATE))
    rec.record("dropout/very_high_rate", lambda: m.dropout(k1, jnp.asarray(inputs["ex1"]["x"]), VERY_HIGH_RATE))
    # the inputs below are made from the host's copy: a dropout that donated x (jit's donate_argnums) has deleted it
    x_again = jnp.asarray(inputs["ex1"]["x"])
    big = jnp.tile(x_again, SMALL_RATE_TILES)
    rec.record("dropout/small_rate", lambda: {"zeros": int(jnp.sum(jnp.asarray(m.dropout(k1, big, SMALL_RATE)) == 0)),
                                              "size": int(big.size)})
    shaped_outputs = {name: rec.record(f"dropout/{name}", lambda shaped=shaped: m.dropout(k1, shaped, 0.5))
                      for name, shaped in other_shapes(x_again).items()}  # any shape, not only a 2-D batch of many

    def scalar_x():  # a 0-d x, a fresh array each call (from the host's copy, as a dropout may donate x)
        return jnp.asarray(inputs["ex1"]["x"][0, 0])

    if _works(shaped_outputs["scalar"], scalar_x()):  # many keys on a 0-d x, where a 0-d x works at all
        rec.record("dropout/scalars", lambda: _scalars(m.dropout, k1, scalar_x))
    rec.record("dropout/again", lambda: m.dropout(k1, x, 0.5))
    rec.record("dropout/negated", lambda: m.dropout(k1, -x, 0.5))  # every element negative: -1 times the output
    rec.record("dropout/other_key", lambda: m.dropout(k2, x, 0.5))
    rec.record("dropout/eval", lambda: m.dropout(k1, x, 0.5, False))
    rec.record("dropout/rate0", lambda: m.dropout(k1, x, 0.0))
    swapped = _try(lambda: m.dropout(x, k1, 0.5))
    if _works(swapped, x):  # recorded only when it works: failing is what a right dropout does
        rec.record("dropout/swapped", lambda: swapped)
    jitted = jax.jit(lambda k, x: m.dropout(k, x, 0.5))
    rec.record("dropout/jit", lambda: no_leaks(jitted, k1, x))
    rec.record("dropout/jit_other_key", lambda: jitted(k2, x))
    rec.record("dropout/jit_eval", lambda: no_leaks(jax.jit(lambda k, x: m.dropout(k, x, 0.5, False)), k1, x))

    params, xb = data["params"], data["xb"]
    x_first = _works(swapped, x) and not _works(dropped[0.5], x)
    own_dropout = getattr(m, "dropout", None)  # asked again after the forward calls: state they left shows there
    if hasattr(m, "dropout"):  # before the first forward call, so a jitted forward traces with it
        _OWN, _OWN_X_FIRST = own_dropout, x_first
        m.dropout = contract_dropout_x_first if x_first else contract_dropout
        own = dropped[0.5]
        if isinstance(own, tuple) and len(own) > 1 and _works(own[0], x):  # (output, mask, ...), output first
            m.dropout = _in_form_of(m.dropout, len(own) - 1)
    forward = m.forward_with_dropout
    evaluated = rec.record("forward/eval", lambda: forward(params, xb, k1, 0.5, False))
    rec.record("forward/eval_other_key", lambda: forward(params, xb, k2, 0.5, False))
    # the output layer's weights and bias doubled (a new dict, the others' layers as given): the logits double
    rec.record("forward/output_doubled", lambda: forward(
        {**params, "layer3": {k: v * 2 for k, v in params["layer3"].items()}}, xb, k1, 0.5, False))
    # the same params object on the batch's rows in reverse order (reversed on the host: nothing new compiles; inside
    # the record, as the batch is gone if the submission's code deleted it)
    rec.record("forward/eval_reversed", lambda: forward(params, jnp.asarray(np.asarray(xb)[::-1].copy()), k1, 0.5,
                                                        False))
    rec.record("forward/train", lambda: forward(params, xb, k1, 0.5, True))
    rec.record("forward/train_again", lambda: forward(params, xb, k1, 0.5, True))
    rec.record("forward/train_other_key", lambda: forward(params, xb, k2, 0.5, True))
    unmasked = rec.record("forward/rate0", lambda: forward(params, xb, k1, 0.0, True))
    if not same_array(evaluated, unmasked):  # train=False is not what rate=0 gives: the masks it applied, if any
        rec.record("forward/eval_masks", lambda: draws_and_masks(lambda p, x, k: forward(p, x, k, 0.5, False), params,
                                                                 xb, k1, data_args=(0, 1), key_args=(2,))[1])
    rec.record("forward/one_row", lambda: forward(params, xb[:1], k1, 0.5, False))  # a batch of one example
    wide = jnp.asarray(inputs["ex1"]["xb"] * WIDE_SCALE + WIDE_SHIFT)
    rec.record("forward/eval_wide", lambda: forward(params, wide, k1, 0.5, False))
    # the params below are made from the host's copy: a forward pass may have changed the params dict it was given
    host_params = inputs["ex1"]["params"]
    for value in (0, 1):  # every bias set to 0, then to 1: how the biases enter the evaluation pass
        biased = as_jax({name: {**layer, "b": np.full_like(layer["b"], value)} for name, layer in host_params.items()})
        rec.record(f"forward/eval_bias{value}", lambda p=biased: forward(p, xb, k1, 0.5, False))
    grid = np.zeros_like(inputs["ex1"]["xb"])
    grid[:, 0] = np.asarray(CURVE_GRID, grid.dtype)
    grid = as_jax(grid)
    for which, biases in CURVE_BIASES.items():  # each hidden activation alone, on a grid (see CURVE_BIASES)
        unit = {}
        for (name, layer), bias in zip(sorted(host_params.items()), biases):
            w, b = np.zeros_like(layer["w"]), np.zeros_like(layer["b"])
            w[0, 0], b[0] = 1.0, bias
            unit[name] = {"w": w, "b": b}
        rec.record(f"forward/curve/{which}", lambda p=as_jax(unit): forward(p, grid, k1, 0.5, False))
    given = None
    if hasattr(m, "dropout"):  # what the forward pass gives its dropout, asked for another rate
        given = rec.record("forward/rates_given", lambda: _rates_given(lambda: forward(params, xb, k1, RATES[0], True)))
        rec.record("forward/default_rates", lambda: _rates_given(lambda: forward(params, xb, k1)))
    if not given:  # masks of its own: whether train mode keeps the average at another rate (see mean_params)
        flat = as_jax(mean_params(host_params))
        rec.record("forward/mean_train", lambda: forward(flat, xb, k1, RATES[0], True))
        rec.record("forward/mean_eval", lambda: forward(flat, xb, k1, RATES[0], False))
        biases = as_jax(bias_params(host_params))
        rec.record("forward/biases_train", lambda: forward(biases, xb, k1, RATES[0], True))
    if hasattr(m, "dropout"):  # the output its own dropout calls give: recorded where that can be known
        recomputed = _recomputed(forward, params, xb, k1, 0.5)
        if recomputed is not None:
            rec.record("forward/recomputed", lambda: recomputed["output"])
            rec.record("forward/rescaled", lambda: {name: recomputed[name] for name in RESCALED})
            rec.record("forward/unused", lambda: {name: recomputed[name] for name in UNUSED})
    jitted_forward = jax.jit(lambda p, x, k: forward(p, x, k, 0.5, True))
    rec.record("forward/jit", lambda: no_leaks(jitted_forward, params, xb, k1))
    rec.record("forward/jit_eval", lambda: no_leaks(jax.jit(lambda p, x, k: forward(p, x, k, 0.5, False)), params, xb,
                                                    k1))
    traced = []

    def draws():  # one evaluation gives both records (an error is recorded under each)
        if not traced:
            traced.append(draws_and_masks(lambda p, x, k: forward(p, x, k, 0.5, True), params, xb, k1,
                                          data_args=(0, 1), key_args=(2,)))
        return traced[0]

    rec.record("forward/key_uses", lambda: draws()[0])
    rec.record("forward/masks", lambda: draws()[1])
    if hasattr(m, "dropout"):  # ... and on a batch of one example, the calls it makes to its dropout: keys made per
        # example (split into B) and indexed per layer meet there, and a special case for one example shows
        rec.record("forward/one_row_calls", lambda: _calls_given(lambda: forward(params, xb[:1], k1, 0.5, True)))
    rec.record("input/params_after", lambda: snapshot(params))
    large = as_jax(large_params(host_params))  # what only large values trigger (see LARGE_PARAMS_SCALE)
    rec.record("input/large_params_after", lambda: (forward(large, xb, k1, 0.5, True), snapshot(large))[1])
    if own_dropout is not None and not x_first:  # its first call again, after every forward call (train=False too)
        rec.record("dropout/after_forward", lambda: own_dropout(k1, x, 0.5))
