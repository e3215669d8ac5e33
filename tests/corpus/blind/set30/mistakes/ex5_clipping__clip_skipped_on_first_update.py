# BLIND-SET: 30
# EXERCISE: ex5
# WHAT: the clip is wrapped in optax.conditionally_transform(..., should_transform_fn=lambda count: count > 0) to skip clipping on the first update ("Adam's first step is sign-like anyway"); the first gradient reaches Adam unclipped and stays in its moments, so whenever that gradient is above max_norm every later update differs from clip-then-Adam (the first update, about -lr*sign(g), changes only in entries small enough for Adam's eps to matter).
# SHOULD-SAY: Clipping has to apply to every gradient, including the first: Adam's moment estimates carry the unclipped first gradient into all later steps. Use optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)) without the conditional wrapper.
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


def make_optimizer(learning_rate: float = 1e-3, max_norm: float = 1.0) -> optax.GradientTransformation:
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    # Adam's very first update is -lr * g / |g| (sign-like), so its scale does not
    # depend on the gradient's norm: skip the clip on update 0 and clip from then on.
    clip = optax.conditionally_transform(
        optax.clip_by_global_norm(max_norm),
        should_transform_fn=lambda count: count > 0,
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
