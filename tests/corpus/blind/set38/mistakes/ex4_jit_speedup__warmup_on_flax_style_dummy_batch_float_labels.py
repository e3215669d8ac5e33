# BLIND-SET: 38
# EXERCISE: ex4
# WHAT: The warm-up call runs Flax-init style on a dummy batch, jnp.ones(x.shape) and jnp.zeros(y.shape), and its result is discarded. jnp.zeros gives float32 labels, so a jitted step_fn compiles again for the real int32 labels inside the timed loop; jit_s includes that compilation, and in my two runs jit_speedup(20) reported speedups of 0.35 and 0.62 (jit slower than eager).
# SHOULD-SAY: Compilation is not excluded: your warm-up uses a dummy batch whose labels are float32 (jnp.zeros without dtype) while the real labels are int32, so jax.jit compiles a second time during the first timed call. Warm up with the real x and y, or make the dummies match their shapes and dtypes exactly.
"""Exercise 4 (Flax habits: warm up / init on a dummy batch)."""

import time

import jax
import jax.numpy as jnp
import optax


def init_params(key, sizes=(784, 256, 128, 10)):
    """He-initialised weights and zero biases for an MLP of the given widths."""
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


optimizer = optax.adam(1e-3)


def train_step(params, opt_state, x, y):
    """The lesson's training step, not yet jitted."""
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss



def _dummy_batch(x, y):
    """What I pass to model.init in Flax: ones for the inputs, zeros for the labels."""
    return jnp.ones(x.shape), jnp.zeros(y.shape)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps, compilation excluded."""
    dummy_x, dummy_y = _dummy_batch(x, y)
    jax.block_until_ready(step_fn(params, opt_state, dummy_x, dummy_y))  # trace + compile
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
