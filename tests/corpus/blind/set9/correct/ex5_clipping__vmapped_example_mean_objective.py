# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: The step's objective is the mean of jax.vmap'ed single-example losses (numerically the lesson's mean cross-entropy, equal up to float rounding); jax.value_and_grad of that objective feeds the given clip+Adam optimizer.
# SHOULD-SAY: full marks
"""Exercise 5: clipping then Adam; batch loss as a mean of vmapped example losses."""

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
        optax.clip_by_global_norm(max_norm=max_norm),
        optax.adam(learning_rate=learning_rate),
    )


def _batch_objective(params, x, y):
    per_example = jax.vmap(lambda xi, yi: loss_fn(params, xi[None], yi[None]))(x, y)
    return jnp.mean(per_example)


def make_train_step(optimizer):
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(_batch_objective)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(step)
