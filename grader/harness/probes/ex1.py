"""Exercise 1 observations: dropout at several rates and keys; the MLP's key use.

``forward_with_dropout`` is observed with the module's ``dropout`` replaced by
the contract's dropout (``contract_dropout`` below). Its checks judge what the
forward pass itself is responsible for (splitting the key, where dropout sits,
passing ``train`` on), so a mistake inside the student's ``dropout`` is charged
once, in dropout's own checks, and not again in every forward check. A forward
pass that does not call ``dropout`` (it inlines its masks) is observed as is.
"""

import jax
import jax.numpy as jnp

from grader.harness.jaxpr_tools import key_uses
from grader.harness.probes._common import as_jax, key, no_leaks, snapshot
from grader.protocol import EX1_RATES as RATES


def contract_dropout(key, x, rate, train=True):
    """Inverted dropout exactly as the exercise API specifies it."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0).astype(x.dtype)


def probe(rec, modules, inputs, options):
    m = modules["ex1_dropout"]
    data = as_jax(inputs["ex1"])
    k1, k2 = (key(int(s)) for s in inputs["ex1"]["key_seeds"])
    x = data["x"]

    for rate in RATES:
        rec.record(f"dropout/rate{rate}", lambda rate=rate: m.dropout(k1, x, rate))
    rec.record("dropout/again", lambda: m.dropout(k1, x, 0.5))
    rec.record("dropout/other_key", lambda: m.dropout(k2, x, 0.5))
    rec.record("dropout/eval", lambda: m.dropout(k1, x, 0.5, False))
    rec.record("dropout/rate0", lambda: m.dropout(k1, x, 0.0))
    jitted = jax.jit(lambda k, x: m.dropout(k, x, 0.5))
    rec.record("dropout/jit", lambda: no_leaks(jitted, k1, x))
    rec.record("dropout/jit_other_key", lambda: jitted(k2, x))

    params, xb = data["params"], data["xb"]
    if hasattr(m, "dropout"):  # before the first forward call, so a jitted forward traces with it
        m.dropout = contract_dropout
    forward = m.forward_with_dropout
    rec.record("forward/eval", lambda: forward(params, xb, k1, 0.5, False))
    rec.record("forward/train", lambda: forward(params, xb, k1, 0.5, True))
    rec.record("forward/train_again", lambda: forward(params, xb, k1, 0.5, True))
    rec.record("forward/train_other_key", lambda: forward(params, xb, k2, 0.5, True))
    rec.record("forward/rate0", lambda: forward(params, xb, k1, 0.0, True))
    jitted_forward = jax.jit(lambda p, x, k: forward(p, x, k, 0.5, True))
    rec.record("forward/jit", lambda: no_leaks(jitted_forward, params, xb, k1))
    rec.record("forward/key_uses", lambda: key_uses(lambda p, x, k: forward(p, x, k, 0.5, True), params, xb, k1))
    rec.record("input/params_after", lambda: snapshot(params))
