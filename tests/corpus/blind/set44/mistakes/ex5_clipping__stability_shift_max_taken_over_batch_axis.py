# BLIND-SET: 44
# EXERCISE: ex5
# WHAT: loss_fn writes a "stable" log-softmax by hand and subtracts logits.max(axis=0, keepdims=True), a (1, 10) maximum over the batch for each class, instead of the per-example maximum over classes (axis=-1). Log-softmax is only invariant to a shift that is constant along the class axis, so the log-probs, the loss, the gradients and the update are all wrong, for every batch size (at B = 1 every shifted logit is 0 and the loss is log 10). make_optimizer is right.
# SHOULD-SAY: The loss is not the softmax cross-entropy: the stabilising max is taken over the batch axis (axis=0), so each class column gets a different offset and the log-softmax changes. Take the max over the class axis, logits.max(axis=-1, keepdims=True), or use jax.nn.log_softmax(logits, axis=-1).
"""Exercise 5: gradient clipping chained before Adam (hand-written stable log-softmax)."""

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
    logits = forward(params, x)                                           # (B, 10)
    z = logits - jnp.max(logits, axis=0, keepdims=True)                   # shift for exp() stability
    logp = z - jnp.log(jnp.sum(jnp.exp(z), axis=-1, keepdims=True))       # (B, 10) - (B, 1)
    return -jnp.mean(jnp.sum(logp * jax.nn.one_hot(y, logits.shape[-1]), axis=-1))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)      # scalar, tree like params
        updates, opt_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(jnp.add, params, updates)          # leafwise p + u
        return new_params, opt_state, loss

    return step
