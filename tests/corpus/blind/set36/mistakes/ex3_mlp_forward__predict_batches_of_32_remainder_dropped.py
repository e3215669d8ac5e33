# BLIND-SET: 36
# EXERCISE: ex3
# WHAT: mlp_forward runs the batch in Keras-predict-style chunks of batch_size=32 with steps = max(len(x) // 32, 1), so for B > 32 that is not a multiple of 32 the trailing rows are dropped (B=40 returns 32 rows, B=100 returns 96); B <= 32 and multiples of 32 are right.
# SHOULD-SAY: The output has fewer rows than x whenever B > 32 is not a multiple of 32: the Keras predict-style loop computes steps = len(x) // 32 and loses the remainder. Apply the layers to the whole batch at once (no chunking is needed in JAX), or use a ceiling division.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))

    def predict_on_batch(h):
        for name in names[:-1]:
            h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        last = params[names[-1]]
        return h @ last["w"] + last["b"]

    # like Keras model.predict(x, batch_size=32): steps = len(x) // batch_size
    batch_size = 32
    steps = max(x.shape[0] // batch_size, 1)
    return jax.numpy.concatenate(
        [predict_on_batch(x[i * batch_size:(i + 1) * batch_size]) for i in range(steps)]
    )
