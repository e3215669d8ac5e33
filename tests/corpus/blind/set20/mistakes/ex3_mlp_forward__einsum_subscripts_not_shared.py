# BLIND-SET: 20
# EXERCISE: ex3
# WHAT: the matmul is written jnp.einsum('bi,jk->bk', x, w) with different letters for the contracted axis, so einsum sums x over i and w over j separately: every layer computes the rank-one outer product x.sum(1) * w.sum(0) instead of x @ w
# SHOULD-SAY: layer ordering, depth, biases and the ReLU placement are all right, but the einsum subscripts do not tie x's feature axis to w's input axis ('bi,jk->bk'): i and j are summed independently, giving rowsum(x) * colsum(w), not a matrix product; use 'bi,ik->bk' (or x @ w)

"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def _dense(x, layer):
    return jnp.einsum("bi,jk->bk", x, layer["w"]) + layer["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_dense(x, params[name]))
    return _dense(x, params[names[-1]])
