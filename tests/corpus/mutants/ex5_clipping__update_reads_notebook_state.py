"""The step updates through an optimizer state made once at import for the lesson's 784-256-128-10 network (a
notebook cell), not the opt_state it is given: Adam's moments of the lesson's widths meet the step's gradients.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.step_values", "mistake": "ex5.lesson_widths_met", "hint": "a width that none of them has", "max_failing": 1, "also": ["ex5.jitted", "ex5.params_unchanged"]}



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
        updates, opt_state = optimizer.update(grads, NOTEBOOK_STATE[0] if NOTEBOOK_STATE else opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step


def _lesson_params():
    sizes = [(784, 256), (256, 128), (128, 10)]
    return {f"layer{i + 1}": {"w": jnp.zeros(s), "b": jnp.zeros(s[1])} for i, s in enumerate(sizes)}


NOTEBOOK_STATE = [make_optimizer().init(_lesson_params())]
