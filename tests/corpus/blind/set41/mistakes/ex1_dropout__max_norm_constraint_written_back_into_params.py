# BLIND-SET: 41
# EXERCISE: ex1
# WHAT: After a training-mode pass, forward_with_dropout applies Srivastava et al.'s max-norm constraint (c = 3) to the incoming weight vector of every hidden unit, i.e. each column of layer1.w and layer2.w, and writes the projected matrices back into the caller's params dict. The logits of that call are right, but the caller's params are changed in place: layer1.w and layer2.w are new arrays after every eager call with train=True, and their values change wherever a column norm is above 3. Later calls (and train=False) then use the shrunk weights.
# SHOULD-SAY: forward_with_dropout modifies its params argument: after a call with train=True, params["layer1"]["w"] and params["layer2"]["w"] are replaced by max-norm-projected copies. A forward pass must leave its inputs alone. The max-norm constraint belongs in the training loop, applied to the new params returned by the update, not inside the forward function. Remove the write-back, or return the constrained params separately.
"""Exercise 1: dropout with split PRNG keys, with the paper's max-norm constraint.

Srivastava et al. (2014), section 5.1: dropout works best together with a
max-norm constraint, ||w|| <= c on the incoming weight vector of each hidden
unit, with c typically 3 or 4. p is the retention probability, p = 1 - rate.
"""

import jax
import jax.numpy as jnp

MAX_NORM_C = 3.0  # the paper's c


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: retain with probability p = 1 - rate, survivors scaled by 1/p."""
    if not train or rate == 0.0:
        return x
    p = 1.0 - rate
    r = jax.random.bernoulli(key, p, x.shape)
    return jnp.where(r, x / p, 0.0).astype(x.dtype)


def _max_norm(w, c=MAX_NORM_C):
    """Project each hidden unit's incoming weight vector (a column of w) onto ||w_j|| <= c."""
    norms = jnp.sqrt(jnp.sum(w * w, axis=0, keepdims=True))
    return w * jnp.minimum(1.0, c / jnp.maximum(norms, 1e-12))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP with dropout after each hidden ReLU, one key per layer."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    if train:
        # Max-norm is part of dropout training: keep the hidden units' weights on the ball.
        for name in ("layer1", "layer2"):
            params[name]["w"] = _max_norm(params[name]["w"])
    return logits
