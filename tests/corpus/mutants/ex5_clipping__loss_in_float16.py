"""The step's loss is computed in float16 to save memory (logits and log-softmax cast down) and cast back to float32
for the return: the loss at the incoming params is off by about float16's rounding, and so are the gradient and
the updates. The report measures the loss's error, and that the loss returned is itself a float16 value.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.step_values", "mistake": "", "hint": "loss_fn(params, x, y)", "max_failing": 1,
          "also": ["ex5.jitted", "ex5.params_unchanged"]}


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _half_loss(params, x, y):
    """The same loss with the logits and their log-softmax in float16."""
    logits = forward(params, x).astype(jnp.float16)
    picked = jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10, dtype=jnp.float16), axis=-1)
    return (-jnp.mean(picked)).astype(jnp.float32)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(_half_loss)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
