# BLIND-SET: 24
# EXERCISE: ex5
# WHAT: correct rewrite: make_optimizer spells the pipeline through the newer optax.transforms namespace when present (optax.transforms.chain / clip_by_global_norm, same objects as optax.chain / optax.clip_by_global_norm) followed by optax.adam; make_train_step defines the update with the optimizer as an explicit keyword argument, binds it with functools.partial and jits the result, adding updates with jax.tree.map(jnp.add, ...).
# SHOULD-SAY: full marks
"""Exercise 5: clip-then-Adam, built from optax.transforms, with a partial-bound jitted step."""

import functools

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


_transforms = getattr(optax, "transforms", optax)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping first, then Adam."""
    clip = _transforms.clip_by_global_norm(max_norm)
    return _transforms.chain(clip, optax.adam(learning_rate=learning_rate))


def _update(params, opt_state, x, y, *, optimizer):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, new_state = optimizer.update(grads, opt_state, params)
    new_params = jax.tree.map(jnp.add, params, updates)
    return new_params, new_state, loss


def make_train_step(optimizer):
    """jax.jit of the update with `optimizer` bound in."""
    return jax.jit(functools.partial(_update, optimizer=optimizer))
