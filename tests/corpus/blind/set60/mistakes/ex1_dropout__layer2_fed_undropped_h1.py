# BLIND-SET: 60
# EXERCISE: ex1
# WHAT: dropout is correct (bit-identical to the reference). forward_with_dropout names each stage (h1, d1, h2, d2), but layer 2 is computed from h1, the ReLU output before dropout, instead of d1. The first dropout's result d1 is never used, so the network has dropout only after the second hidden layer. The output equals relu(relu(x w1 + b1) w2 + b2), dropped with key2, then @ w3 + b3: checked, max |diff| 0. Against the reference the logits differ by max |diff| 2.0 to 2.8 at rate 0.2, 7.9 to 8.2 at 0.5 and 20 to 29 at 0.8 (B = 16/128, zero and N(0, 0.1) biases). train=False and rate=0 equal forward exactly, and jit matches eager.
# SHOULD-SAY: Dropout must act after both hidden ReLUs, but the second layer is fed h1 (the activations before dropout) instead of d1. The first dropout layer's output is never used, so there is effectively no dropout after layer 1. Feed d1 into layer 2.
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

    keep_prob = 1.0 - rate
    random_numbers = jax.random.uniform(key, x.shape)
    # True/False for every element, then turned into 1.0/0.0
    mask = (random_numbers < keep_prob).astype(jnp.float32)
    scale = 1.0 / keep_prob
    result = x * mask * scale
    return result


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    keys = jax.random.split(key, 2)
    key1 = keys[0]
    key2 = keys[1]

    w1 = params["layer1"]["w"]
    b1 = params["layer1"]["b"]
    w2 = params["layer2"]["w"]
    b2 = params["layer2"]["b"]
    w3 = params["layer3"]["w"]
    b3 = params["layer3"]["b"]

    # hidden layer 1
    h1 = relu(jnp.dot(x, w1) + b1)
    d1 = dropout(key1, h1, rate, train)

    # hidden layer 2
    h2 = relu(jnp.dot(h1, w2) + b2)
    d2 = dropout(key2, h2, rate, train)

    # output layer
    logits = jnp.dot(d2, w3) + b3
    return logits
