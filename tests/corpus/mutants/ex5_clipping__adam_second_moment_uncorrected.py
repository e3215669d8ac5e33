"""make_optimizer chains the clip with a hand-written Adam that divides the first moment by 1 - b1**t and leaves
the second moment as it is (no 1 - b2**t), so every update is too large by 1 / sqrt(1 - b2**t), about 31.6 at the
first step. The report measures which correction is missing.
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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    b1, b2, eps = 0.9, 0.999, 1e-8

    def init(params):
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return (jnp.zeros([], jnp.float32), zeros, zeros)

    def update(grads, state, params=None):
        t, m, v = state
        t = t + 1
        m = jax.tree_util.tree_map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
        v = jax.tree_util.tree_map(lambda a, g: b2 * a + (1 - b2) * g ** 2, v, grads)
        m_hat = jax.tree_util.tree_map(lambda a: a / (1 - b1 ** t), m)
        updates = jax.tree_util.tree_map(lambda a, b: -learning_rate * a / (jnp.sqrt(b) + eps), m_hat, v)
        return updates, (t, m, v)

    return optax.chain(optax.clip_by_global_norm(max_norm), optax.GradientTransformation(init, update))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
