# BLIND-SET: 34
# EXERCISE: ex5
# WHAT: Correct rewrite in the notebook style: module-level params, demo batch, learning_rate, max_norm, optimizer and opt_state stay from the notebook, but make_optimizer uses its own arguments (by keyword) and the step's arguments are renamed (p, state, xb, yb) and used consistently; the jitted step is built with jax.jit(...) and applies updates with jax.tree.map.
# SHOULD-SAY: Nothing to fix: updates, new params, new state and the pre-update loss match, and the step is jitted; the notebook leftovers are unused by the functions.
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
learning_rate = 3e-4
max_norm = 0.5


# --- exercise -----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam."""
    clip = optax.clip_by_global_norm(max_norm=max_norm)
    adam = optax.adam(learning_rate=learning_rate)
    return optax.chain(clip, adam)


def make_train_step(optimizer):
    """A jitted training step for `optimizer`."""

    def step(p, state, xb, yb):
        loss, grads = jax.value_and_grad(loss_fn)(p, xb, yb)
        updates, state = optimizer.update(grads, state, p)
        new_p = jax.tree.map(lambda a, u: a + u, p, updates)
        return new_p, state, loss

    return jax.jit(step)


# notebook: one step on the demo batch
optimizer = make_optimizer(learning_rate, max_norm)
opt_state = optimizer.init(params)
train_step = make_train_step(optimizer)
params, opt_state, loss = train_step(params, opt_state, x_batch, y_batch)
