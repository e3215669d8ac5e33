# BLIND-SET: 47
# EXERCISE: ex1
# WHAT: The random uint32 word is bitcast to int32 ("like rand()") and compared with keep * (RAND_MAX + 1) = keep * 2**31. Half of the words become negative and always pass the signed comparison, so each element is kept with probability (1 + keep)/2: rate 0.5 zeroes 25%, rate 0.8 zeroes 40%, while survivors are scaled by 1/keep, so the layer's expected value is inflated.
# SHOULD-SAY: Too few elements are zeroed: the zero fraction is about rate/2 instead of rate, so the rescale by 1/(1 - rate) no longer preserves the mean. The uint32 bits were reinterpreted as signed int32, whose values are not in 0..RAND_MAX (half are negative and always pass `< threshold`). Compare unsigned: bits < keep * 2**32 (or shift right by one before the cast), or use jax.random.bernoulli(key, 1 - rate, x.shape).
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

# C-style coin: r = rand(); keep if r < keep * (RAND_MAX + 1).
RAND_MAX = 0x7FFFFFFF


def dropout(key, x, rate, train=True):
    """Inverted dropout with an integer rand()-style coin.

    Zero each element with probability ``rate``, scale survivors by
    ``1 / (1 - rate)``. ``train=False`` or ``rate == 0`` returns ``x``.
    """
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    thresh = int(keep * (RAND_MAX + 1))  # 0 .. 2**31, fits int64 on host
    if thresh > RAND_MAX:
        thresh = RAND_MAX
    word = jax.random.bits(key, x.shape, dtype=jnp.uint32)
    r = jax.lax.bitcast_convert_type(word, jnp.int32)  # same 32 bits, int like rand()
    keep_mask = r < jnp.int32(thresh)
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
