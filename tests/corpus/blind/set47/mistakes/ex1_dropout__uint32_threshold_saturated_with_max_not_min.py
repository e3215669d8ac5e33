# BLIND-SET: 47
# EXERCISE: ex1
# WHAT: The uint32 keep threshold keep * 2**32 is "saturated" with max(t, 0xFFFFFFFF) instead of min, so the threshold is always 0xFFFFFFFF and (bar one word value in 2**32) no element is ever zeroed; every element is multiplied by 1/(1 - rate) at every rate > 0 (so the output no longer depends on the key).
# SHOULD-SAY: Dropout zeroes nothing: the zero fraction is 0 at every rate while all elements are scaled by 1/(1 - rate). The saturation of the uint32 threshold uses max where it must use min (clamp from above: min(int(keep * 2**32), 0xFFFFFFFF)), which pins the threshold at the top of the range; or use jax.random.bernoulli(key, 1 - rate, x.shape).
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

UINT32_MAX = 0xFFFFFFFF
TWO_POW_32 = 1 << 32


def dropout(key, x, rate, train=True):
    """Inverted dropout with a uint32 keep threshold.

    Zero each element with probability ``rate``, scale survivors by
    ``1 / (1 - rate)``. ``train=False`` or ``rate == 0`` returns ``x``.
    """
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    thresh = int(keep * TWO_POW_32)
    thresh = max(thresh, UINT32_MAX)  # saturate: keep == 1.0 would overflow u32
    word = jax.random.bits(key, x.shape, dtype=jnp.uint32)
    keep_mask = word < jnp.uint32(thresh)
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
