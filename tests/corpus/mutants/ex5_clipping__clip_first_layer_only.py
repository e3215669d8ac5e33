"""The clip is masked to the first layer's gradient: optax.masked applies clip_by_global_norm to layer1 alone, so
the other layers' gradients are neither counted nor clipped. What other arguments should give is judged only
against a chain the grader can reproduce, so ex5.hyperparams is not judged.
"""

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
    def first_layer(params):
        return {name: jax.tree_util.tree_map(lambda _: name == "layer1", layer) for name, layer in params.items()}

    return optax.chain(optax.masked(optax.clip_by_global_norm(max_norm), first_layer), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

EXPECT = {'check': 'ex5.chain', 'mistake': 'ex5.clip_leaves_out', 'max_failing': 1, 'hint': 'every leaf', 'also': ['ex5.hyperparams']}
