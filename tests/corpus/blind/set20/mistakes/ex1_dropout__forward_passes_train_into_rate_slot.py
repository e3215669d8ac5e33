# BLIND-SET: 20
# EXERCISE: ex1
# WHAT: forward_with_dropout calls dropout(key, h, train) positionally, remembering the signature as (key, x, train): `train` lands in the `rate` slot and the real rate is never passed, so with train=True every hidden unit is dropped (rate=True -> keep=0) and with train=False it happens to return h unchanged
# SHOULD-SAY: dropout itself is correct and the keys are split one per layer, but forward_with_dropout passes `train` where `rate` belongs (dropout(key1, h, train)): in training rate becomes True (1.0) so every hidden activation is zeroed and the logits are just layer3's bias, whatever `rate` is; call dropout(key1, h, rate, train) (or pass rate=..., train=... by keyword)

"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
