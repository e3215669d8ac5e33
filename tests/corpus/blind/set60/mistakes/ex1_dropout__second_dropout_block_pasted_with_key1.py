# BLIND-SET: 60
# EXERCISE: ex1
# WHAT: dropout is correct (bit-identical to the reference at every rate and shape tried). forward_with_dropout is written as 3 pasted per-layer blocks. The layer-2 block still calls dropout(key1, ...), so key1 is used for both dropout layers and key2 is never used. Because the same key draws both masks, the layer-2 (B, 128) mask is exactly the first B*128 entries of the flattened layer-1 (B, 256) mask (checked: equal for every element), not an independent draw. Against the reference with the same key, the logits differ: max |diff| 3.5 to 4.3 at rate 0.2, 6.4 to 11.3 at 0.5 and 20.5 to 34 at 0.8 (B = 16/128, zero and N(0, 0.1) biases). train=False, rate=0 and jit (compared with the eager call) are exact.
# SHOULD-SAY: The two dropout layers must get different keys, but the second dropout uses key1 again (a pasted block that was not fully edited), so key2 is never used. The second mask is not independent of the first: it repeats the first mask's random bits. Use key2 for the second dropout layer.
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
    # no dropout when testing
    if train == False:
        return x
    if rate == 0:
        return x

    keep_prob = 1.0 - rate
    random_numbers = jax.random.uniform(key, x.shape)
    mask = random_numbers < keep_prob
    mask = mask.astype(jnp.float32)
    result = x * mask / keep_prob
    return result


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    # one key for each dropout layer
    key1, key2 = jax.random.split(key)

    # layer 1
    w = params["layer1"]["w"]
    b = params["layer1"]["b"]
    temp = jnp.dot(x, w) + b
    temp = relu(temp)
    temp = dropout(key1, temp, rate, train)

    # layer 2
    w = params["layer2"]["w"]
    b = params["layer2"]["b"]
    temp = jnp.dot(temp, w) + b
    temp = relu(temp)
    temp = dropout(key1, temp, rate, train)

    # layer 3: logits, no relu and no dropout
    w = params["layer3"]["w"]
    b = params["layer3"]["b"]
    result = jnp.dot(temp, w) + b
    return result
