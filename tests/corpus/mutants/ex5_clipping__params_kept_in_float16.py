"""The step keeps a float16 copy of the params to save memory: the new params are optax.apply_updates(...) cast
to float16 and back, so each is rounded to 11 significant bits, more than Adam's step of 1e-3 moves a weight.
"""

EXPECT = {"check": "ex5.step_values", "mistake": "ex5.params_rounded", "hint": "in float32", "max_failing": 1}

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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        new = optax.apply_updates(params, updates)
        new = jax.tree.map(lambda p: p.astype(jnp.float16).astype(jnp.float32), new)  # a half-size copy
        return new, opt_state, loss

    return step
