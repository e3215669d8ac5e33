# BLIND-SET: 47
# EXERCISE: ex5
# WHAT: The hand-written clip avoids the square root in the test by comparing the squared global norm with max_norm instead of max_norm**2. With the default max_norm = 1 this is right; for max_norm < 1 gradients with norm between max_norm and sqrt(max_norm) are not clipped, and for max_norm > 1 gradients with norm between sqrt(max_norm) and max_norm are "clipped" upward (multiplied by max_norm / norm > 1), so Adam's updates differ from clip_by_global_norm + Adam.
# SHOULD-SAY: Clipping is wrong whenever max_norm is not 1: too-large gradients escape clipping (max_norm < 1) or gradients below the bound are scaled up to max_norm (max_norm > 1). The trigger compares a squared norm with an unsquared bound; compare sum_sq > max_norm**2 (or norm > max_norm), or just use optax.clip_by_global_norm(max_norm).
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
    """Clip by global L2 norm, sqrt-free trigger like a distance test in C."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves, treedef = jax.tree.flatten(updates)
        sum_sq = jnp.zeros((), jnp.float32)
        for leaf in leaves:
            sum_sq = sum_sq + jnp.sum(leaf * leaf)
        trigger = sum_sq > max_norm  # no sqrt needed for the comparison
        inv_norm = jax.lax.rsqrt(jnp.where(trigger, sum_sq, 1.0))
        scale = jnp.where(trigger, max_norm * inv_norm, 1.0)
        return jax.tree.unflatten(treedef, [leaf * scale for leaf in leaves]), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping to ``max_norm``, then Adam with ``learning_rate``."""
    return optax.chain(_clip_global_norm(max_norm), optax.adam(learning_rate))


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
