# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: 'Mixed precision': the step casts params and x to bfloat16 before the loss and casts the loss back to float32, so the returned loss and the gradients (hence new params and state) carry bfloat16 rounding errors (~1e-2 relative).
# SHOULD-SAY: ex5: the training step's loss and update differ from value_and_grad(loss_fn) in float32 (bfloat16 forward pass); make_optimizer is right.
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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def mixed_precision_loss(params, x, y):
        half = jax.tree.map(lambda p: p.astype(jnp.bfloat16), params)
        return loss_fn(half, x.astype(jnp.bfloat16), y).astype(jnp.float32)

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(mixed_precision_loss)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
