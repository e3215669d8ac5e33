# BLIND-SET: 34
# EXERCISE: ex5
# WHAT: The step's arguments are named (p, state, xb, yb) to avoid clashing with notebook globals, but the updates are applied to `params`, the notebook's module-level initial params (a constant inside the jitted step), not to `p`. The loss, gradients and state are right, but the returned params are the demo params plus one update, so new params are wrong and training never moves past one step.
# SHOULD-SAY: `optax.apply_updates(params, updates)` adds the update to the global `params` from your notebook, not to the step's argument `p`. Apply it to the incoming params: `optax.apply_updates(p, updates)`.
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


# --- cells pasted from the lesson notebook ------------------------------------
key = jax.random.PRNGKey(0)
key, init_key, x_key, y_key = jax.random.split(key, 4)
params = {}
for i, (n_in, n_out) in enumerate([(784, 256), (256, 128), (128, 10)], start=1):
    init_key, sub = jax.random.split(init_key)
    params[f"layer{i}"] = {
        "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
        "b": jnp.zeros(n_out),
    }
x_batch = jax.random.normal(x_key, (64, 784))
y_batch = jax.random.randint(y_key, (64,), 0, 10)
learning_rate = 1e-3
max_norm = 1.0


# --- exercise -----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(p, state, xb, yb):
        loss, grads = jax.value_and_grad(loss_fn)(p, xb, yb)
        updates, state = optimizer.update(grads, state, p)
        return optax.apply_updates(params, updates), state, loss

    return step
