# BLIND-SET: 56
# EXERCISE: ex5
# WHAT: make_optimizer clips with optax.clip_by_global_norm(clip), where `clip` is the loop variable left over from the module-level sweep cell `for clip in (0.5, 1.0, 5.0)`, i.e. always 5.0, instead of max_norm. Updates equal the reference's only when max_norm is 5.0 or no gradient norm exceeds min(max_norm, 5.0); on a norm spike with the default max_norm=1.0 they differ.
# SHOULD-SAY: The clipping threshold ignores max_norm: make_optimizer passes `clip`, the leftover loop variable from your sweep cell (last value 5.0), to clip_by_global_norm. Use optax.clip_by_global_norm(max_norm).
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


# --- cell: try a few clipping thresholds --------------------------------------------------------
grads = jax.grad(loss_fn)(params, x_batch, y_batch)
print("grad norm:", float(optax.global_norm(grads)))
for clip in (0.5, 1.0, 5.0):
    tx = optax.chain(optax.clip_by_global_norm(clip), optax.adam(1e-3))
    upd, _ = tx.update(grads, tx.init(params), params)
    print(clip, float(optax.global_norm(upd)))


# --- cell: the exercise ---------------------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.chain(optax.clip_by_global_norm(clip), optax.adam(learning_rate))


def make_train_step(optimizer):
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    return jax.jit(step)
