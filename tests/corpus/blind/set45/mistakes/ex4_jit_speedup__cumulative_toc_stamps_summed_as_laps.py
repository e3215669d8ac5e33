# BLIND-SET: 45
# EXERCISE: ex4
# WHAT: time_steps calls tic once before the loop and stores t(k) = toc after each (blocked) step, then returns sum(t) as if the stamps were lap times; toc is cumulative since the tic, so the result is about (n_steps + 1) / 2 times the real elapsed time (about 50x for n_steps = 100), and eager_s and jit_s are both inflated.
# SHOULD-SAY: time_steps returns far more seconds than the loop took: toc measures the time since tic, so your t(k) are running totals, not laps, and adding them up counts the early steps many times. Return the last stamp (t[-1], the total) or the difference of consecutive stamps summed, not the sum of the running totals.
"""Exercise 4: how much does jax.jit buy? (tic/toc style)"""

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

SEED = 0  # rng(0), set once for the whole script

_TIC = [0.0]


def tic():
    """MATLAB's tic."""
    _TIC[0] = time.perf_counter()


def toc():
    """MATLAB's toc: seconds since the last tic."""
    return time.perf_counter() - _TIC[0]


def make_batch():
    """One batch of 128 random examples, drawn as columns (784 x 128) and transposed."""
    k_par, k_x, k_y = jax.random.split(jax.random.PRNGKey(SEED), 3)
    X = jax.random.normal(k_x, (784, 128))            # randn(784, 128)
    y = jax.random.randint(k_y, (128,), 0, 10)        # randi(10, 128, 1) - 1
    return init_params(k_par), X.T, y


def jit_speedup(n_steps=100):
    """Time train_step eagerly and under jax.jit; eager_s / jit_s."""
    params, x, y = make_batch()
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}



def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for n_steps calls of step_fn, after one warm-up call."""
    params, opt_state, loss = step_fn(params, opt_state, x, y)  # warm-up (compiles)
    jax.block_until_ready((params, opt_state, loss))
    t = [0.0] * n_steps                 # t = zeros(1, n_steps)
    tic()
    for k in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
        jax.block_until_ready(loss)
        t[k] = toc()                    # t(k) = toc;
    jax.block_until_ready((params, opt_state, loss))
    return float(sum(t))                # sum(t)
