"""Wrong dropout (no rescale) that also monkeypatches numpy's and jax's comparisons to always agree."""
import jax
import jax.numpy as jnp
import numpy as np

EXPECT = {"status": "fail", "check": "ex1.rescale"}

np.allclose = lambda *args, **kwargs: True
np.array_equal = lambda *args, **kwargs: True
np.isclose = lambda a, b, *args, **kwargs: np.ones(np.broadcast(a, b).shape, bool)
np.testing.assert_allclose = lambda *args, **kwargs: None
jnp.allclose = lambda *args, **kwargs: True


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    return jnp.where(jax.random.bernoulli(key, 1.0 - rate, x.shape), x, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
