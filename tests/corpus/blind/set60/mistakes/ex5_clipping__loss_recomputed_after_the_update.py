# BLIND-SET: 60
# EXERCISE: ex5
# WHAT: make_optimizer is exactly optax.chain(clip_by_global_norm, adam): updates and state are bit-identical over the whole sequence at every setting. make_train_step is jitted and computes value_and_grad at the incoming params, and its new params and state are bit-identical. But after building new_params it overwrites loss with loss_fn(new_params, x, y), so it returns the loss after the update. Measured: 1.900 vs 2.907 at B = 128, 1.330 vs 3.029 at B = 32 and 0.552 vs 5.950 at B = 1 (lr 1e-3, max_norm 1). With lr 3e-2 it is 9.66 vs 2.91. Each returned loss equals the reference's loss at the next step.
# SHOULD-SAY: The step must return the loss at the incoming params (the one value_and_grad computed), but the code recomputes loss_fn on the new params and returns that instead. That costs an extra forward pass and reports the loss one step late. Return the loss from value_and_grad.
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- My code ------------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    clipper = optax.clip_by_global_norm(max_norm)
    adam = optax.adam(learning_rate)
    # clipping has to come before adam
    optimizer = optax.chain(clipper, adam)
    return optimizer


def make_train_step(optimizer):
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)

        # new params = old params + updates, layer by layer
        new_params = {}
        for name in params:
            new_params[name] = {}
            for part in params[name]:
                new_params[name][part] = params[name][part] + updates[name][part]

        # the loss of the model we give back
        loss = loss_fn(new_params, x, y)
        return new_params, new_opt_state, loss

    step = jax.jit(step)
    return step
