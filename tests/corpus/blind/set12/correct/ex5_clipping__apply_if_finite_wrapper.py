# BLIND-SET: 12
# EXERCISE: ex5
# WHAT: The clip-then-Adam chain is wrapped in optax.apply_if_finite (which only skips steps whose gradients contain NaN/inf); the step is built with a functools.partial(jax.jit) decorator and returns a tuple assembled from a dict.
# SHOULD-SAY: Everything correct: for finite gradients (including a large norm spike) the updates equal clip_by_global_norm(max_norm) followed by adam(learning_rate); the jitted step computes loss and grads with value_and_grad at the incoming params, updates through the given optimizer and returns (new params, new state, loss before the update).
"""Exercise 5: gradient clipping in an optax chain (guarded by apply_if_finite)."""

import functools

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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip, then Adam; skip any step whose gradients are not finite."""
    inner = optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))
    return optax.apply_if_finite(inner, max_consecutive_errors=1000)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @functools.partial(jax.jit)
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        out = {"params": optax.apply_updates(params, updates), "state": opt_state, "loss": loss}
        return out["params"], out["state"], out["loss"]

    return step
