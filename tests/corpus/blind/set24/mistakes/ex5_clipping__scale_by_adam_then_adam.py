# BLIND-SET: 24
# EXERCISE: ex5
# WHAT: make_optimizer chains clip_by_global_norm, then optax.scale_by_adam() as a 'normalising' pre-step, then optax.adam(learning_rate); the gradients are Adam-normalised twice (Adam runs on Adam's own output, each with its own moment state), so the updates and the optimizer state differ from clip-then-Adam (the opt_state also has an extra ScaleByAdamState slot).
# SHOULD-SAY: The optimizer's updates are not clip-then-Adam: scale_by_adam is already Adam's whole rescaling (optax.adam is just scale_by_adam followed by the learning-rate scale), so the chain applies Adam twice and its state holds two sets of moments. Use optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)) — or clip, scale_by_adam, scale_by_learning_rate — with one Adam stage.
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
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(),  # normalise the clipped gradients
        optax.adam(learning_rate),
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
