# BLIND-SET: 22
# EXERCISE: ex5
# WHAT: the train step splits the batch into two halves (x[:B//2], x[B//2:]), takes value_and_grad on each and averages the two losses and the two gradients with equal weight; mathematically equal to the full-batch loss/gradient for even B (float rounding only), but wrong for odd B (unequal halves weighted equally) and for B == 1 the first half is empty: the returned loss is NaN and the gradient is halved.
# SHOULD-SAY: make_optimizer (clip then Adam) is right and the step is jitted, uses the given optimizer and returns (params, opt_state, loss), but the loss and gradients are not those of the whole batch: averaging the two half-batch means with equal weight is only right when B is even; with an odd batch the halves have different sizes (and with B == 1 the empty half makes the loss NaN and halves the gradient). Take jax.value_and_grad(loss_fn)(params, x, y) on the whole batch.
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

    @jax.jit
    def step(params, opt_state, x, y):
        # Two micro-batches to halve the activation memory, then average.
        half = x.shape[0] // 2
        loss_a, grads_a = jax.value_and_grad(loss_fn)(params, x[:half], y[:half])
        loss_b, grads_b = jax.value_and_grad(loss_fn)(params, x[half:], y[half:])
        loss = (loss_a + loss_b) / 2
        grads = jax.tree.map(lambda a, b: (a + b) / 2, grads_a, grads_b)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
