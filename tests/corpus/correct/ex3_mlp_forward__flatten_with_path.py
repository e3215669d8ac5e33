"""Depth and order read off jax.tree_util.tree_flatten_with_path, layer numbers parsed with a regex."""

import re

import jax


def _layers(params):
    by_number = {}
    for path, leaf in jax.tree_util.tree_flatten_with_path(params)[0]:
        layer_name, leaf_name = path[0].key, path[1].key
        number = int(re.fullmatch(r"layer(\d+)", layer_name).group(1))
        by_number.setdefault(number, {})[leaf_name] = leaf
    return [by_number[n] for n in sorted(by_number)]


def mlp_forward(params, x):
    layers = _layers(params)
    for layer in layers[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ layers[-1]["w"] + layers[-1]["b"]
