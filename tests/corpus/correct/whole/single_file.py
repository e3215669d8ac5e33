"""A whole submission in one file: all five exercises, written as one student might.

Shared helpers are defined once and used by several exercises.
"""

import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import optax

# ---------------------------------------------------------------- shared pieces


def dense(layer, h):
    return h @ layer["w"] + layer["b"]


def layer_names(params):
    return sorted(params, key=lambda name: int(name[len("layer"):]))


def cross_entropy(logits, y):
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


# ---------------------------------------------------------------- exercise 1


def dropout(key, x, rate, train=True):
    if train and rate > 0:
        keep = 1 - rate
        mask = jax.random.bernoulli(key, p=keep, shape=x.shape)
        x = jnp.where(mask, x / keep, jnp.zeros((), x.dtype))
    return x


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k_hidden1, k_hidden2 = jax.random.split(key, num=2)
    h = dropout(k_hidden1, jax.nn.relu(dense(params["layer1"], x)), rate, train)
    h = dropout(k_hidden2, jax.nn.relu(dense(params["layer2"], h)), rate, train)
    return dense(params["layer3"], h)


# ---------------------------------------------------------------- exercise 3


def mlp_forward(params, x):
    names = layer_names(params)
    h = x
    for name in names[:-1]:
        h = jax.nn.relu(dense(params[name], h))
    return dense(params[names[-1]], h)


def loss_fn(params, x, y):
    return cross_entropy(mlp_forward(params, x), y)


# ---------------------------------------------------------------- exercise 2


def per_example_grads(params, x, y):
    def loss_of_one(p, xi, yi):
        return loss_fn(p, xi[jnp.newaxis], yi[jnp.newaxis])

    return jax.vmap(jax.grad(loss_of_one), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    squared = jax.tree.map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(jax.tree.reduce(jnp.add, squared))


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(np.argmax(jax.device_get(norms)))


# ---------------------------------------------------------------- exercise 5


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate=learning_rate))


def make_train_step(optimizer):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step


# ---------------------------------------------------------------- exercise 4


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    state = jax.block_until_ready(step_fn(params, opt_state, x, y))
    t0 = time.perf_counter()
    for _ in range(n_steps):
        state = step_fn(state[0], state[1], x, y)
    jax.block_until_ready(state)
    return time.perf_counter() - t0


def _eager_step(optimizer, params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def jit_speedup(n_steps=100):
    rng = np.random.default_rng(0)
    widths = [784, 256, 128, 10]
    params = {
        f"layer{i + 1}": {
            "w": jnp.asarray(rng.normal(0.0, np.sqrt(2.0 / n_in), (n_in, n_out)), jnp.float32),
            "b": jnp.zeros(n_out, jnp.float32),
        }
        for i, (n_in, n_out) in enumerate(zip(widths[:-1], widths[1:]))
    }
    x = jnp.asarray(rng.uniform(size=(128, 784)), jnp.float32)
    y = jnp.asarray(rng.integers(0, 10, 128), jnp.int32)
    optimizer = optax.adam(1e-3)
    eager = partial(_eager_step, optimizer)
    eager_s = time_steps(eager, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(eager), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
