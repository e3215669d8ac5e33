# BLIND-SET: 35
# EXERCISE: ex5
# WHAT: correct rewrite: loss_fn is written with lax primitives (stable log-sum-exp with the stop-gradient max added back, one-hot from lax.broadcasted_iota along the class axis, per-example picks by lax.dot_general with the batch axis as a batch dimension); the optimizer is optax.chain(clip_by_global_norm, adam) built from a tuple; the jitted step applies updates with jax.tree_util.tree_map(lax.add, ...).
# SHOULD-SAY: nothing to fix: full marks.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

import jax
import jax.numpy as jnp
import optax
from jax import lax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    m = lax.stop_gradient(lax.reduce(logits, -jnp.inf, lax.max, (1,)))
    lse = m + lax.log(lax.reduce(lax.exp(logits - m[:, None]), 0.0, lax.add, (1,)))
    logp = logits - lse[:, None]
    classes = lax.broadcasted_iota(jnp.int32, logp.shape, 1)
    onehot = lax.convert_element_type(lax.eq(classes, y[:, None].astype(jnp.int32)), logp.dtype)
    picked = lax.dot_general(logp, onehot, (((1,), (1,)), ((0,), (0,))))
    return -jnp.mean(picked)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    stages = (optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))
    return optax.chain(*stages)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree_util.tree_map(lax.add, params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
