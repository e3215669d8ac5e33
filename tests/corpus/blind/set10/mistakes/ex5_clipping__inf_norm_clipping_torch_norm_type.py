# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: make_optimizer replaces clip_by_global_norm with a handwritten transform porting torch clip_grad_norm_(..., norm_type=inf): it rescales by max_norm / max|g| (the global max-abs entry) instead of the global L2 norm.
# SHOULD-SAY: ex5 optimizer check fails on the norm spike: the clipping factor uses the infinity norm, so gradients are clipped too little (or not at all) compared with global L2 clipping before Adam; the step is right.
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


def _clip_grad_norm(max_norm):
    """Port of torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type=float('inf'))."""

    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        total_norm = jnp.max(jnp.stack([jnp.max(jnp.abs(u)) for u in jax.tree.leaves(updates)]))
        clip_coef = jnp.minimum(1.0, max_norm / (total_norm + 1e-6))
        return jax.tree.map(lambda u: u * clip_coef, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_grad_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
