# BLIND-SET: 41
# EXERCISE: ex1
# WHAT: forward_with_dropout follows the inverted weight-scaling rule by dividing the whole next layer by p, bias included: z = (r * y) @ (W / p) + b / p. In training mode the logits (and the layer-2 pre-activations) get an extra b * (1/p - 1), so they differ from the reference whenever layer2.b or layer3.b is non-zero. dropout() itself, train=False and rate=0 are right.
# SHOULD-SAY: In training mode forward_with_dropout differs from dropout-after-ReLU with the same keys, although the masks and the eval path match. The 1/p compensates for the thinned units, so it belongs on their outgoing weights (or on the activations) only: the bias is not fed by a dropped unit and must not be divided by p. Use y_thin @ (W / p) + b, or call dropout() on the activations.
"""Exercise 1: dropout with split PRNG keys (written from Srivastava et al., 2014).

Notation from the paper: a unit is *retained* with probability p, r ~ Bernoulli(p),
y~ = r * y, and z^(l+1) = W^(l+1) y~^(l) + b^(l+1). The lesson asks for the
drop probability ``rate``, so p = 1 - rate throughout.
"""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _retention_mask(key, p, shape):
    """r_j ~ Bernoulli(p), one independent draw per element (paper eq. for r^(l))."""
    return jax.random.bernoulli(key, p, shape)


def dropout(key, x, rate, train=True):
    """Inverted dropout: keep with probability p = 1 - rate and divide survivors by p."""
    if not train or rate == 0.0:
        return x
    p = 1.0 - rate
    r = _retention_mask(key, p, x.shape)
    return jnp.where(r, x / p, 0.0).astype(x.dtype)


def _thinned_layer(r, y, layer, p):
    """z = (W (r * y) + b) / p: the layer fed by the thinned units is scaled by 1/p."""
    y_thin = jnp.where(r, y, 0.0)
    # The paper scales the layer fed by the thinned units; scale the whole layer.
    return y_thin @ (layer["w"] / p) + layer["b"] / p


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP, dropout on the two hidden layers, one key per layer."""
    if not train or rate == 0.0:
        return forward(params, x)
    p = 1.0 - rate
    key1, key2 = jax.random.split(key)
    y1 = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    r1 = _retention_mask(key1, p, y1.shape)
    y2 = jax.nn.relu(_thinned_layer(r1, y1, params["layer2"], p))
    r2 = _retention_mask(key2, p, y2.shape)
    return _thinned_layer(r2, y2, params["layer3"], p)
