# BLIND-SET: 38
# EXERCISE: ex5
# WHAT: make_optimizer wraps clip+Adam in optax.multi_transform with a Flax fine-tuning label function (kernel/bias/scale/embedding are "trainable", everything else goes to optax.set_to_zero()). The lesson's leaves are named w and b, so every update is exactly zero for every learning_rate and max_norm and the params never move; the step itself is right.
# SHOULD-SAY: Your optimizer's updates are all zero: the trainable/frozen labels match Flax's names (kernel, bias), but these params use w and b, so multi_transform sends every leaf to set_to_zero. There is nothing to freeze here: return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)) without the multi_transform (or label w and b as trainable).
"""Exercise 5: gradient clipping in an optax chain (set up like my Flax fine-tuning configs)."""

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


TRAINABLE_NAMES = ("kernel", "bias", "scale", "embedding")


def _param_labels(params):
    """'trainable' for real parameters, 'frozen' for anything else (batch stats, buffers, ...)."""

    def label(path, _):
        name = getattr(path[-1], "key", None)
        return "trainable" if name in TRAINABLE_NAMES else "frozen"

    return jax.tree_util.tree_map_with_path(label, params)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to ``max_norm``, then Adam, on the trainable leaves."""
    tx = optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))
    return optax.multi_transform({"trainable": tx, "frozen": optax.set_to_zero()}, _param_labels)


def make_train_step(optimizer):
    """A jitted ``step(params, opt_state, x, y) -> (params, opt_state, loss)``."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
