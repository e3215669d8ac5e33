"""The step keeps the output layer's bias out of training with jax.lax.stop_gradient inside the loss it
differentiates ("the bias is only an offset"): its gradient is 0, Adam's moments for it stay 0 and it never moves,
while every other leaf is trained. The report measures the leaf that did not move and its zero moments.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.step_values", "mistake": "ex5.leaves_get_no_gradient", "hint": "stop_gradient",
          "max_failing": 1, "also": ["ex5.uses_given_optimizer"]}


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
        def fixed_bias_loss(p):
            p = {**p, "layer3": {**p["layer3"], "b": jax.lax.stop_gradient(p["layer3"]["b"])}}
            return loss_fn(p, x, y)

        loss, grads = jax.value_and_grad(fixed_bias_loss)(params)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
