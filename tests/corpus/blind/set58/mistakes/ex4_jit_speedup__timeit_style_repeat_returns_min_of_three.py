# BLIND-SET: 58
# EXERCISE: ex4
# WHAT: time_steps copies timeit: after the (correct, blocking, threaded) warm-up, it repeats the timed block repeat=3 times by default, continuing from the state reached, blocking and reading the clock around each repeat. It returns the fastest repeat. step_fn is called 3*n_steps + 1 times instead of n_steps + 1: a counting step_fn with n_steps=5 is called with params 0, 1, ..., 15, with blocks after calls 1, 6, 11 and 16 and six perf_counter reads. The state is threaded throughout. The reported seconds are the minimum of three n_steps runs, close to a single run's value (sleepy 20 x 0.02 s step: 0.418 vs 0.419; real jitted step, 100 calls: 0.23 to 0.26 vs 0.26 to 0.28), but the call count is three times the contract's and the total time spent is tripled. jit_speedup returns the right keys with speedup == eager_s / jit_s (10.7 to 11.5 vs 12.5 to 13.8 for the reference in the same run), and train_step is unchanged.
# SHOULD-SAY: time_steps must make exactly n_steps timed calls after the warm-up, but yours repeats the timed loop 3 times (repeat=3 by default) and returns the fastest, so step_fn runs 3*n_steps + 1 times and the time is a min over repeats, not the time of one n_steps run. Time a single loop of n_steps threaded calls (drop the repeat, or default it to 1).
"""Exercise 4: how much does jax.jit buy? (a general timing harness)

``time_steps`` takes a number of warm-up calls and of repeats, an optional clock and extra
keyword arguments for the step; ``jit_speedup`` takes the batch size, layer
sizes, seed and step function as keyword options and passes any other option
on to ``time_steps``.
"""

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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100, *, warmup=1, repeat=3, clock=None, **step_kwargs):
    """Wall-clock seconds for ``n_steps`` threaded calls of ``step_fn``.

    ``warmup`` untimed calls (default 1, so compilation is not timed) come
    first and feed their params/state into the timed calls; each timed call is
    fed what the previous one returned, and the clock stops only once the
    last results are ready. As ``timeit`` does, the measurement is repeated
    ``repeat`` times (continuing from the state reached) and the fastest run is
    returned, which filters out noise from other processes. ``clock`` defaults
    to ``time.perf_counter``; extra keyword arguments are passed to ``step_fn``.
    """
    if clock is None:
        clock = time.perf_counter
    if warmup < 1:
        raise ValueError("at least one warm-up call is needed to keep compilation out of the timing")
    for _ in range(warmup):
        params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y, **step_kwargs))
    runs = []
    for _ in range(max(1, repeat)):
        start = clock()
        for _ in range(n_steps):
            params, opt_state, loss = step_fn(params, opt_state, x, y, **step_kwargs)
        jax.block_until_ready((params, opt_state, loss))
        runs.append(clock() - start)
    return float(min(runs))


def jit_speedup(n_steps=100, *, batch_size=128, sizes=(784, 256, 128, 10), seed=0, step_fn=None, **time_kwargs):
    """Time a training step eagerly and under ``jax.jit``.

    Defaults: the lesson's ``train_step`` on one random batch of 128 examples
    and ``init_params`` weights, each run from a fresh ``optimizer.init``.

    Returns:
      ``{"eager_s": float, "jit_s": float, "speedup": eager_s / jit_s}``.
    """
    step_fn = train_step if step_fn is None else step_fn
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(seed), 3)
    params = init_params(key_params, sizes)
    x = jax.random.normal(key_x, (batch_size, sizes[0]))
    y = jax.random.randint(key_y, (batch_size,), 0, sizes[-1])
    seconds = {}
    for mode, fn in (("eager", step_fn), ("jit", jax.jit(step_fn))):
        seconds[mode] = time_steps(fn, params, optimizer.init(params), x, y, n_steps, **time_kwargs)
    return {"eager_s": seconds["eager"], "jit_s": seconds["jit"], "speedup": seconds["eager"] / seconds["jit"]}
