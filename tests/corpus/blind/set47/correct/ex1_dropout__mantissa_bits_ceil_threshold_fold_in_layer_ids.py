# BLIND-SET: 47
# EXERCISE: ex1
# WHAT: Correct. The keep test is done on raw uint32 bits: the top 23 bits (bits >> 9) are compared with the integer threshold ceil(float32(keep) * 2**23), which is exactly the test `uniform < keep` that jax.random.bernoulli does, so masks are bit-identical to the reference's for the same key; survivors are multiplied by 1/keep. forward_with_dropout derives one key per hidden layer with jax.random.fold_in(key, layer_id) (ids 1 and 2; the parent key itself is never used for a draw).
# SHOULD-SAY: Nothing to fix: zero fraction and survivor scale match the rate, train=False / rate=0 return x, masks depend only on the key, each hidden layer gets its own derived key, and train=False equals forward.
import math

import jax
import jax.numpy as jnp
import numpy as np

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

# A float32 in [1, 2) has 23 mantissa bits; jax's uniform keeps the top 23 of
# the 32 random bits.  So u = (bits >> 9) * 2**-23 exactly.
_WORD_BITS = 32
_MANT_BITS = 23
_SHIFT = _WORD_BITS - _MANT_BITS  # 9
_ONE_Q23 = 1 << _MANT_BITS  # 8388608

_N_HIDDEN = 2  # layer1, layer2 get dropout; layer3 is the output


def _keep_threshold_q23(keep):
    """Smallest integer T with  m < T  <=>  m * 2**-23 < float32(keep)."""
    keep_f32 = float(np.float32(keep))  # the probability bernoulli sees
    t = math.ceil(keep_f32 * _ONE_Q23)  # exact: scaling by a power of two
    # clamp into [0, 2**23]; 2**23 means "keep everything"
    if t < 0:
        t = 0
    if t > _ONE_Q23:
        t = _ONE_Q23
    return t


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
    """
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    thresh = jnp.uint32(_keep_threshold_q23(keep))
    raw = jax.random.bits(key, x.shape, dtype=jnp.uint32)
    mant = jax.lax.shift_right_logical(raw, jnp.uint32(_SHIFT))  # 0 .. 2**23-1
    keep_mask = mant < thresh
    return jnp.where(keep_mask, x / keep, jnp.zeros((), x.dtype)).astype(x.dtype)


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
    h = x
    for layer_id in range(1, _N_HIDDEN + 1):  # 1, 2 (inclusive of the last hidden)
        p = params[f"layer{layer_id}"]
        h = jax.nn.relu(h @ p["w"] + p["b"])
        layer_key = jax.random.fold_in(key, layer_id)  # counter-derived, never the parent
        h = dropout(layer_key, h, rate, train)
    out = params[f"layer{_N_HIDDEN + 1}"]
    return h @ out["w"] + out["b"]
