"""forward_with_dropout keeps its train=False logits in a module dict keyed by the first layer's weight array
object and the batch size, to save recomputing the evaluation pass: another batch of the same size, with the same
params, gets the first batch's logits back.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "stale_result", "hint": "Compute from the arguments of each call",
          "max_failing": 1}



def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


_EVAL = {}


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if not train:
        cache_key = (id(params["layer1"]["w"]), x.shape[0])
        if cache_key not in _EVAL:
            _EVAL[cache_key] = forward_with_dropout(params, x, key, rate, True) if rate == 0 else \
                forward_with_dropout(params, x, key, 0.0, True)
        return _EVAL[cache_key]
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
