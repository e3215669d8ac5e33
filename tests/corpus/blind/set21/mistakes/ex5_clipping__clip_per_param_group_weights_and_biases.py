# BLIND-SET: 21
# EXERCISE: ex5
# WHAT: make_optimizer clips torch-style per parameter group: optax.multi_transform with one clip_by_global_norm(max_norm) for the weight leaves and another for the bias leaves, then Adam, so the combined gradient norm can reach sqrt(2)*max_norm and the clip factor differs between weights and biases.
# SHOULD-SAY: Adam, its learning rate, the chain order (clip before Adam) and the training step are right, but the clipping is not global: weights and biases are clipped as two separate groups, each to max_norm, so a spiking gradient is scaled by two different factors and its total norm can exceed max_norm. Use a single optax.clip_by_global_norm(max_norm) over the whole gradient tree.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

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


def _param_group(path, _leaf):
    """torch-style param groups: biases in one group, weights in the other."""
    return "bias" if getattr(path[-1], "key", None) == "b" else "weight"


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    clip = optax.multi_transform(
        {"weight": optax.clip_by_global_norm(max_norm), "bias": optax.clip_by_global_norm(max_norm)},
        lambda params: jax.tree_util.tree_map_with_path(_param_group, params),
    )
    return optax.chain(clip, optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
