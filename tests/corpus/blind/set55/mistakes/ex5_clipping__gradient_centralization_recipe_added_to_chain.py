# BLIND-SET: 55
# EXERCISE: ex5
# WHAT: the optimizer pastes a blog's "stable training" chain optax.chain(optax.centralize(), optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)); optax.centralize subtracts the mean of every weight gradient over its non-leading axes (gradient centralisation), so the weight updates (and the clipping norm) differ from clip-then-Adam on every step; bias updates are unchanged.
# SHOULD-SAY: Your chain adds optax.centralize(), which changes every weight gradient before clipping; the exercise asks for exactly clip_by_global_norm followed by adam. Remove the extra transform.
"""Exercise 5: gradient clipping in an optax chain (recipe from a blog)."""

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
    return optax.chain(
        optax.centralize(),                      # gradient centralisation
        optax.clip_by_global_norm(max_norm),     # then clip
        optax.adam(learning_rate),               # then Adam
    )


def make_train_step(optimizer):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    return step
