"""The clip is written by hand as the unit direction times a capped length, g / norm * min(norm, max_norm): right
for every gradient but one of norm 0, where 0 / 0 makes the updates (and Adam's state) NaN.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.chain", "mistake": "ex5.zero_norm_nan", "hint": "divides 0 by 0", "max_failing": 1}


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
    def init(params):
        return optax.EmptyState()

    def update(grads, state, params=None):
        norm = optax.tree.norm(grads) if hasattr(optax, "tree") else optax.global_norm(grads)
        length = jnp.minimum(norm, max_norm)
        return jax.tree.map(lambda g: g / norm * length, grads), state

    return optax.chain(optax.GradientTransformation(init, update), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
