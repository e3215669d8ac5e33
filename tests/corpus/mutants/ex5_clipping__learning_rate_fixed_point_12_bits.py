"""make_optimizer stores the learning rate as a 12-bit fixed-point number, round(learning_rate * 4096) / 4096, so
Adam gets 4 / 4096 = 0.000977 at the default 1e-3 (and 41 / 4096 at 0.01): every update a constant factor short."""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.chain", "mistake": "ex5.learning_rate_scaled", "hint": "Pass learning_rate to optax.adam as it is",
          "max_failing": 1, "also": ["ex5.hyperparams"]}


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
    """Clip the global gradient norm to `max_norm`, then apply Adam at a 12-bit fixed-point learning rate."""
    lr_fixed = round(learning_rate * 4096) / 4096
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(lr_fixed))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
