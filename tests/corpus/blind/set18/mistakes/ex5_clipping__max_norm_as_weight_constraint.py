# BLIND-SET: 18
# EXERCISE: ex5
# WHAT: reading "max_norm" as the max-norm weight constraint of the dropout paper, make_optimizer runs plain Adam and then rescales each weight matrix's columns (incoming weights of a unit) so their L2 norm after the update is at most max_norm; the gradients themselves are never clipped.
# SHOULD-SAY: make_train_step is right (jitted, value_and_grad at the incoming params, uses the given optimizer, returns the pre-update loss and new state), but make_optimizer does not clip gradients: a gradient spike goes straight into Adam's moment estimates, and the extra projection changes the weights themselves (every column of norm > max_norm is shrunk); max_norm is a bound on the global gradient norm: use optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)).
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


def _max_norm_constraint(max_norm):
    """After the step, keep every unit's incoming weight vector within max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        if params is None:
            return updates, state

        def project(p, u):
            new = p + u
            if new.ndim < 2:  # biases are not constrained
                return u
            col_norm = jnp.linalg.norm(new, axis=0, keepdims=True)
            factor = jnp.minimum(1.0, max_norm / jnp.maximum(col_norm, 1e-12))
            return new * factor - p

        return jax.tree.map(project, params, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Adam, with max-norm regularisation of the weights (Srivastava et al.)."""
    return optax.chain(optax.adam(learning_rate), _max_norm_constraint(max_norm))


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(step)
