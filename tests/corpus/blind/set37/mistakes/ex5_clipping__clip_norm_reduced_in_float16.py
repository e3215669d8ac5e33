# BLIND-SET: 37
# EXERCISE: ex5
# WHAT: make_optimizer replaces optax.clip_by_global_norm with a hand-fused clip whose sum of squares is taken in float16 "to halve memory traffic"; on a gradient spike the float16 sum overflows to inf, the scale max_norm / inf is 0 and the spike step's gradient is zeroed instead of clipped to max_norm (and tiny gradients underflow), so the updates differ from clip-then-Adam from the spike onwards.
# SHOULD-SAY: The global norm is computed in float16, which overflows (max about 65504) for large gradients and underflows for small ones, so clipping zeroes the spike instead of rescaling it. Compute the norm in float32, or simply use optax.clip_by_global_norm(max_norm) chained before optax.adam(learning_rate).
"""Exercise 5 (reference): gradient clipping chained before Adam."""

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


def _fast_clip_by_global_norm(max_norm):
    """clip_by_global_norm with the reduction done in half precision (less memory traffic)."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        sumsq = sum(jnp.sum(jnp.square(g.astype(jnp.float16))) for g in jax.tree.leaves(updates))
        g_norm = jnp.sqrt(sumsq).astype(jnp.float32)
        trigger = g_norm < max_norm
        updates = jax.tree.map(lambda g: jnp.where(trigger, g, g * (max_norm / g_norm)).astype(g.dtype), updates)
        return updates, state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_fast_clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
