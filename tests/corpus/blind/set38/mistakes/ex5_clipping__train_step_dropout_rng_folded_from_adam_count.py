# BLIND-SET: 38
# EXERCISE: ex5
# WHAT: The step runs the model Flax-style with train=True and rngs={"dropout": fold_in(PRNGKey(0), count)} (count is Adam's step count read from opt_state), with dropout rate 0.1 after each hidden ReLU. The returned loss, the gradients and so the new params and state are those of a randomly thinned network, not of loss_fn at the incoming params; make_optimizer is right.
# SHOULD-SAY: The step does not compute loss_fn at the incoming params: it runs the model with dropout (train=True plus a dropout rng, as in a Flax train_step), so the loss and gradients are those of a randomly thinned network. Use jax.value_and_grad(loss_fn)(params, x, y) exactly, with no dropout, and return that loss.
"""Exercise 5: gradient clipping in an optax chain, with a train_step shaped like my Flax ones."""

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


DROPOUT_RATE = 0.1


def apply_model(params, x, *, train=False, rngs=None):
    """model.apply(variables, x, train=..., rngs=...): the lesson's MLP with nn.Dropout(0.1) in train mode."""
    deterministic = not train
    keys = jax.random.split(rngs["dropout"]) if not deterministic else (None, None)
    h = x
    for name, key in zip(("layer1", "layer2"), keys):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        if not deterministic:
            keep = 1.0 - DROPOUT_RATE
            h = jnp.where(jax.random.bernoulli(key, keep, h.shape), h / keep, 0.0)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def compute_loss(params, x, y, *, train=False, rngs=None):
    logits = apply_model(params, x, train=train, rngs=rngs)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def _step_count(opt_state):
    """The optimizer's step counter (what TrainState.step would be)."""
    for path, leaf in jax.tree_util.tree_flatten_with_path(opt_state)[0]:
        if getattr(path[-1], "name", None) == "count":
            return leaf
    return jnp.zeros([], jnp.int32)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted ``step(params, opt_state, x, y) -> (params, opt_state, loss)``."""
    base_rng = jax.random.PRNGKey(0)

    @jax.jit
    def train_step(params, opt_state, x, y):
        dropout_rng = jax.random.fold_in(base_rng, _step_count(opt_state))
        loss, grads = jax.value_and_grad(compute_loss)(
            params, x, y, train=True, rngs={"dropout": dropout_rng}
        )
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return train_step
