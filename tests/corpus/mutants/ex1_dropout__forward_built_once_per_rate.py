"""forward_with_dropout builds its pass once per rate with functools.lru_cache, closing over the train flag of the
call that built it: the grader's first call (train=False, rate 0.5) builds the evaluation pass, and every later
call at rate 0.5, train mode included, runs it. The report measures train mode at rate 0.5 as exactly the
evaluation output, with no random draw."""

import functools

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.placement", "mistake": "ex1.train_mode_is_eval", "max_failing": 1,
          "also": ["ex1.separate_keys", "ex1.forward_keys"], "hint": "key it on train as well as rate"}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


_TRAIN = [True]


@functools.lru_cache(maxsize=None)
def _built(rate):
    train = _TRAIN[0]

    def run(params, x, key):
        key1, key2 = jax.random.split(key)
        h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
        h = dropout(key1, h, rate, train)
        h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
        h = dropout(key2, h, rate, train)
        return h @ params["layer3"]["w"] + params["layer3"]["b"]
    return run


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    _TRAIN[0] = train
    return _built(rate)(params, x, key)
