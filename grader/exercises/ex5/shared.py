"""What ex5's probe (child side) and checks (judging side) both read. Standard library only."""

#: (name, args, kwargs) of the make_optimizer calls observed (observation ``opt/<name>`` each).
OPTIMIZERS = (
    ("default", (), {}),
    ("custom", (), {"learning_rate": 0.01, "max_norm": 0.3}),
    ("positional", (0.05, 5.0), {}),
    # One argument at a time, after the default: a learning rate below the default (a cap on it shows), and
    # max_norm alone (an optimizer cached by the learning rate alone comes back from the default's call).
    ("lr_only", (), {"learning_rate": 3e-4}),
    ("max_norm_only", (), {"max_norm": 0.3}),
    # A learning rate of 0, which nothing moves with: a 0 taken for a missing value (learning_rate or 1e-3) shows.
    ("lr_zero", (), {"learning_rate": 0.0}),
    # A learning rate far above the others (Adam's steps are then about 1 each): a cap or clamp on it shows.
    ("lr_large", (), {"learning_rate": 1.0}),
)
#: make_optimizer's defaults, as the contract gives them.
DEFAULT_LR, DEFAULT_MAX_NORM = 1e-3, 1.0


def lr_and_max_norm(name: str) -> tuple[float, float]:
    """The learning rate and max_norm the ``opt/<name>`` call of :data:`OPTIMIZERS` asks for."""
    for config_name, args, kwargs in OPTIMIZERS:
        if config_name == name:
            return (kwargs.get("learning_rate", args[0] if args else DEFAULT_LR),
                    kwargs.get("max_norm", args[1] if len(args) > 1 else DEFAULT_MAX_NORM))
    raise KeyError(name)


def arguments(name: str) -> str:
    """The arguments of the ``opt/<name>`` call of :data:`OPTIMIZERS` in Python, as a student would write them."""
    for config_name, args, kwargs in OPTIMIZERS:
        if config_name == name:
            return ", ".join([f"{a:g}" for a in args] + [f"{k}={v:g}" for k, v in kwargs.items()])
    raise KeyError(name)


def written(name: str) -> str:
    """The ``opt/<name>`` call of :data:`OPTIMIZERS` in Python."""
    return f"make_optimizer({arguments(name)})"


#: make_optimizer(max_norm=LARGE_MAX_NORM) is also observed on the gradients scaled by as much
#: (``opt/large_max_norm``): a clip by the global norm is then the default's clip scaled, and so are its updates.
LARGE_MAX_NORM = 1000.0
#: make_optimizer(max_norm=NEAR_MAX_NORM) is also observed on the usual gradients (``opt/near_max_norm``), whose
#: ordinary steps have norm 0.5, 2% above it: each is clipped by a little, and a clip that lets small overshoots
#: through (a tolerance on the comparison) shows.
NEAR_MAX_NORM = 0.49
#: The step is also run with optax.sgd(ASCENT_LR), a gradient ascent whose update raises the loss for sure
#: (``step/ascent``): a step that applies the optimizer's update only when the loss falls shows.
ASCENT_LR = -0.1
#: The step of the gradient sequence whose norm spikes.
SPIKE_STEP = 3
SGD_LR = 0.1
#: Steps of clip+Adam chained (each given the params and state the previous returned).
CHAINED_STEPS = 3

#: make_optimizer()'s updates are also observed with params this many times larger (``opt/large_params``):
#: clipping and Adam never read the params, so the updates must be the same; weight decay shows there.
LARGE_PARAMS = 10_000.0
#: How many times make_optimizer has been called when it is called once more with no arguments (``opt/again``):
#: the calls of :data:`OPTIMIZERS`, ``opt/large_max_norm``, ``opt/near_max_norm``, ``opt/large_params`` and
#: ``opt/zero_grads`` come before it. That optimizer is run again after the next call has made another with the arguments of
#: ``OPTIMIZERS[1]`` (``opt/after_another``).
AGAIN_CALL = len(OPTIMIZERS) + 5
