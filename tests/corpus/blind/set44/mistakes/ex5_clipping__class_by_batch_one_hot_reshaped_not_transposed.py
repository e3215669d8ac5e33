# BLIND-SET: 44
# EXERCISE: ex5
# WHAT: loss_fn builds the targets as a (classes, batch) comparison table, jnp.arange(10)[:, None] == y[None, :], and turns it into (batch, classes) with reshape(-1, 10) instead of a transpose. For B > 1 the "one-hot" rows are chunks of the flattened table, so the loss and the gradients the step returns (and so the new params and optimizer state) are wrong. At B = 1 the result is right, and make_optimizer is right.
# SHOULD-SAY: The training step's loss uses scrambled targets: reshaping the (10, B) class-by-example table to (B, 10) regroups its memory instead of swapping axes, so rows no longer mark each example's label. Transpose the table (table.T), or build it batch-first with y[:, None] == jnp.arange(10)[None, :] (or jax.nn.one_hot(y, 10)).
"""Exercise 5: gradient clipping chained before Adam (einsum cross-entropy)."""

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
    logits = forward(params, x)                                          # (B, 10)
    logp = jax.nn.log_softmax(logits, axis=-1)                           # (B, 10)
    n_classes = logits.shape[-1]
    table = jnp.arange(n_classes)[:, None] == y[None, :]                 # (10, B): class c vs example b
    onehot = table.reshape(-1, n_classes).astype(logp.dtype)             # (B, 10)
    return -jnp.mean(jnp.einsum("bc,bc->b", logp, onehot))               # mean over the batch


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
