# BLIND-SET: 24
# EXERCISE: ex5
# WHAT: the train step returns new_opt_state[1] — only Adam's part of the chain state — because clip_by_global_norm's slot is an EmptyState 'that holds nothing'; the returned state no longer has the structure optimizer.init produced, so it does not match the expected new state, and feeding it to the next step raises 'The number of updates and states has to be the same in chain!'.
# SHOULD-SAY: The optimizer state returned by the step has the wrong structure: optax.chain's state is a tuple with one entry per transformation, including the EmptyState of clip_by_global_norm, and update expects exactly that tuple back. Return the whole new state from optimizer.update unchanged; otherwise the next step fails (and a chained optimizer can never be resumed).
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
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        adam_state = opt_state[1]  # the clip stage's EmptyState holds nothing worth carrying
        return optax.apply_updates(params, updates), adam_state, loss

    return step
