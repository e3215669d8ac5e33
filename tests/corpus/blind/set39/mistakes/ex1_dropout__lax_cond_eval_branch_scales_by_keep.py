# BLIND-SET: 39
# EXERCISE: ex1
# WHAT: dropout picks its branch with jax.lax.cond(train, ...); the training branch is correct inverted dropout, but the evaluation branch returns x * (1 - rate) (the old non-inverted test-time scaling) instead of x. So train=False returns x scaled by 1-rate (unchanged only when rate == 0), and forward_with_dropout(train=False) is not the plain forward pass.
# SHOULD-SAY: With train=False your dropout returns x * (1 - rate), not x. That test-time scaling belongs to the old non-inverted dropout; inverted dropout already divides the survivors by 1 - rate during training, so evaluation must return x unchanged. Make the eval branch the identity (and since train is a Python bool, a plain `if not train: return x` is simpler than lax.cond).
"""Exercise 1: inverted dropout with a lax.cond train/eval switch."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if rate == 0.0:
        return x
    keep = 1.0 - rate

    def train_branch(operand):
        k, v = operand
        mask = jax.random.bernoulli(k, keep, v.shape)
        return jnp.where(mask, v / keep, 0.0).astype(v.dtype)

    def eval_branch(operand):
        _, v = operand
        return (v * keep).astype(v.dtype)

    return jax.lax.cond(train, train_branch, eval_branch, (key, x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
