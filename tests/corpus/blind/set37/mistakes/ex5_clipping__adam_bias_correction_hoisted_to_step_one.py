# BLIND-SET: 37
# EXERCISE: ex5
# WHAT: Adam is replaced by a hand-fused scale_by_adam whose bias corrections are hoisted out of the update as the constants 1 - b1 and 1 - b2 (their values at step 1) instead of 1 - b1**t and 1 - b2**t; the first update matches clip-then-Adam, every later one is mis-scaled by a factor that drifts with t (about 1.3x at step 2, about 2x around steps 10-20, falling towards 0.32x for large t).
# SHOULD-SAY: Adam's bias corrections depend on the step count t (1 - b1**t, 1 - b2**t, with t kept in the optimizer state); precomputing them once freezes them at t = 1, so updates from the second step on are wrong. Compute them from the state's count in every update, or use optax.adam(learning_rate) after optax.clip_by_global_norm(max_norm).
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


def _fused_scale_by_adam(b1=0.9, b2=0.999, eps=1e-8):
    """scale_by_adam in one tree_map per moment, with the constants hoisted out."""
    # Bias corrections precomputed once instead of recomputing powers every step.
    bias_correction1 = 1.0 - b1
    bias_correction2 = 1.0 - b2

    def init_fn(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return optax.ScaleByAdamState(count=jnp.zeros([], jnp.int32), mu=zeros, nu=zeros)

    def update_fn(updates, state, params=None):
        del params
        mu = jax.tree.map(lambda m, g: b1 * m + (1.0 - b1) * g, state.mu, updates)
        nu = jax.tree.map(lambda v, g: b2 * v + (1.0 - b2) * g * g, state.nu, updates)
        updates = jax.tree.map(
            lambda m, v: (m / bias_correction1) / (jnp.sqrt(v / bias_correction2) + eps), mu, nu
        )
        return updates, optax.ScaleByAdamState(count=state.count + 1, mu=mu, nu=nu)

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    adam = optax.chain(_fused_scale_by_adam(), optax.scale_by_learning_rate(learning_rate))
    return optax.chain(optax.clip_by_global_norm(max_norm), adam)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
