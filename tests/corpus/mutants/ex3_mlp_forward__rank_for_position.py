"""Each name's rank among the layer numbers is used as the position to read from, names[rank], where the name
of rank i belongs at position i: the inverse permutation. That is right when the dict lists its layers in order or
backwards (both undo themselves), and wrong for the listing jax.jit gives (keys sorted as text)."""

import jax

EXPECT = {"check": "ex3.jit", "mistake": "ex3.listing_order", "hint": "however the dict lists them",
          "max_failing": 1}


def mlp_forward(params, x):
    names = list(params)
    numbers = [int(name[len("layer"):]) for name in names]
    ranks = [sorted(numbers).index(n) for n in numbers]
    ordered = [names[r] for r in ranks]
    for j, name in enumerate(ordered):
        x = x @ params[name]["w"] + params[name]["b"]
        if j < len(ordered) - 1:
            x = jax.nn.relu(x)
    return x
