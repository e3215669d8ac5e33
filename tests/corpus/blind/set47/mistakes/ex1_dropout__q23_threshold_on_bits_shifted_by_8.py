# BLIND-SET: 47
# EXERCISE: ex1
# WHAT: The keep test compares the random word shifted right by 8 (32 - 24, "float32 has 24 significant bits", so values in 0..2**24-1) with a threshold computed in Q23 (keep * 2**23). Only half of the range can pass, so each element is kept with probability keep/2 instead of keep (rate 0.5 zeroes 75%, rate 0.2 zeroes 60%) while survivors are still scaled by 1/keep, so the layer's expected value drops by half.
# SHOULD-SAY: Too many elements are zeroed: the zero fraction is about (1 + rate)/2 instead of rate, while survivors are scaled by 1/(1 - rate). The integer threshold and the shifted bits use different fixed-point widths: a Q23 threshold needs bits >> 9 (23 bits kept); either shift by 9 or build the threshold as keep * 2**24. Simplest: jax.random.bernoulli(key, 1 - rate, x.shape).
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

# Fixed-point coin: keep iff (top bits of a random word) < keep in Q23.
WORD_BITS = 32
F32_PRECISION_BITS = 24  # 23 stored mantissa bits + the implicit leading one
Q_FRAC_BITS = 23  # threshold format: Q0.23, one == 1 << 23
Q_ONE = 1 << Q_FRAC_BITS


def dropout(key, x, rate, train=True):
    """Inverted dropout on raw PRNG bits with an integer threshold.

    Zero each element with probability ``rate``, scale survivors by
    ``1 / (1 - rate)``. ``train=False`` or ``rate == 0`` returns ``x``.
    """
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    thresh = int(round(keep * Q_ONE))
    if thresh > Q_ONE:  # saturate
        thresh = Q_ONE
    word = jax.random.bits(key, x.shape, dtype=jnp.uint32)
    top = jax.lax.shift_right_logical(word, jnp.uint32(WORD_BITS - F32_PRECISION_BITS))
    keep_mask = top < jnp.uint32(thresh)
    scale = jnp.asarray(1.0 / keep, dtype=x.dtype)
    return jnp.where(keep_mask, x * scale, jnp.zeros((), x.dtype))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU.

    Args:
      params: the lesson's params dict (``layer1``, ``layer2``, ``layer3``).
      x: float32 ``(B, 784)``.
      key: a PRNG key; each dropout layer gets its own derived key.
      rate: Python float, the dropout rate for both hidden layers.
      train: Python bool; with ``train=False`` the result equals ``forward``.

    Returns:
      Logits, float32 ``(B, 10)``. No dropout on the input or on the logits.
    """
    n_layers = 3
    h = x
    for idx in range(1, n_layers):  # hidden layers 1 .. n_layers-1
        p = params[f"layer{idx}"]
        h = jax.nn.relu(h @ p["w"] + p["b"])
        h = dropout(jax.random.fold_in(key, idx), h, rate, train)  # one key per layer id
    p = params[f"layer{n_layers}"]
    return h @ p["w"] + p["b"]
