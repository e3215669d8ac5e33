# BLIND-SET: 58
# EXERCISE: ex4
# WHAT: time_steps blocks on the warm-up call but throws its results away ("so the timed run starts from the given state however many warm-ups there are"). The first timed call therefore gets the original params/opt_state again: a counting step_fn (params +1, state +10 per call) with n_steps=5 receives p = 0, 0, 1, 2, 3, 4 instead of 0, 1, 2, 3, 4, 5, and the final block sees (5, 50) instead of (6, 60). The timed calls are threaded among themselves, the call count (1 + n_steps), the warm-up block, the final block and perf_counter are right, and the times are indistinguishable from the reference's (sleepy 20 x 0.02 s: 0.417 vs 0.422; jit_speedup(100) speedup 9.1 to 11.9 vs 12.2 to 13.7 in the same run, with speedup == eager_s / jit_s). Only the state passed into the first timed call shows the mistake.
# SHOULD-SAY: Each timed call must be fed the params and opt_state returned by the previous call, including the warm-up: yours discards the warm-up's results, so the first timed step starts again from the initial state (a counting step sees 0, 0, 1, 2, ... instead of 0, 1, 2, ...). Keep the warm-up's outputs: params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y)).
"""Exercise 4: how much does jax.jit buy? (a general timing harness)

``time_steps`` takes a number of warm-up calls, an optional clock and extra
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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100, *, warmup=1, clock=None, **step_kwargs):
    """Wall-clock seconds for ``n_steps`` threaded calls of ``step_fn``.

    ``warmup`` untimed calls (default 1, so compilation is not timed) come
    first; their results are thrown away, so the timed run starts from the
    given params and state however many warm-ups there are. Each timed call is
    fed what the previous one returned, and the clock stops only once the
    last results are ready. ``clock`` defaults to ``time.perf_counter``; extra
    keyword arguments are passed to ``step_fn``.
    """
    if clock is None:
        clock = time.perf_counter
    if warmup < 1:
        raise ValueError("at least one warm-up call is needed to keep compilation out of the timing")
    for _ in range(warmup):
        jax.block_until_ready(step_fn(params, opt_state, x, y, **step_kwargs))
    loss = None
    start = clock()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y, **step_kwargs)
    jax.block_until_ready((params, opt_state, loss))
    return float(clock() - start)


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
