# BLIND-SET: 55
# EXERCISE: ex5
# WHAT: the "don't touch biases" optax.masked recipe from a weight-decay blog post is wrapped around the whole clip+Adam chain, so only the weight leaves ("w") are clipped and Adam-updated; optax.masked passes the bias gradients through unchanged, so each bias "update" is the raw gradient (added with the wrong sign and no learning rate), and the clipping norm is computed over the weights only.
# SHOULD-SAY: optax.masked leaves the masked-out leaves' updates as the raw gradients, so your biases move by +grad; and the global norm now ignores the biases. Apply clip_by_global_norm and adam to every leaf: optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)) with no mask.
"""Exercise 5: clipping + Adam, using the param-mask recipe from a blog post."""

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


def _weights_only(params):
    # True for kernels, False for biases (blog: "no decay/clip on biases")
    return {layer: {name: name == "w" for name in leaves} for layer, leaves in params.items()}


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.masked(
        optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)),
        _weights_only,
    )


def make_train_step(optimizer):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    return step
