# BLIND-SET: 22
# EXERCISE: ex5
# WHAT: correct variant: the optimizer is assembled from a small registry of (optax transform name, hyperparameter) pairs via getattr(optax, name) in clip-then-Adam order; the step is a plain function wrapped with jax.jit at return and applies updates with jax.tree.map(operator.add, ...).
# SHOULD-SAY: full marks: the optimizer is numerically clip_by_global_norm(max_norm) followed by adam(learning_rate) for any learning_rate/max_norm; the jitted step uses the given optimizer, takes loss and gradients with value_and_grad at the incoming params, and returns the new params, new state and the pre-update loss.
"""Exercise 5: clip-then-Adam assembled from a small transform registry."""

import operator

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


# Applied in this order: the clip must see the raw gradient, before Adam rescales it.
_PIPELINE = (
    ("clip_by_global_norm", "max_norm"),
    ("adam", "learning_rate"),
)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """optax.chain built from _PIPELINE with the given hyperparameters."""
    hyper = {"learning_rate": learning_rate, "max_norm": max_norm}
    return optax.chain(*(getattr(optax, name)(hyper[arg]) for name, arg in _PIPELINE))


def make_train_step(optimizer):
    """Jitted step(params, opt_state, x, y) -> (new_params, new_opt_state, loss)."""
    objective = jax.value_and_grad(loss_fn)

    def step(params, opt_state, x, y):
        loss, grads = objective(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return jax.tree.map(operator.add, params, updates), new_state, loss

    return jax.jit(step)
