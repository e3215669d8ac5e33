"""forward_with_dropout draws its masks inline and, following the weight-scaling rule, divides the next layer's
weights by keep = 1 - rate, and its bias as well; the bias feeds no dropped unit, so train-mode logits are off by
b * (1 / keep - 1) wherever biases are not zero. dropout itself, eval mode and rate 0 are right. The report measures
train mode with every weight 0 and the biases 1, 2, 3."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.biases_scaled_in_train", "max_failing": 1,
          "hint": "never on a bias"}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _layer(h, layer, keep):
    return h @ (layer["w"] / keep) + layer["b"] / keep


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU: masks here, 1/keep on the next layer."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    if not train or rate == 0.0:
        h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
        return h @ params["layer3"]["w"] + params["layer3"]["b"]
    keep = 1.0 - rate
    h = h * jax.random.bernoulli(key1, keep, h.shape)
    h = jax.nn.relu(_layer(h, params["layer2"], keep))
    h = h * jax.random.bernoulli(key2, keep, h.shape)
    return _layer(h, params["layer3"], keep)
