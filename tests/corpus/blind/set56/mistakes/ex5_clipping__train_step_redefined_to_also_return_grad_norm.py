# BLIND-SET: 56
# EXERCISE: ex5
# WHAT: make_train_step is defined twice; the later definition (from the "what did clipping change?" cell) returns a step that also returns the pre-clipping gradient norm, i.e. a 4-tuple (params, opt_state, loss, grad_norm) instead of (params, opt_state, loss). New params, state and loss are right, but the step's output has the wrong structure, so `params, opt_state, loss = step(...)` raises.
# SHOULD-SAY: make_train_step's step must return exactly (new_params, new_opt_state, loss); the version that wins is your second definition, which also returns the gradient norm as a fourth value. Keep the logging step under another name (or log the norm outside) and return the three values the contract asks for.
"""Exercise 5: gradient clipping in an optax chain (pasted from my Colab notebook)."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- cell: notebook data ----------------------------------------------------------------------


def init_params(key, sizes=(784, 256, 128, 10)):
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


params = init_params(jax.random.PRNGKey(0))
x_batch = jax.random.normal(jax.random.PRNGKey(1), (128, 784))
y_batch = jax.random.randint(jax.random.PRNGKey(2), (128,), 0, 10)


# --- cell: the exercise ---------------------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.adam(learning_rate),
    )


def make_train_step(optimizer):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step


# --- cell: what did clipping change? log the raw gradient norm each step ------------------------


def make_train_step(optimizer):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        gnorm = optax.global_norm(grads)  # before clipping
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss, gnorm

    return step


opt = make_optimizer()
state = opt.init(params)
step = make_train_step(opt)
norms = []
for i in range(3):
    params, state, loss, gn = step(params, state, x_batch, y_batch)
    norms.append(float(gn))
print("raw grad norms:", norms)
