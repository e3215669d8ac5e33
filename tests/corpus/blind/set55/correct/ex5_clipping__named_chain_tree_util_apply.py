# BLIND-SET: 55
# EXERCISE: ex5
# WHAT: correct: optax.named_chain(("clip", clip_by_global_norm(max_norm)), ("adam", adam(learning_rate))) (same updates as optax.chain, with a dict state); the jitted step adds the updates with jax.tree_util.tree_map(jnp.add, ...) instead of optax.apply_updates and returns the loss at the incoming params.
# SHOULD-SAY: Nothing to fix: every ex5 check should pass (the optimizer state is a dict keyed by stage name, but the updates are identical to chain(clip, adam)).
"""Exercise 5: clipping then Adam, as a named chain."""

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
    return optax.named_chain(
        ("clip", optax.clip_by_global_norm(max_norm)),
        ("adam", optax.adam(learning_rate=learning_rate)),
    )


def make_train_step(optimizer):
    grad_fn = jax.value_and_grad(loss_fn)

    def step(params, opt_state, x, y):
        loss, grads = grad_fn(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree_util.tree_map(jnp.add, params, updates)  # p + u (updates already signed)
        return new_params, new_state, loss

    return jax.jit(step)
