# BLIND-SET: 46
# EXERCISE: ex5
# WHAT: the training step differentiates the median of the per-example cross-entropies (a robust estimate of the batch risk) instead of loss_fn's mean, so both the returned loss and the gradients fed to the optimizer differ from value_and_grad(loss_fn) (the gradient comes from the one or two median examples only); make_optimizer is right.
# SHOULD-SAY: the step's loss is the batch median, not the lesson's mean cross-entropy, so the returned loss and the update are wrong. Compute loss and grads with jax.value_and_grad(loss_fn)(params, x, y); clipping already provides the robustness.
"""Exercise 5: clipping before Adam, with a robust training objective."""

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
    """Clip the global gradient norm to max_norm, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def _median_loss(params, x, y):
    """Median of the per-example cross-entropies: insensitive to a few bad examples."""
    logits = forward(params, x)
    nll = -jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1)
    return jnp.median(nll)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(_median_loss)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
