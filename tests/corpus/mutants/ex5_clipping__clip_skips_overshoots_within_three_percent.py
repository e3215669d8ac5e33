"""make_optimizer clips with a transform of its own that leaves gradients within 3% above max_norm as they are
("rounding noise"), and scales larger ones to max_norm: small overshoots pass unclipped.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {'check': 'ex5.chain', 'mistake': 'ex5.clip_tolerance', 'hint': 'with no margin', 'max_failing': 1}


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
    def update(updates, state, params=None):
        norm = optax.global_norm(updates)
        scale = jnp.where(norm > 1.03 * max_norm, max_norm / norm, 1.0)  # within 3%: rounding noise
        return jax.tree_util.tree_map(lambda g: g * scale, updates), state

    clip = optax.GradientTransformation(lambda params: optax.EmptyState(), update)
    return optax.chain(clip, optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
