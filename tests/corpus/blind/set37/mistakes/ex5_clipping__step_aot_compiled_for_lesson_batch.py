# BLIND-SET: 37
# EXERCISE: ex5
# WHAT: make_train_step returns jax.jit(step).lower(...).compile() for the lesson's shapes (784-256-128-10 params, a batch of 128) instead of the jitted function; the step gives the right results for exactly those shapes, but any other batch size (or params shape) makes it raise, it cannot be used inside another jax.jit, and what is returned is a Compiled executable rather than a jitted function.
# SHOULD-SAY: Precompiling ahead of time fixes every input shape: a batch of 32 no longer matches the executable compiled for 128 and the call raises a TypeError. Return the jax.jit-wrapped step itself; jit compiles once per new shape on its own and reuses the compiled program after that.
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
        return optax.apply_updates(params, updates), opt_state, loss

    # Compile ahead of time for the lesson's model and batch, so the first
    # training step does not pay for tracing and compilation.
    sizes = (784, 256, 128, 10)
    params_spec = {
        f"layer{i}": {
            "w": jax.ShapeDtypeStruct((n_in, n_out), jnp.float32),
            "b": jax.ShapeDtypeStruct((n_out,), jnp.float32),
        }
        for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1)
    }
    state_spec = jax.eval_shape(optimizer.init, params_spec)
    x_spec = jax.ShapeDtypeStruct((128, 784), jnp.float32)
    y_spec = jax.ShapeDtypeStruct((128,), jnp.int32)
    return step.lower(params_spec, state_spec, x_spec, y_spec).compile()
