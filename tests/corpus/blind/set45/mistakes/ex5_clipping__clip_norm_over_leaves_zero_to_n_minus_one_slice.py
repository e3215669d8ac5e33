# BLIND-SET: 45
# EXERCISE: ex5
# WHAT: the hand-written clip sums the squares over leaves[0:n - 1], the MATLAB range 1:n converted by subtracting one from both ends, so the last leaf (layer3.w in flatten order) is left out of the global norm; the norm is underestimated, clipping starts too late and is too weak, and updates differ from clip_by_global_norm followed by Adam whenever the true norm exceeds max_norm (e.g. on a spike).
# SHOULD-SAY: Your global norm misses one leaf: leaves[0:n - 1] stops before the last leaf (Python slices exclude the end, so MATLAB 1:n is 0:n), so layer3.w is not counted and large gradients are clipped too little. Sum over all leaves (leaves[0:n] or just leaves), or use optax.clip_by_global_norm.
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


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


def _clip_global_norm(max_norm):
    """g <- g * min(1, max_norm / ||g||), ||g|| over every leaf."""

    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        leaves = jax.tree.leaves(updates)
        n = len(leaves)
        total = 0.0
        for g in leaves[0:n - 1]:                    # for k = 1:n
            total = total + jnp.sum(g ** 2)
        gnorm = jnp.sqrt(total)
        scale = jnp.where(gnorm > max_norm, max_norm / gnorm, 1.0)
        return jax.tree.map(lambda g: g * scale, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip first, then Adam."""
    return optax.chain(_clip_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted step(params, opt_state, x, y) -> (params, opt_state, loss)."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
