"""Exercise 4: how much does jax.jit buy?

``jax.jit`` traces a function once, compiles it with XLA, and reuses the
compiled program on later calls with the same shapes. The first call pays for
compilation; JAX also dispatches work asynchronously, so a function returns
before its results are computed. A fair benchmark therefore warms up first and
waits for the results before stopping the clock.

Write two functions:

* ``time_steps(step_fn, params, opt_state, x, y, n_steps=100)``: a timing
  harness for a training step.
* ``jit_speedup(n_steps=100)``: the lesson's ``train_step`` timed eagerly and
  under ``jax.jit``.

What the grader checks (run ``python -m grader --only ex4``):

* compilation is excluded (one warm-up call before the clock starts);
* the clock waits for the results (``jax.block_until_ready``);
* ``step_fn`` is called exactly ``n_steps`` times after the warm-up, with
  params and optimizer state threaded from each call into the next;
* ``jit_speedup`` returns positive ``eager_s`` and ``jit_s`` with
  ``speedup == eager_s / jit_s``, and jit is faster.

Then answer in ``answers.md``: what does compilation cost on the first call?

Allowed imports: jax, jax.numpy, optax, numpy and the standard library.
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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps.

    Args:
      step_fn: ``step_fn(params, opt_state, x, y) -> (params, opt_state, loss)``,
        jitted or not.
      params, opt_state: the starting model and optimizer state.
      x, y: one batch, float32 ``(B, 784)`` and int32 ``(B,)``.
      n_steps: how many timed calls to make.

    Returns:
      A Python float: the seconds taken by ``n_steps`` calls, each fed the
      params and opt_state returned by the previous one. Call ``step_fn`` once
      before starting the clock so compilation is not timed, and wait for the
      results with ``jax.block_until_ready`` before stopping it. Use
      ``time.perf_counter``.
    """
    raise NotImplementedError("time_steps is not implemented yet: see its docstring in ex4_jit_speedup.py")


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``.

    Build params with ``init_params`` and one batch of 128 examples (random
    data is fine; use explicit keys), then time ``train_step`` and
    ``jax.jit(train_step)`` with ``time_steps``, each from a fresh
    ``optimizer.init(params)``.

    Returns:
      ``{"eager_s": float, "jit_s": float, "speedup": eager_s / jit_s}``.
    """
    raise NotImplementedError("jit_speedup is not implemented yet: see its docstring in ex4_jit_speedup.py")
