"""Exercise 5: gradient clipping in an optax chain.

One bad batch can produce a gradient hundreds of times larger than usual and
throw training off. Clipping the global gradient norm caps how far one step
can go. In optax, gradient processing is a chain of transformations applied
in order, so clipping must come before Adam: Adam divides by a running
estimate of the gradient's scale, and clipping after that does nothing useful.

Write two functions:

* ``make_optimizer(learning_rate=1e-3, max_norm=1.0)``: clipping, then Adam.
* ``make_train_step(optimizer)``: a jitted training step that uses it.

What the grader checks (run ``python -m grader --only ex5``):

* the optimizer's updates equal clip-by-global-norm followed by Adam over a
  sequence of gradients that includes a norm spike, for several values of
  ``learning_rate`` and ``max_norm``;
* one training step gives the right new params, new optimizer state and the
  loss at the incoming params; it uses the optimizer it is given and is
  jitted.

Then answer in ``answers.md``: what did clipping change?

Allowed imports: jax, jax.numpy, optax, numpy and the standard library.
"""

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


# --- Your code ----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam.

    Args:
      learning_rate: Adam's learning rate.
      max_norm: the largest global L2 norm (over all leaves together) a
        gradient may have; larger gradients are scaled down to it.

    Returns:
      An ``optax.GradientTransformation``: global-norm clipping followed by
      Adam (hint: ``optax.chain``).
    """
    raise NotImplementedError("make_optimizer is not implemented yet: see its docstring in ex5_clipping.py")


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``.

    Returns:
      ``step(params, opt_state, x, y) -> (new_params, new_opt_state, loss)``,
      wrapped in ``jax.jit``. It computes the loss and gradients at the
      incoming params with ``jax.value_and_grad(loss_fn)``, updates them through
      ``optimizer``, and returns the loss from before the update.
    """
    raise NotImplementedError("make_train_step is not implemented yet: see its docstring in ex5_clipping.py")
