# BLIND-SET: 53
# EXERCISE: ex4
# WHAT: The `Timer.__exit__` reads time.perf_counter first and calls jax.block_until_ready on the registered result afterwards, so the clock stops before the last dispatched steps have finished: the reported time leaves out the outstanding asynchronous work (the wait happens, but outside the timed interval). Warm-up, call count and threading are right.
# SHOULD-SAY: time_steps stops the clock before waiting for the results: in `__exit__` the elapsed time is computed before `jax.block_until_ready`. Block on the result first, then read the clock.
"""Exercise 4: how much does jax.jit buy? (timing with small classes)"""
import time

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model, loss, optimizer and training step -----------


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

# --- Your code ----------------------------------------------------------------


class Timer:
    """with Timer() as t: ...; t.result = out  -> t.elapsed"""

    def __init__(self):
        self.result = None
        self.start = None
        self.elapsed = None

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc_info):
        self.elapsed = time.perf_counter() - self.start
        if self.result is not None:
            jax.block_until_ready(self.result)
        return False


class StepRunner:
    def __init__(self, step_fn):
        self.step_fn = step_fn

    def __call__(self, params, opt_state, x, y):
        return self.step_fn(params, opt_state, x, y)

    def warm_up(self, params, opt_state, x, y):
        return jax.block_until_ready(self(params, opt_state, x, y))


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    runner = StepRunner(step_fn)
    params, opt_state, loss = runner.warm_up(params, opt_state, x, y)
    with Timer() as timer:
        for _ in range(n_steps):
            params, opt_state, loss = runner(params, opt_state, x, y)
        timer.result = (params, opt_state, loss)
    return timer.elapsed


class Benchmark:
    def __init__(self, seed=0, batch=128):
        kp, kx, ky = jax.random.split(jax.random.PRNGKey(seed), 3)
        self.params = init_params(kp)
        self.x = jax.random.normal(kx, (batch, 784))
        self.y = jax.random.randint(ky, (batch,), 0, 10)

    def time(self, fn, n_steps):
        return time_steps(fn, self.params, optimizer.init(self.params), self.x, self.y, n_steps)


def jit_speedup(n_steps=100):
    bench = Benchmark()
    eager_s = bench.time(train_step, n_steps)
    jit_s = bench.time(jax.jit(train_step), n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
