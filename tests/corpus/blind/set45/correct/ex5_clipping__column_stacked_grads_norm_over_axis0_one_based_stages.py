# BLIND-SET: 45
# EXERCISE: ex5
# WHAT: correct. The clip is hand-written MATLAB style: all gradients stacked into one column G = [g1(:); g2(:); ...], the global norm is sqrt(sum(G.^2, 1)) written jnp.sum(G**2, axis=0) (a single value), and each leaf becomes g when the norm is below max_norm, else g / norm * max_norm (optax's own formula); the chain is built from a stage list indexed 1-based (stages[k - 1], k = 1..2), clip then Adam; the step is a plain jax.jit of value_and_grad, update and apply_updates.
# SHOULD-SAY: Nothing to fix: the optimizer equals clip_by_global_norm(max_norm) followed by adam(learning_rate), and the jitted step returns the new params, new state and the loss at the incoming params.
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
    """G = [g1(:); g2(:); ...]; n = norm(G); if n > max_norm, g = g / n * max_norm."""

    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        leaves, treedef = jax.tree.flatten(updates)
        G = jnp.vstack([jnp.reshape(g, (-1, 1)) for g in leaves])  # (P, 1)
        gnorm = jnp.sqrt(jnp.sum(G ** 2, axis=0))[0]               # sum(G.^2, 1): one number
        below = gnorm < max_norm
        out = [jnp.where(below, g, (g / gnorm) * max_norm) for g in leaves]
        return jax.tree.unflatten(treedef, out), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip first (stage 1), then Adam (stage 2)."""
    stages = [_clip_global_norm(max_norm), optax.adam(learning_rate)]
    return optax.chain(*[stages[k - 1] for k in range(1, len(stages) + 1)])


def make_train_step(optimizer):
    """A jitted step(params, opt_state, x, y) -> (params, opt_state, loss)."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), new_state, loss

    return step
