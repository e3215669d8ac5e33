# BLIND-SET: 47
# EXERCISE: ex5
# WHAT: Correct. A hand-written clip transform packs all gradient leaves (weights and biases) into one flat buffer with jnp.concatenate of the raveled leaves, takes the L2 norm, and scales every leaf by max_norm / norm only when norm > max_norm (EmptyState, like optax's clip); it is chained before optax.adam(learning_rate). make_train_step is a jax.jit of value_and_grad at the incoming params, optimizer.update, apply_updates, returning the pre-update loss.
# SHOULD-SAY: Nothing to fix: updates equal clip_by_global_norm then Adam for every learning_rate and max_norm, including the spike; the step returns the right params, state and loss.
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


def _clip_global_norm_flat(max_norm):
    """Clip by global L2 norm computed over one flat buffer of every leaf."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves, treedef = jax.tree.flatten(updates)
        flat = jnp.concatenate([leaf.reshape(-1) for leaf in leaves])  # leaf i at offset sum(sizes[:i])
        norm = jnp.sqrt(jnp.sum(flat * flat))
        over = norm > max_norm  # clip only above the bound; at or below: untouched
        safe_norm = jnp.where(over, norm, 1.0)  # no 0/0 when the gradient is zero
        scale = jnp.where(over, max_norm / safe_norm, 1.0)
        clipped = [(leaf * scale).astype(leaf.dtype) for leaf in leaves]
        return jax.tree.unflatten(treedef, clipped), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping to ``max_norm``, then Adam with ``learning_rate``."""
    return optax.chain(_clip_global_norm_flat(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted ``step(params, opt_state, x, y) -> (new_params, new_opt_state, loss)``.

    The loss returned is the one at the incoming params (before the update).
    """

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
