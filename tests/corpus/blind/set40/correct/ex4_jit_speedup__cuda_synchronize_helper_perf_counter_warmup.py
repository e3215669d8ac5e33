# BLIND-SET: 40
# EXERCISE: ex4
# WHAT: Correct. A torch-benchmark-style harness: a synchronize(*tensors) helper (the torch.cuda.synchronize() habit) that calls jax.block_until_ready on what it is given; one warm-up call whose outputs are synchronized before the clock starts; time.perf_counter around exactly n_steps calls that thread params and opt_state; synchronize on the final (params, opt_state, loss) before the clock stops. jit_speedup seeds a key torch.manual_seed-style, splits it explicitly for params, x and y, and times train_step and jax.jit(train_step) from fresh optimizer.init(params) states.
# SHOULD-SAY: Nothing to fix: compilation is excluded, the clock waits for the results, step_fn is called n_steps times with params and state threaded, and speedup == eager_s / jit_s.
"""Exercise 4: how much does jax.jit buy? (timed the way I'd time a torch model)"""

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


def synchronize(*tensors):
    """torch.cuda.synchronize(), except JAX wants to know what to wait for."""
    return jax.block_until_ready(tensors)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    # warm-up (compilation), then sync so it is not in the measurement
    params, opt_state, loss = step_fn(params, opt_state, x, y)
    synchronize(params, opt_state, loss)

    start = time.perf_counter()
    for step in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)  # optimizer.step()
    synchronize(params, opt_state, loss)
    end = time.perf_counter()
    return end - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    seed = 0  # torch.manual_seed(0)
    key = jax.random.PRNGKey(seed)
    key, k_params, k_x, k_y = jax.random.split(key, 4)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784))  # torch.randn(128, 784)
    y = jax.random.randint(k_y, (128,), 0, 10)  # torch.randint(0, 10, (128,))

    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    compiled_step = jax.jit(train_step)  # torch.compile(train_step)
    jit_s = time_steps(compiled_step, params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
