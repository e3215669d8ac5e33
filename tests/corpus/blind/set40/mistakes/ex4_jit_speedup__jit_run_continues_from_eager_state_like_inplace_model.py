# BLIND-SET: 40
# EXERCISE: ex4
# WHAT: Treating the model and optimizer like torch objects that keep their state, time_steps stores its final params and opt_state in a module-level dict and jit_speedup starts the jitted run from them, instead of from the initial params and a fresh optimizer.init(params). The jit timing is of a run that continues the eager one (Adam count already n_steps + 1, trained weights), so jax.jit(train_step) is not timed from the fresh state the exercise asks for; time_steps itself is correct.
# SHOULD-SAY: jit_speedup times the jitted step from the eager run's final params and optimizer state. Time both runs from the same initial params, each with its own fresh optimizer.init(params): JAX state does not persist inside a model object, and nothing should carry over between the two measurements.
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


# the "model": like a torch nn.Module, it keeps its trained weights (and the
# optimizer keeps its state) after a training run
_model = {}


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
    _model["params"], _model["opt_state"] = params, opt_state
    return end - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    seed = 0  # torch.manual_seed(0)
    key = jax.random.PRNGKey(seed)
    key, k_params, k_x, k_y = jax.random.split(key, 4)
    params = init_params(k_params)
    x = jax.random.normal(k_x, (128, 784))  # torch.randn(128, 784)
    y = jax.random.randint(k_y, (128,), 0, 10)  # torch.randint(0, 10, (128,))

    opt_state = optimizer.init(params)  # optimizer = torch.optim.Adam(model.parameters())
    eager_s = time_steps(train_step, params, opt_state, x, y, n_steps)
    compiled_step = jax.jit(train_step)  # model = torch.compile(model): same model, same optimizer
    jit_s = time_steps(compiled_step, _model["params"], _model["opt_state"], x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
