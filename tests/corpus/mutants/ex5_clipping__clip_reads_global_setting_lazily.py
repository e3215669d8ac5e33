"""make_optimizer stores max_norm in a module-level settings dict, and the clip it builds reads that dict each
time it updates: every optimizer clips at the max_norm of the last one made. Each optimizer is right while it is
the newest. The report makes another optimizer and runs the first one again.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.chain", "mistake": "ex5.optimizers_share_settings", "hint": "keep its own learning_rate and max_norm", "max_failing": 1, "also": ["ex5.hyperparams"]}



def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


_SETTINGS = {"max_norm": 1.0}


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    _SETTINGS["max_norm"] = max_norm

    def update(updates, state, params=None):
        return optax.clip_by_global_norm(_SETTINGS["max_norm"]).update(updates, state, params)

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
