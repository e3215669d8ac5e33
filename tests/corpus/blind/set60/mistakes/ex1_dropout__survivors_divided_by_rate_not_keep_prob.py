# BLIND-SET: 60
# EXERCISE: ex1
# WHAT: dropout keeps the reference's mask (uniform < 1 - rate, the same bits) but divides the survivors by drop_prob (= rate) instead of keep_prob (= 1 - rate). The two variables sit next to each other and the wrong one is used. The survivor/x ratio is 10 instead of 1.111 at rate 0.1, 3.333 instead of 1.4286 at 0.3, and 1.25 instead of 5 at 0.8. At rate 0.5 (also forward_with_dropout's default) the two are the same, so the output is bit-identical there. Max |diff| on N(0,1) (300, 200) inputs is 38.9 at rate 0.1, 8.3 at 0.3, 15.4 to 16.4 at 0.8, and 0 at 0.5. On forward_with_dropout logits (B = 16/128) it is 76 to 93 at rate 0.2, 20 to 35 at 0.8, and 0 at 0.5. The zero pattern and fraction, the dtype, train=False, rate=0 (the input returned itself), jit and eval mode are all exact.
# SHOULD-SAY: The dropped fraction is right, but the survivors are not scaled by 1/(1 - rate): the code divides by rate (drop_prob) instead of keep_prob. The two happen to agree only at rate 0.5, so at 0.1 survivors are multiplied by 10 instead of about 1.11, and the expected value of the output is no longer x. Divide by keep_prob = 1 - rate.
"""Exercise 1: dropout with split PRNG keys."""

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


# --- My code ------------------------------------------------------------------


def relu(values):
    # negative numbers become 0
    return jnp.maximum(values, 0.0)


def dropout(key, x, rate, train=True):
    if train == False or rate == 0:
        return x

    drop_prob = rate
    keep_prob = 1 - drop_prob

    # a random number in [0, 1) for each element
    temp = jax.random.uniform(key, x.shape)
    # 1.0 where we keep the element, 0.0 where we drop it
    mask = jnp.where(temp < keep_prob, 1.0, 0.0)

    # inverted dropout: make the kept ones bigger
    result = x * mask / drop_prob
    return result


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)

    # layer 1
    w = params["layer1"]["w"]
    b = params["layer1"]["b"]
    h = jnp.dot(x, w) + b
    h = relu(h)
    h = dropout(key1, h, rate, train)

    # layer 2
    w = params["layer2"]["w"]
    b = params["layer2"]["b"]
    h = jnp.dot(h, w) + b
    h = relu(h)
    h = dropout(key2, h, rate, train)

    # layer 3 (the logits)
    w = params["layer3"]["w"]
    b = params["layer3"]["b"]
    result = jnp.dot(h, w) + b
    return result
