# BLIND-SET: 57
# EXERCISE: ex5
# WHAT: Correct. make_optimizer is the flat optax.chain(clip_by_global_norm(max_norm), scale_by_adam(b1=0.9, b2=0.999, eps=1e-8), scale(-learning_rate)), which is what optax.adam(lr) expands to for a constant lr; its updates are bit-identical to the reference's over a spiked gradient sequence for every (lr, max_norm) tried, and its state has the same leaves (count, mu, nu, all equal) but a flat tree structure (3 chain entries instead of clip + nested adam). make_train_step jits a step that uses the given loss_fn through a module-level jax.value_and_grad, the optimizer it is given (update bound once), and jax.tree.map(jnp.add) for the update; new params, state and loss are bit-identical to the reference's.
# SHOULD-SAY: Nothing to fix: global-norm clipping then Adam (numerically equal to optax.adam), and a jitted step that returns the updated params and state and the loss at the incoming params.
"""Exercise 5: gradient clipping in an optax chain (tuned: jitted step, hoisted transforms)."""

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


# --- My code ------------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then Adam, as one flat chain.

    optax.adam(lr) is chain(scale_by_adam(), scale(-lr)) for a constant lr;
    written flat, the three stages run in one chain without a nested one.
    """
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
        optax.scale(-learning_rate),
    )


# Built once at import instead of on every make_train_step / trace.
_value_and_grad = jax.value_and_grad(loss_fn)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    update = optimizer.update  # bound once, closed over by the compiled step

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = _value_and_grad(params, x, y)
        updates, opt_state = update(grads, opt_state, params)
        return jax.tree.map(jnp.add, params, updates), opt_state, loss

    return step
