# BLIND-SET: 45
# EXERCISE: ex5
# WHAT: the hand-written clip stacks every gradient into one column G of shape (P, 1) and takes "the" norm as sqrt(sum(G.^2, 1)) written jnp.sum(G**2, axis=1), which sums along the length-1 axis and gives |g_i| for every element; each element is then scaled by min(1, max_norm/|g_i|), so this is an elementwise clip at ±max_norm instead of a global-norm clip. Updates differ whenever the global norm exceeds max_norm (e.g. on a spike) or any single element exceeds it.
# SHOULD-SAY: Your clipping is elementwise, not by the global norm: on the (P, 1) column, axis=1 is the length-1 axis, so the "norm" is the absolute value of each element and each element is capped at max_norm separately. Sum over axis 0 (MATLAB dim 1 is NumPy axis 0) to get one scalar norm, or just use optax.clip_by_global_norm(max_norm) before optax.adam.
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
    """Clip by the global norm, written like my MATLAB code: G = [g1(:); g2(:); ...]."""

    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        leaves, treedef = jax.tree.flatten(updates)
        G = jnp.vstack([g.reshape(-1, 1) for g in leaves])   # one long column, (P, 1)
        gnorm = jnp.sqrt(jnp.sum(G ** 2, axis=1))             # sqrt(sum(G.^2, 1))
        scale = jnp.minimum(1.0, max_norm / gnorm)
        Gc = G * scale[:, None]
        out, start = [], 0
        for g in leaves:
            out.append(Gc[start:start + g.size].reshape(g.shape))
            start = start + g.size
        return jax.tree.unflatten(treedef, out), state

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
