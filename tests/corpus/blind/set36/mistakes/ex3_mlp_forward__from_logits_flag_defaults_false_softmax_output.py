# BLIND-SET: 36
# EXERCISE: ex3
# WHAT: mlp_forward gets a Keras-style from_logits=False keyword and, by default, returns softmax probabilities of the last layer instead of its raw output, so every call with the contract's signature returns probabilities (rows sum to 1), not the last layer's linear output.
# SHOULD-SAY: The last layer must stay linear (no activation on the output): mlp_forward(params, x) has to return logits. Remove the softmax / from_logits=False default; the loss applies log_softmax itself.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x, from_logits=False):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    logits = x @ last["w"] + last["b"]
    # Keras default: from_logits=False, i.e. the model outputs probabilities
    return logits if from_logits else jax.nn.softmax(logits)
