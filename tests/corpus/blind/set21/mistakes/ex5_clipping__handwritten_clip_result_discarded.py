# BLIND-SET: 21
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written clip_grad_norm_-style transformation before Adam, but the transformation computes the scaled gradients with jax.tree.map and discards the result (torch's clip_grad_norm_ works in place), returning the updates unclipped; the optimizer is plain Adam.
# SHOULD-SAY: the chain order, Adam with the given learning rate and the jitted training step are right, but the clipping never happens: the custom transformation builds the rescaled tree and then returns the original `updates` (JAX arrays are not modified in place the way torch's clip_grad_norm_ modifies .grad). Return the scaled tree, or simply use optax.clip_by_global_norm(max_norm).
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


def _clip_grad_norm(max_norm):
    """torch.nn.utils.clip_grad_norm_ as an optax transformation."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        total_norm = optax.tree.norm(updates)
        clip_coef = jnp.minimum(1.0, max_norm / (total_norm + 1e-6))
        jax.tree.map(lambda g: g * clip_coef, updates)  # g.mul_(clip_coef)
        return updates, state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_grad_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
