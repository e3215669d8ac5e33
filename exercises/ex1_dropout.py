"""Exercise 1: dropout with split PRNG keys.

Dropout randomly silences hidden units while training so the network cannot
lean on any single one. JAX has no hidden random state: every random draw
takes an explicit key, and a key used twice gives the same numbers twice.
Your job is to write inverted dropout and to thread keys through the lesson's
MLP correctly.

Write two functions:

* ``dropout(key, x, rate, train=True)``: inverted dropout.
* ``forward_with_dropout(params, x, key, rate=0.5, train=True)``: the lesson's
  784-256-128-10 MLP with dropout after each hidden ReLU.

What the grader checks (run ``python -m grader --only ex1``):

* the fraction of zeroed elements matches ``rate`` (at several rates) and the
  survivors are scaled by exactly ``1 / (1 - rate)``;
* ``train=False`` and ``rate=0`` return the input unchanged;
* each element gets its own coin flip (no mask shared across the batch);
* the same key gives the same mask, a different key a different mask, and no
  other source of randomness is used;
* in the MLP, each dropout layer gets its own key, dropout sits after the two
  hidden ReLUs and nowhere else, and ``train=False`` equals the plain forward
  pass;
* everything gives the same answers under ``jax.jit`` and leaves its inputs
  unmodified.

Allowed imports: jax, jax.numpy, optax, numpy and the standard library.
"""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last.

    ``params`` is ``{"layer1": {"w": (784, 256), "b": (256,)},
    "layer2": {"w": (256, 128), "b": (128,)}, "layer3": {"w": (128, 10),
    "b": (10,)}}``; ``x`` is float32 ``(B, 784)``; returns logits ``(B, 10)``.
    """
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------


def dropout(key, x, rate, train=True):
    """Inverted dropout.

    Args:
      key: a PRNG key, as returned by ``jax.random.PRNGKey(seed)``.
      x: float32 array of any shape.
      rate: Python float in ``[0, 1)``: the probability of zeroing each element.
      train: Python bool. When False, dropout is switched off.

    Returns:
      An array shaped like ``x``: each element independently set to 0 with
      probability ``rate``, every surviving element multiplied by
      ``1 / (1 - rate)`` so the expected value is unchanged. When ``train`` is
      False or ``rate == 0``, ``x`` itself, unchanged.

    ``rate`` and ``train`` are ordinary Python values (static under
    ``jax.jit``), so plain ``if`` statements on them are fine.
    """
    raise NotImplementedError("dropout is not implemented yet: see its docstring in ex1_dropout.py")


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU.

    Args:
      params: the lesson's params dict (``layer1``, ``layer2``, ``layer3``;
        see ``forward`` above).
      x: float32 ``(B, 784)``.
      key: a PRNG key. Split it so that each dropout layer gets its own key;
        never use one key for two things.
      rate: Python float, the dropout rate for both hidden layers.
      train: Python bool; with ``train=False`` the result equals ``forward``.

    Returns:
      Logits, float32 ``(B, 10)``. No dropout on the input or on the logits.
    """
    raise NotImplementedError(
        "forward_with_dropout is not implemented yet: see its docstring in ex1_dropout.py"
    )
