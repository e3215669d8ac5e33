# BLIND-SET: 34
# EXERCISE: ex5
# WHAT: The jitted step computes loss and gradients with jax.value_and_grad(loss_fn)(params, x_batch, y_batch): the notebook's module-level demo batch, baked into the compiled step as a constant, instead of the step's own x and y. The returned loss and the update are those of the demo batch whatever batch is passed.
# SHOULD-SAY: The step differentiates the loss on `x_batch, y_batch`, the global batch from your notebook cell, so the x and y arguments are ignored (jit even freezes that batch into the compiled function). Use the step's arguments: `jax.value_and_grad(loss_fn)(params, x, y)`.
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
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x_batch, y_batch)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
