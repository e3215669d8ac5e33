# BLIND-SET: 41
# EXERCISE: ex1
# WHAT: Correct. Srivastava et al.'s notation: p = 1 - rate is the probability of retaining a unit and r ~ Bernoulli(p) is drawn with jax.random.bernoulli(key, p, shape), so the masks are bit-identical to the reference's. dropout() returns r * x / p. In forward_with_dropout the thinned units r * y are left unscaled and the 1/p goes on the outgoing weights of the next layer (the inverted form of the paper's W_test = p W), which equals the reference's logits to float rounding. train=False and rate == 0 take the plain forward pass.
# SHOULD-SAY: Nothing to fix: every ex1 check passes. A report could note that putting 1/p on the outgoing weights is the same as putting it on the activations.
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
    """z = W (r * y) / p + b: the 1/p sits on the outgoing weights of the thinned units."""
    y_thin = jnp.where(r, y, 0.0)
    return y_thin @ (layer["w"] / p) + layer["b"]


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
