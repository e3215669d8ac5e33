# BLIND-SET: 43
# EXERCISE: ex5
# WHAT: make_optimizer is right, but the step applies the updates in bfloat16: new params are (bf16(p) + bf16(u)) cast back to float32 instead of p + u. Every parameter is rounded to 8 significant bits on each step (errors up to ~4e-3 of its magnitude, far larger than Adam's ~1e-3 steps), so the new params differ from the float32 update; loss and optimizer state are right.
# SHOULD-SAY: the new params are wrong: the update is added in bfloat16, which throws away the float32 master copy (an update of 1e-3 on a weight of 0.5 is below bfloat16's resolution). Apply the updates in float32, e.g. optax.apply_updates(params, updates).
"""Exercise 5: gradient clipping in an optax chain, mixed-precision step.

Forward and backward run in float32 here; the parameter update is done in the
compute dtype so the update and the params share one format.
"""

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


COMPUTE_DTYPE = jnp.bfloat16


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def _apply_in_compute_dtype(params, updates):
    """params + updates, added in COMPUTE_DTYPE, stored back in the params' dtype."""
    return jax.tree.map(
        lambda p, u: (p.astype(COMPUTE_DTYPE) + u.astype(COMPUTE_DTYPE)).astype(p.dtype),
        params,
        updates,
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return _apply_in_compute_dtype(params, updates), opt_state, loss

    return step
