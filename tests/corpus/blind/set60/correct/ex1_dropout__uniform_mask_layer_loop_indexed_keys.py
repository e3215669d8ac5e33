# BLIND-SET: 60
# EXERCISE: ex1
# WHAT: correct: dropout returns x itself when train == False or rate == 0; otherwise it draws jax.random.uniform(key, x.shape), keeps elements below keep_prob = 1 - rate (the same bits as the reference's bernoulli mask), turns the mask into float32 and returns x * mask * (1/keep_prob). forward_with_dropout splits the key into 2, loops over [layer1, layer2, layer3] with range(len(...)), and applies a hand-written ReLU (jnp.maximum) plus dropout(keys[i]) only when i < 2. Measured bit-identical to the reference (max |diff| 0) for dropout at rates 0.1/0.3/0.5/0.8 with 2 keys on (300, 200), (2, 3, 4), (50,) and (7, 9) inputs, and for forward_with_dropout at B = 16/128, rates 0.2/0.5/0.8, with zero and N(0, 0.1) biases. Under jit (rate/train static) it is also bit-identical. train=False and rate=0 return the input object itself, and eval mode equals forward exactly.
# SHOULD-SAY: full marks
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
    # my own ReLU: every negative number becomes 0
    return jnp.maximum(values, 0.0)


def dropout(key, x, rate, train=True):
    # when we are not training there is no dropout at all
    if train == False:
        return x
    # nothing to drop
    if rate == 0:
        return x

    keep_prob = 1.0 - rate

    # one random number between 0 and 1 for every element of x
    random_numbers = jax.random.uniform(key, x.shape)

    # keep the element when its random number is below keep_prob
    mask = random_numbers < keep_prob
    mask = mask.astype(jnp.float32)

    # the ones we keep get bigger so the average stays the same
    scale = 1.0 / keep_prob
    result = x * mask * scale
    return result


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    # two dropout layers, so two keys
    keys = jax.random.split(key, 2)

    layer_names = ["layer1", "layer2", "layer3"]
    h = x
    for i in range(len(layer_names)):
        name = layer_names[i]
        w = params[name]["w"]
        b = params[name]["b"]
        h = jnp.dot(h, w) + b
        # the last layer gives the logits: no relu and no dropout there
        if i < len(layer_names) - 1:
            h = relu(h)
            h = dropout(keys[i], h, rate, train)
    return h
