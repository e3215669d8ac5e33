"""Adam written by hand without its bias correction (m / (1 - b1**t), v / (1 - b2**t)). The first update is
(1 - b1) / sqrt(1 - b2) = 3.16 times Adam's, and every later one's factor is the missing correction's, which the measurement of each step recognises; the jitted
step is built with the grader's optimizers, so only the optimizer's checks see it.
"""

import jax
import jax.numpy as jnp
import optax


EXPECT = {"check": "ex5.chain", "mistake": "ex5.bias_correction_wrong", "hint": "1 - b1**t", "max_failing": 1}


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
    """Adam by hand, from the paper's update rule, but without its bias-correction lines."""

    def init(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return (zeros, zeros)

    def update(grads, state, params=None):
        mu, nu = state
        mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, mu, grads)
        nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, nu, grads)
        return jax.tree.map(lambda m, v: -learning_rate * m / (jnp.sqrt(v) + eps), mu, nu), (mu, nu)

    return optax.GradientTransformation(init, update)


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
