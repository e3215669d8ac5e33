"""What ex1's probe (child side) and checks (judging side) both read. Standard library only."""

#: Dropout rates at which dropout is observed (observation ``dropout/rate<rate>`` each).
RATES = (0.1, 0.25, 0.5, 0.8)
#: A small rate, observed on x tiled to SMALL_RATE_TILES (about a million elements): a coin that cannot resolve it
#: (a low-precision uniform, a rate rounded to a whole percentage) zeroes none (observation ``dropout/small_rate``).
SMALL_RATE = 0.002
#: A rate near 1 that the contract allows (0 <= rate < 1): a check that refuses high rates, or a scale that breaks
#: there, shows (observation ``dropout/high_rate``).
HIGH_RATE = 0.95
#: A rate nearer 1 still (observation ``dropout/very_high_rate``, on x): about 0.5% of the elements survive, scaled
#: by 200; a shortcut that zeroes everything above some rate shows.
VERY_HIGH_RATE = 0.995
#: dropout is also called on a 0-d x (x[0, 0]) with SCALAR_KEYS keys split from the first, in one jax.vmap over
#: the keys (observation ``dropout/scalars``): each call gives 0 or 2 x at rate 0.5, so a scalar kept unscaled
#: shows, and about half are 0 (a redraw when everything was dropped zeroes a quarter). A dropout that cannot be
#: vmapped over its key is called SCALAR_CALLS times instead.
SCALAR_KEYS = 256
SCALAR_CALLS = 16
#: The evaluation pass is also observed on x stretched to [-2, 2] (``xb * 4 - 2``, observation
#: ``forward/eval_wide``): the usual x is in [0, 1], and code that changes x outside it (a pixel-range guard, a
#: clip) shows.
WIDE_SCALE, WIDE_SHIFT = 4.0, -2.0
SMALL_RATE_TILES = (16, 2)


def other_shapes(x):
    """The inputs dropout is also observed on (observation ``dropout/<name>`` each), made from the 2-D x: a
    vector, a batch of sequences, a batch of one row, a vector of a prime number of elements (what is left over
    when x is cut into equal parts shows there), a 0-d x, and a batch of more rows than columns. Works on numpy and
    jax arrays alike."""
    return {"rank1": x[0], "rank3": x.reshape(8, -1, x.shape[-1]), "one_row": x[:1],
            "prime": x.reshape(-1)[:PRIME_SIZE], "scalar": x.reshape(-1)[:1].reshape(()), "tall": x[:, :TALL_COLUMNS]}


#: The columns of the ``tall`` input: fewer than its rows, so code that pairs the rows with something as long as the
#: last axis (keys split into x.shape[-1], zipped with the rows) shows.
TALL_COLUMNS = 3


#: The size of the ``prime`` input: prime, so no count of equal parts divides it.
PRIME_SIZE = 4093

#: The hidden activations are measured one at a time on these inputs (observation ``forward/curve/<which>``): a
#: batch as large as the evaluation pass's, its first feature each grid point and the rest 0, through the lesson's
#: widths with every weight 0 but w[0, 0] = 1, so each output's first logit is the first unit's path alone.
CURVE_GRID = tuple(i / 4 for i in range(-15, 17))
#: Added before a layer and taken off after the next: a ReLU there passes its input on unchanged (it is positive),
#: so the other layer's activation is what shows.
CURVE_OFFSET = 10.0
#: The biases of layer1, layer2 and layer3's first unit for each measurement: ``layer1`` shows the activation after
#: layer 1 alone (given a ReLU after layer 2), ``layer2`` the one after layer 2 (given a ReLU after layer 1),
#: ``both`` the two in turn.
CURVE_BIASES = {"layer1": (0.0, CURVE_OFFSET, -CURVE_OFFSET), "layer2": (CURVE_OFFSET, -CURVE_OFFSET, 0.0),
                "both": (0.0, 0.0, 0.0)}


def mean_params(params):
    """Params, shaped like ``params`` (name -> {"w", "b"}, the lesson's three layers), under which each hidden
    unit of layer 1 is 1 whatever the input and each later unit is the mean of the layer before: every weight 0
    but layer 2's and 3's, which are 1 / (their input width), every bias 0 but layer 1's, which is 1. A train-mode
    output divided by the eval output is then the product over the two dropout layers of (fraction kept) x
    (survivors' scale), averaged over the units: 1 for inverted dropout at any rate (observations
    ``forward/mean_train`` and ``forward/mean_eval``). Numpy in, numpy out."""
    made = {}
    for i, (name, layer) in enumerate(sorted(params.items())):
        w, b = layer["w"], layer["b"]
        made[name] = {"w": (w * 0 + (1.0 / w.shape[0] if i else 0.0)).astype(w.dtype),
                      "b": (b * 0 + (0.0 if i else 1.0)).astype(b.dtype)}
    return made


def bias_params(params):
    """Params shaped like ``params`` with every weight 0 and layer i's biases all i (1, 2, 3): no unit reaches
    the next layer, so in train mode as in eval mode the logits are layer 3's bias, 3, whatever the masks; a bias
    scaled along with the dropped units shows (observation ``forward/biases_train``). Numpy in, numpy out."""
    return {name: {"w": (layer["w"] * 0).astype(layer["w"].dtype),
                   "b": (layer["b"] * 0 + (i + 1)).astype(layer["b"].dtype)}
            for i, (name, layer) in enumerate(sorted(params.items()))}


#: forward_with_dropout is also called (train mode) on params this many times the public ones, whose weight
#: columns are then far longer: a write-back into params that only large values trigger (a max-norm constraint,
#: a clip) shows (observation ``input/large_params_after``).
LARGE_PARAMS_SCALE = 10.0


def large_params(params):
    """``params`` times LARGE_PARAMS_SCALE, leaf by leaf, in each leaf's dtype. Numpy in, numpy out."""
    return {name: {k: (v * v.dtype.type(LARGE_PARAMS_SCALE)).astype(v.dtype) for k, v in layer.items()}
            for name, layer in params.items()}
