# BLIND-SET: 19
# EXERCISE: ex5
# WHAT: hand-written Adam after the clip bias-corrects the second moment with (1 - b1**t) instead of (1 - b2**t) (copy-paste slip)
# SHOULD-SAY: Clip-then-Adam order, the moment updates and the train step are right, but the second-moment bias correction uses b1: nu_hat must be nu / (1 - b2**t), otherwise nu_hat is underestimated and the early steps are much too large (about 10x on the first step); fix the correction (or use optax.adam).
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------

B1, B2, EPS = 0.9, 0.999, 1e-8


def _my_scale_by_adam():
    def init_fn(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return optax.ScaleByAdamState(count=jnp.zeros([], jnp.int32), mu=zeros, nu=zeros)

    def update_fn(updates, state, params=None):
        del params
        mu = jax.tree.map(lambda m, g: B1 * m + (1 - B1) * g, state.mu, updates)
        nu = jax.tree.map(lambda v, g: B2 * v + (1 - B2) * g * g, state.nu, updates)
        count = state.count + 1
        t = count.astype(jnp.float32)
        mu_hat = jax.tree.map(lambda m: m / (1 - B1 ** t), mu)
        nu_hat = jax.tree.map(lambda v: v / (1 - B1 ** t), nu)
        out = jax.tree.map(lambda m, v: m / (jnp.sqrt(v) + EPS), mu_hat, nu_hat)
        return out, optax.ScaleByAdamState(count=count, mu=mu, nu=nu)

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    adam = optax.chain(_my_scale_by_adam(), optax.scale_by_learning_rate(learning_rate))
    return optax.chain(optax.clip_by_global_norm(max_norm), adam)


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), new_state, loss

    return jax.jit(step)
