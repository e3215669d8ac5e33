# BLIND-SET: 43
# EXERCISE: ex1
# WHAT: forward_with_dropout takes an "inference fast path" when train=False: inputs, weights and biases are cast to bfloat16, the three layers run in bfloat16 and only the logits are cast back to float32. The training path is exact, but with train=False the logits differ from the plain float32 forward pass by up to ~2e-2 (about 1% of the largest logit), so train=False no longer equals `forward`.
# SHOULD-SAY: with train=False forward_with_dropout must return exactly the lesson's forward pass, in float32. The bfloat16 inference path rounds inputs, weights and activations to 8 significant bits; keep the params and the computation in float32 (just skip dropout) when train is False.
"""Exercise 1: inverted dropout with split PRNG keys.

Training runs in float32 (the master copy of the params); inference has no
gradients to protect, so it runs in bfloat16 to halve activation memory, as
on an accelerator.
"""

import jax
import jax.numpy as jnp

_INFER_DTYPE = jnp.bfloat16


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability `rate`, scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _dense(layer, h, dtype):
    w = jnp.asarray(layer["w"]).astype(dtype)
    b = jnp.asarray(layer["b"]).astype(dtype)
    return h @ w + b


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if not train:
        # Inference: no dropout and no gradients, so compute in bfloat16 and
        # hand float32 logits back to the caller.
        h = jnp.asarray(x).astype(_INFER_DTYPE)
        h = jax.nn.relu(_dense(params["layer1"], h, _INFER_DTYPE))
        h = jax.nn.relu(_dense(params["layer2"], h, _INFER_DTYPE))
        return _dense(params["layer3"], h, _INFER_DTYPE).astype(jnp.float32)

    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(_dense(params["layer1"], x, jnp.float32))
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(_dense(params["layer2"], h, jnp.float32))
    h = dropout(key2, h, rate, train)
    return _dense(params["layer3"], h, jnp.float32)
