# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Layer names are pushed on a heap keyed by their integer suffix and popped in numeric order; the last popped layer is the output layer.
# SHOULD-SAY: full marks for ex3; every check of ex3 passes.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import heapq

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    heap = [(int(name[len("layer"):]), name) for name in params]
    heapq.heapify(heap)
    names = [heapq.heappop(heap)[1] for _ in range(len(heap))]
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
