"""The output layer adds its bias twice, h @ w + b + b, a line edited in two places. With every bias 0 the
evaluation pass is right; with every bias 1 it is the plain pass with layer3's bias counted 2 times: the report
says so, without naming a known mistake.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "", "max_failing": 1, "also": ["ex1.params_unchanged"],
          "hint": "biases enter it otherwise"}



def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"] + params["layer3"]["b"]
