# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: the training step clips every example's gradient to norm 1.0 before averaging (DP-SGD/Opacus style) and then passes that to the optimizer, which clips again globally.
# SHOULD-SAY: ex5 step check fails: new params and optimizer state differ from one update with the batch-mean gradient whenever some per-example gradient norm exceeds 1; make_optimizer passes; the returned loss is right.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

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
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss = loss_fn(params, x, y)

        def example_grad(xi, yi):
            return jax.grad(loss_fn)(params, xi[None], yi[None])

        per_example = jax.vmap(example_grad)(x, y)
        sq = sum(jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1) for g in jax.tree.leaves(per_example))
        factor = jnp.minimum(1.0, 1.0 / (jnp.sqrt(sq) + 1e-6))  # clip each example to norm 1
        grads = jax.tree.map(
            lambda g: jnp.mean(g * factor.reshape((-1,) + (1,) * (g.ndim - 1)), axis=0), per_example
        )
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
