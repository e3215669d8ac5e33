"""make_optimizer chains the clip with a hand-written Adam that folds the bias corrections into the step size, as
Kingma and Ba's efficient form does, and also divides the moments by them: the corrections are applied twice, and
every update is the right one times sqrt(1 - b2**t) / (1 - b1**t) (0.32 at the first step). The report measures the
per-step factors and names the correction.
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
    """Adam written out: moments, bias correction, learning rate."""

    def init(params):
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return {"count": jnp.zeros([], jnp.int32), "m": zeros, "v": zeros}

    def update(grads, state, params=None):
        count = state["count"] + 1
        m = jax.tree_util.tree_map(lambda a, g: b1 * a + (1 - b1) * g, state["m"], grads)
        v = jax.tree_util.tree_map(lambda a, g: b2 * a + (1 - b2) * g * g, state["v"], grads)
        c1, c2 = 1 - b1 ** count, 1 - b2 ** count
        step_size = learning_rate * jnp.sqrt(c2) / c1  # the paper's efficient form...
        updates = jax.tree_util.tree_map(lambda a, b: -step_size * (a / c1) / (jnp.sqrt(b / c2) + eps), m, v)
        return updates, {"count": count, "m": m, "v": v}

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
