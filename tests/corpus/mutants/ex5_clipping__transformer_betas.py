"""make_optimizer gives Adam the betas of the Transformer paper's recipe, (0.9, 0.98), copied from a training
config, where the exercise keeps optax.adam's defaults (b2 = 0.999). The first update is the same (bias correction
cancels the decay); later ones differ. The report measures the decay rates.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.chain", "mistake": "ex5.adam_decay_rates", "hint": "b1 and b2", "max_failing": 1,
          "also": ["ex5.hyperparams"]}

BETAS = (0.9, 0.98)


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
    b1, b2 = BETAS
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate, b1=b1, b2=b2))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
