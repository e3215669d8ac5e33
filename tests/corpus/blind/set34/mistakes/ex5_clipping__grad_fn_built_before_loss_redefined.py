# BLIND-SET: 34
# EXERCISE: ex5
# WHAT: A notebook cell built `grad_fn = jax.value_and_grad(loss_fn)` at import while `loss_fn` was still the first draft that sums the cross-entropy over the batch; the lesson's mean loss is defined below it, but the step calls the stale `grad_fn`. The returned loss is B times too large and so are the gradients: whenever the mean gradient's norm is below max_norm the summed one is still clipped, so the new params and Adam state differ (when both would be clipped to max_norm the update happens to match).
# SHOULD-SAY: `grad_fn` captured the first (summed) `loss_fn`; redefining `loss_fn` later does not change it, so the step still differentiates the batch sum, not the mean. Call `jax.value_and_grad(loss_fn)` inside the step (or build grad_fn after the final loss_fn) and delete the draft.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- first draft of the loss (notebook) ---------------------------------------
def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10))


grad_fn = jax.value_and_grad(loss_fn)


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
        loss, grads = grad_fn(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
