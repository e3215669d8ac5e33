# BLIND-SET: 20
# EXERCISE: ex5
# WHAT: make_optimizer clips each layer's gradient dict ({'w','b'} of layer1, layer2, layer3 separately) to max_norm with clip_by_global_norm applied per layer, so the total norm may reach sqrt(3)*max_norm and the relative scale of layers changes
# SHOULD-SAY: the chain order (clip, then Adam), the learning rate and the training step are right, but the clipping is per layer rather than global: each layer is rescaled on its own norm, so a spike in one layer no longer scales the others and the overall norm can exceed max_norm; apply optax.clip_by_global_norm(max_norm) once to the whole gradient pytree

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


def _clip_each_layer(max_norm):
    """Clip every layer's gradient ({'w', 'b'} together) to `max_norm`."""
    clip = optax.clip_by_global_norm(max_norm)

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        clipped = {name: clip.update(layer, optax.EmptyState())[0] for name, layer in updates.items()}
        return clipped, state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_each_layer(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
