# BLIND-SET: 47
# EXERCISE: ex5
# WHAT: make_optimizer stores the learning rate in Q16.16 fixed point with truncation, int(learning_rate * 65536) / 65536, before giving it to Adam. The default 1e-3 becomes 65/65536 = 9.918e-4 (every update 0.82% too small), 1e-2 becomes 9.995e-3, and any rate below 2**-16 = 1.5e-5 becomes 0 (no update at all). Clipping and everything else are right.
# SHOULD-SAY: Adam's updates are slightly too small (0.8% at the default learning rate, all of it below 1.5e-5): the learning rate is quantised to 16 fractional bits and truncated before it reaches optax.adam. Pass the float learning_rate through unchanged: optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)).
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

LR_FRAC_BITS = 16  # hyperparameters as Q16.16: exact, reproducible steps
LR_ONE = 1 << LR_FRAC_BITS


def _to_q16(value):
    return int(value * LR_ONE)


def _from_q16(q):
    return q / LR_ONE


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping to ``max_norm``, then Adam with ``learning_rate``."""
    lr_q = _to_q16(learning_rate)
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.adam(_from_q16(lr_q)),
    )


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
