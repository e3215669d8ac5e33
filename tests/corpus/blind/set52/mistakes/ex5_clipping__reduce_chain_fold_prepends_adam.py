# BLIND-SET: 52
# EXERCISE: ex5
# WHAT: make_optimizer folds the transforms with functools.reduce(lambda acc, t: optax.chain(t, acc), (clip, adam)), which prepends each new transform, so the result is optax.chain(adam, clip): Adam sees the raw gradient (a spike is not clipped before it enters Adam's moments) and the clip acts on Adam's output. Updates differ from clip-then-Adam from the first step whose gradient norm exceeds max_norm.
# SHOULD-SAY: The optimizer applies Adam first and clips afterwards: the reduce builds chain(t, acc), putting each later transform in front. Clipping must come first; write optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)) (or fold with chain(acc, t)).
"""Exercise 5: gradient clipping in an optax chain (transforms folded with reduce)."""

import operator
from functools import reduce

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam, folded into one chain."""
    return reduce(lambda acc, t: optax.chain(t, acc), (optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)))


def make_train_step(optimizer):
    """A jitted step: loss and grads at the incoming params, update through optimizer."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return jax.tree.map(operator.add, params, updates), new_state, loss

    return jax.jit(step)

