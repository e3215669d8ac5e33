# BLIND-SET: 15
# EXERCISE: ex5
# WHAT: make_optimizer chains optax.clip_by_global_norm with a hand-written Adam whose step counter starts at 1 in init and is incremented again before use, so the bias correction uses t = 2, 3, ... where Adam uses t = 1, 2, ...
# SHOULD-SAY: Clipping before Adam, the moment updates and make_train_step are right, but the hand-written Adam's bias correction is off by one step: the counter is initialised to 1 and then incremented before computing 1 - b1**t and 1 - b2**t, so the first update is only about 0.74x Adam's (sqrt(1 + b2) / (1 + b1)) and every later update differs as well. Initialise the count to 0 (increment, then correct), or use optax.adam(learning_rate).
"""Exercise 5: gradient clipping chained before Adam."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _adam(learning_rate, b1=0.9, b2=0.999, eps=1e-8):
    """Adam written out by hand; steps are counted from 1 as in the paper."""

    def init_fn(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return optax.ScaleByAdamState(count=jnp.ones([], jnp.int32), mu=zeros, nu=zeros)

    def update_fn(updates, state, params=None):
        del params
        t = state.count + 1
        mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, updates)
        nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g**2, state.nu, updates)
        mu_hat = jax.tree.map(lambda m: m / (1 - b1**t), mu)
        nu_hat = jax.tree.map(lambda v: v / (1 - b2**t), nu)
        new_updates = jax.tree.map(lambda m, v: -learning_rate * m / (jnp.sqrt(v) + eps), mu_hat, nu_hat)
        return new_updates, optax.ScaleByAdamState(count=t, mu=mu, nu=nu)

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), _adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
