# BLIND-SET: 51
# EXERCISE: ex3
# WHAT: mlp_forward first checks concretely that x is finite (bool(jnp.all(jnp.isfinite(x)))). Under jax.jit that check raises, and the except branch falls back to a "generic" path, which calls the helper _dense(h, layer) with its default relu=True on every layer, the last one included. Eager calls match the reference. Under jax.jit every negative logit is clamped to 0, so the results do not agree under jit.
# SHOULD-SAY: Results must agree under jax.jit. The finiteness check cannot run on a tracer, and the except fallback silently uses a different formula that applies ReLU to the output layer too. Drop the concrete value check (or use checkify), and keep a single code path that applies ReLU only to the hidden layers.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (defensive)."""

import jax
import jax.numpy as jnp


def _dense(h, layer, relu=True):
    out = h @ layer["w"] + layer["b"]
    return jax.nn.relu(out) if relu else out


def _numbered(params):
    pairs = []
    for name in params:
        if not name.startswith("layer") or not name[5:].isdigit():
            raise ValueError(f"unexpected key {name!r} in params")
        pairs.append((int(name[5:]), name))
    pairs.sort()
    expected = list(range(1, len(pairs) + 1))
    if [n for n, _ in pairs] != expected:
        raise ValueError(f"layers must be numbered 1..{len(pairs)}")
    return [name for _, name in pairs]


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = _numbered(params)
    layers = [params[name] for name in names]
    try:
        if not bool(jnp.all(jnp.isfinite(x))):
            raise ValueError("x contains NaN or inf")
    except jax.errors.ConcretizationTypeError:
        # Traced input (inside jit): values cannot be checked, use the generic path.
        h = x
        for layer in layers:
            h = _dense(h, layer)
        return h
    h = x
    for layer in layers[:-1]:
        h = _dense(h, layer, relu=True)
    return _dense(h, layers[-1], relu=False)
