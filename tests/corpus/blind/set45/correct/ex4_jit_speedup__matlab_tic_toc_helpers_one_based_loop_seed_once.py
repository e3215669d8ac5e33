# BLIND-SET: 45
# EXERCISE: ex4
# WHAT: correct. MATLAB-style tic/toc helpers on time.perf_counter with a global timer; time_steps makes the warm-up call and waits on it before tic, runs a 1-based loop for k = 1..n_steps threading params and state, waits on the final (params, opt_state, loss) and returns toc as a float; jit_speedup draws its batch from a seed set once (explicit keys, x drawn as 784 x 128 and transposed) and times train_step and jax.jit(train_step) from fresh optimizer states.
# SHOULD-SAY: Nothing to fix: compilation is excluded, the clock waits for the results, step_fn is called n_steps times after the warm-up with state threaded, and speedup = eager_s / jit_s.
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
    params, opt_state, loss = step_fn(params, opt_state, x, y)  # warm-up: compiles
    jax.block_until_ready((params, opt_state, loss))
    tic()
    for k in range(1, n_steps + 1):  # for k = 1:n_steps
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return float(toc())
