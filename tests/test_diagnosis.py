"""Diagnosis from measurements: judges fed synthetic observations in-process (no child, no JAX run).

A "student" here is a numpy function. Its observations are computed the way
the ex3 probe records them (the cases, the measurement networks, the first k
layers of the 12-layer case), so each test shows what the judge says about a
behaviour it has never been told the name of, and that it names a mistake
only when the measurement shows it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from grader.checks import Context, npref
from grader.checks.registry import judge_alone
from grader.exercises.ex1 import checks as ex1
from grader.exercises.ex3 import checks as ex3
from grader.checks.common import NUMPY_ON_TRACER, crash_hint, crash_kind
from grader.inputs import build
from grader.observations import ObservationError, Observations

INPUTS = build()


def _mlp(act=npref.relu, out_act=None, bias=True, bias_scale=1.0, transpose=False, order="numeric"):
    """A forward pass with one property changed, as a student would write it."""
    def forward(params, x):
        h = np.asarray(x, np.float64)
        names = npref.layer_names(params, order)
        for i, name in enumerate(names):
            w = np.asarray(params[name]["w"], np.float64)
            h = h @ (w.T if transpose else w) + (bias_scale * np.asarray(params[name]["b"]) if bias else 0.0)
            if i < len(names) - 1:
                h = act(h)
        return out_act(h) if out_act else h
    return forward


def _observe(forward) -> Observations:
    """What the ex3 probe records for ``forward`` (errors as the recorder would report them)."""
    values, errors = {}, {}

    def record(name, fn):
        try:
            values[name] = fn()
        except Exception as exc:  # noqa: BLE001 - recorded as the child does
            errors[name] = ObservationError(type(exc).__name__, str(exc))

    cases = INPUTS["ex3"]
    for case, c in cases.items():
        record(f"out/{case}", lambda c=c: forward(c["params"], c["x"]))
        values[f"input/params_after/{case}"] = {f"{n}/{k}": v for n, layer in c["params"].items()
                                                for k, v in layer.items()}
    for name, c in npref.measurement_cases().items():
        record(f"measure/{name}", lambda c=c: forward(c["params"], c["x"]))
    try:
        values["measure/swapped/d3"] = np.asarray(forward(cases["d3"]["x"], cases["d3"]["params"]))
    except Exception:  # noqa: BLE001 - kept only when it works, as the probe does
        pass
    deep = cases["d12"]
    for k in range(1, 13):
        record(f"measure/prefix{k}", lambda k=k: forward(npref.prefix(deep["params"], k), deep["x"]))
    return Observations(values, errors)


REFERENCE = _observe(_mlp())


def _verdict(forward, check_id="ex3.depths"):
    return judge_alone(check_id, Context(_observe(forward), REFERENCE, INPUTS))


def test_the_right_forward_pass_measures_nothing_wrong():
    ctx = Context(REFERENCE, REFERENCE, INPUTS)
    assert ex3.measure(ctx) == []
    assert ex3.depths(ctx).passed and judge_alone("ex3.deep", ctx).passed


@pytest.mark.parametrize("act, words", [
    (npref.gelu, "negative just below 0"),
    (npref.softplus, "positive just below 0"),
    (lambda z: np.where(z > 0, z, 0.1 * z), "leaky ReLU (slope 0.1"),
    (np.abs, "it is not ReLU"),
])
def test_an_unknown_activation_is_described_by_its_curve_and_named_by_no_mistake(act, words):
    verdict = _verdict(_mlp(act=act))
    assert not verdict.passed
    assert "the hidden activation, sampled from -3 to 3, is" in verdict.message and words in verdict.message
    assert verdict.mistake == ""  # measured, but no known mistake id fits
    assert "ReLU (jax.nn.relu)" in verdict.hint


def test_a_skip_connection_is_not_taken_for_another_activation():
    def residual(params, x):  # h + relu(h @ w + b) wherever the widths allow it
        h = np.asarray(x, np.float64)
        names = npref.layer_names(params, "numeric")
        for name in names[:-1]:
            z = npref.relu(h @ np.asarray(params[name]["w"], np.float64) + params[name]["b"])
            h = h + z if z.shape == h.shape else z
        last = params[names[-1]]
        return h @ np.asarray(last["w"], np.float64) + last["b"]

    verdict = _verdict(residual, "ex3.deep")
    assert not verdict.passed and verdict.mistake == ex3.SKIP_CONNECTION.id, verdict
    assert "x + relu(x)" in verdict.message and "not ReLU" not in verdict.message + verdict.hint


def test_gelu_is_named_by_its_curve():
    verdict = _verdict(_mlp(act=npref.gelu))
    assert "it is GELU" in verdict.message and "smooth" in verdict.message
    assert "0 at 0" in verdict.message and "at -0.5 it gives -0.154" in verdict.message


def test_two_mistakes_are_both_measured_and_neither_is_named_alone():
    """sigmoid plus a doubled bias: no numpy variant matches the outputs, the measurements still tell both."""
    verdict = _verdict(_mlp(act=npref.sigmoid, bias_scale=2.0))
    assert "(2 times b)" in verdict.message and "it is a sigmoid" in verdict.message
    assert verdict.mistake == ""  # two findings: naming one would tell half the story
    assert ex3.SIGMOID.hint in verdict.hint and "adds its own bias once" in verdict.hint


def test_a_single_known_mistake_is_named_when_only_the_measurement_sees_it():
    verdict = _verdict(_mlp(act=npref.sigmoid))
    assert verdict.mistake == ex3.SIGMOID.id  # (the numpy variant matches too: both agree)
    findings = ex3.measure(Context(_observe(_mlp(act=np.tanh, bias=False)), REFERENCE, INPUTS))
    assert [f.mistake for f in findings] == [ex3.NO_BIAS, ex3.TANH]


def test_doubled_bias_is_measured():
    verdict = _verdict(_mlp(bias_scale=2.0))
    assert "one layer on x = 0 returned" in verdict.message and "(2 times b)" in verdict.message
    assert verdict.mistake == ""


def test_transposed_weights_measured_on_a_square_layer():
    verdict = _verdict(_mlp(transpose=True))
    assert verdict.mistake == ex3.TRANSPOSED.id
    assert "applied w.T" in verdict.message


def test_relu_on_the_output_is_measured_on_one_layer():
    assert ex3.measure(Context(_observe(_mlp(out_act=npref.relu)), REFERENCE, INPUTS))[0].mistake is ex3.OUTPUT_RELU


def test_a_depths_pass_that_excuses_an_output_activation_says_so():
    """The activation is charged once, in output_linear; depths passes, and says what it let through."""
    def relu_on_one_layer(params, x):
        out = _mlp()(params, x)
        return npref.relu(out) if len(params) == 1 else out

    one_layer = _verdict(relu_on_one_layer)
    assert one_layer.passed and "the output of 1 layer, widths" in one_layer.message
    assert "2 layers" not in one_layer.message and "ex3.output_linear" in one_layer.message
    everywhere = _verdict(_mlp(out_act=npref.relu))
    assert everywhere.passed and "every output has an activation on it" in everywhere.message
    assert _verdict(_mlp()).message == ""


def _listed_order(params, x):
    """Layers in the order the dict lists them, each weight's width asserted first (a backwards dict raises)."""
    h = np.asarray(x, np.float64)
    for i, layer in enumerate(params.values()):
        assert np.shape(layer["w"])[0] == h.shape[-1], "the weight does not fit"
        h = h @ np.asarray(layer["w"], np.float64) + np.asarray(layer["b"])
        h = npref.relu(h) if i < len(params) - 1 else h
    return h


def _with_jit(observations: Observations, order: str) -> Observations:
    """The 12-layer case as jax.jit would run the forward pass: its dict's keys sorted (``order``)."""
    deep = INPUTS["ex3"]["d12"]
    jitted = npref.mlp(deep["params"], np.asarray(deep["x"], np.float64), order=order)
    return Observations({**observations.values, "jit/d12": jitted}, observations.errors)


def test_a_crash_only_where_the_dict_lists_layers_backwards_is_the_dict_order():
    ctx = Context(_with_jit(_observe(_listed_order), "string"), REFERENCE, INPUTS)
    verdict = judge_alone("ex3.depths", ctx)
    assert verdict.mistake == ex3.DICT_ORDER.id and "the only case that failed lists the layers" in verdict.message


def test_a_crash_at_one_depth_alone_is_not_taken_for_the_dict_order():
    """The same single failing case, but jax.jit runs the layers in numeric order: nothing says the order matters."""
    def five_layers_refused(params, x):
        assert len(params) != 5, "five layers are not supported"
        return _mlp()(params, x)

    ctx = Context(_with_jit(_observe(five_layers_refused), "numeric"), REFERENCE, INPUTS)
    verdict = judge_alone("ex3.depths", ctx)
    assert not verdict.passed and verdict.mistake != ex3.DICT_ORDER.id
    assert "dict lists the layers in" not in verdict.message


def test_string_order_is_found_at_the_tenth_layer():
    findings = ex3.measure(Context(_observe(_mlp(order="string")), REFERENCE, INPUTS))
    assert [f.mistake for f in findings] == [ex3.STRING_ORDER]
    assert findings[0].text.startswith("the first 9 layers agree; with 10 layers")


def test_a_layer_that_never_runs_is_located():
    def renumbered(params, x):
        names = npref.layer_names(params)
        return _mlp()({n: params[n] for n in names if n != "layer4"}, x)

    findings = ex3.measure(Context(_observe(renumbered), REFERENCE, INPUTS))
    assert findings and findings[0].text.startswith("the first 3 layers agree; with 4 layers the output equals "
                                                    "that of the first 3: layer4 did not run")
    assert findings[0].mistake is None


def test_a_skipped_hidden_layer_is_not_taken_for_a_missing_activation():
    def last_hidden_skipped(params, x):  # the activation curve of a one-hidden-layer network is then the identity
        names = npref.layer_names(params)
        return _mlp()({n: params[n] for n in names if n != names[-2]} if len(names) > 1 else params, x)

    findings = ex3.measure(Context(_observe(last_hidden_skipped), REFERENCE, INPUTS))
    assert findings and findings[0].mistake is None
    assert "layer1 has no effect on it" in findings[0].text
    assert ex3.measure(Context(_observe(_mlp(act=lambda z: z)), REFERENCE, INPUTS))[0].mistake is ex3.NO_ACTIVATION


def test_parameters_in_the_order_x_params_are_measured_by_calling_them_that_way():
    right = _mlp()

    def swapped(x, params):
        return right(params, x)

    verdict = _verdict(swapped)
    assert verdict.mistake == ex3.ARGS_SWAPPED.id and "called as mlp_forward(x, params) instead" in verdict.message
    ctx = Context(REFERENCE, REFERENCE, INPUTS)
    assert ex3.depths(ctx).passed  # the right order: its swapped call fails and is not kept


# --- ex1 -------------------------------------------------------------------------------------------------


def _ex1_ctx(values: dict, errors: dict | None = None) -> Context:
    """ex1's forward observations; no masks seen unless given (the draws are judged then)."""
    return Context(Observations({"forward/masks": [], **values}, errors or {}), Observations(), INPUTS)


def _applied(keys, shape, data_min=0.0, rows=0.5, columns=0.5):
    return {"shape": shape, "keys": keys, "data_min": data_min, "kept": 0.5, "row_agreement": rows,
            "column_agreement": columns}


def _draw(keys, out_shape, shape=None):
    return {"op": "bits", "key": [w for k in keys for w in k], "keys": keys, "shape": shape or out_shape[-1:],
            "out_shape": out_shape}


def test_per_example_masks_under_vmap_pass_placement_and_separate_keys():
    b = INPUTS["ex1"]["xb"].shape[0]
    layer1, layer2 = [[i, 1] for i in range(b)], [[i, 2] for i in range(b)]
    uses = [_draw(layer1, [b, 256], [256]), _draw(layer2, [b, 128], [128])]
    ctx = _ex1_ctx({"forward/key_uses": uses, "forward/train": np.ones((b, 10))})
    assert ex1.placement(ctx).passed
    assert ex1.separate_keys(ctx).passed


def test_a_key_shared_by_the_examples_is_reused():
    b = INPUTS["ex1"]["xb"].shape[0]
    uses = [_draw([[7, 7]] * b, [b, 256], [256]), _draw([[i, 2] for i in range(b)], [b, 128], [128])]
    verdict = ex1.separate_keys(_ex1_ctx({"forward/key_uses": uses}))
    assert verdict.mistake == ex1.REUSED_KEY.id and "mask 1 used one key for several examples" in verdict.message


def test_a_mask_on_the_input_is_placed_wrong():
    b = INPUTS["ex1"]["xb"].shape[0]
    uses = [_draw([[1, 0]], [b, 784]), _draw([[1, 1]], [b, 256]), _draw([[1, 2]], [b, 128])]
    verdict = ex1.placement(_ex1_ctx({"forward/key_uses": uses, "forward/train": np.ones((b, 10))}))
    assert verdict.mistake == ex1.PLACEMENT.id and "the input (B, 784)" in verdict.message


def test_dropout_with_its_parameters_swapped_is_named_from_the_swapped_call():
    x = INPUTS["ex1"]["x"]
    rng = np.random.default_rng(0)
    swapped = np.where(rng.random(x.shape) < 0.5, 2 * x, 0.0)
    error = ObservationError("TypeError", "JAX encountered invalid PRNG key data")
    names = [f"dropout/rate{r}" for r in ex1.RATES]
    verdict = ex1.zero_fraction(_ex1_ctx({"dropout/swapped": swapped}, {n: error for n in names}))
    assert verdict.mistake == ex1.ARGS_SWAPPED.id
    assert "called as dropout(x, key, 0.5) instead" in verdict.message and "scaled by 2" in verdict.message
    # Without that measurement the crash stays a crash: no mistake is guessed from its text.
    with pytest.raises(Exception) as raised:
        ex1.zero_fraction(_ex1_ctx({}, {n: error for n in names}))
    assert type(raised.value).__name__ == "StudentError"


def test_a_forward_pass_calling_dropout_in_the_other_order_is_named_by_the_error_type():
    assert ex1.forward_error_hint(ObservationError("DropoutArgumentOrder", "...")) is ex1.FORWARD_ARGS_SWAPPED


# --- crash wording ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("error, kind", [
    (ObservationError("TracerArrayConversionError", "The numpy.ndarray conversion method ... shape mismatch"), NUMPY_ON_TRACER.id),
    (ObservationError("ConcretizationTypeError", "Abstract tracer value ..."), "python_on_tracer"),
    (ObservationError("TracerBoolConversionError", "..."), "python_on_tracer"),
    (ObservationError("TypeError", "dot_general requires contracting dimensions", kind="shape"), "shape"),
    (ObservationError("TypeError", "f() takes 2 positional arguments", kind="signature"), "signature"),
    (ObservationError("TypeError", "has the word shape but no kind"), ""),
    (ObservationError("ValueError", "x", kind="invented_by_the_child"), ""),
])
def test_crash_kind_is_read_from_data(error, kind):
    assert crash_kind(error) == kind


def test_ex3_names_numpy_on_a_tracer_not_a_shape_problem():
    error = ObservationError("TracerArrayConversionError", "shape (5, 20) ... dot_general", kind="numpy_on_tracer")
    assert ex3.error_hint(error) is NUMPY_ON_TRACER
    assert "shapes did not fit" in ex3.error_hint(ObservationError("TypeError", "...", kind="shape"))
    assert "A reshape failed" in ex3.error_hint(ObservationError("TypeError", "...", kind="reshape"))
    assert "before any line of your function ran" in crash_hint(ObservationError("TypeError", "", kind="signature"))


def test_the_child_classifies_real_exceptions():
    import time

    import jax
    import jax.numpy as jnp

    from grader.harness.recorder import crash_kind as child_kind

    def kind_of(fn, where="/nowhere"):
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - the exception is the subject
            return child_kind(exc, where)
        raise AssertionError("did not raise")

    assert kind_of(lambda: jax.jit(lambda v: np.asarray(v))(jnp.ones(3))) == "numpy_on_tracer"
    assert kind_of(lambda: jax.vmap(lambda v: 1 if v > 0 else 0)(jnp.ones(3))) == "python_on_tracer"
    # under jit JAX names the argument the value came from: a flag the student left traced, or an array
    assert kind_of(lambda: jax.jit(lambda v: 1 if v.sum() > 0 else 0)(jnp.ones(3))) == "traced_argument"
    assert kind_of(lambda: jax.jit(lambda v, train: v if train else -v)(jnp.ones(3), True)) == "traced_argument"
    assert kind_of(lambda: jnp.ones((2, 3)) + jnp.ones((4,))) == "shape"
    assert kind_of(lambda: jnp.ones((5, 20)).reshape(-1, 784), where=str(Path(__file__).parent)) == "reshape"
    assert kind_of(lambda: jnp.split(jnp.ones((5, 784)), 2), where=str(Path(__file__).parent)) == "uneven_split"
    assert kind_of(lambda: np.split(np.ones(5), 2), where=str(Path(__file__).parent)) == "uneven_split"
    assert kind_of(lambda: jnp.tensordot(jnp.ones((5, 20)), jnp.ones((20, 7)))) == "axes_contracted"
    assert kind_of(lambda: jnp.ones((5, 20)) @ jnp.ones((16, 7))) == "shape"
    split_key = jnp.split(jax.random.PRNGKey(0), 2)[0]
    assert kind_of(lambda: jax.random.normal(split_key, (3,))) == "invalid_key"
    one_of_two = jnp.split(jax.random.split(jax.random.PRNGKey(0)), 2)[0]  # shape (1, 2): a batch of one key
    assert kind_of(lambda: jax.random.bernoulli(one_of_two, 0.5, (3,))) == "key_batch"
    assert kind_of(lambda: jax.random.split(one_of_two)) == "key_batch"
    assert kind_of(lambda: jax.grad(lambda v: v * 2)(jnp.ones(3))) == "grad_not_scalar"
    assert kind_of(lambda: (lambda a, b: a)(1)) == "signature"
    assert kind_of(lambda: jax.vmap(lambda p, v: p @ v)(jnp.ones((3, 4)), jnp.ones((5, 4)))) == "vmap_sizes"
    assert kind_of(lambda: jnp.stack([jnp.ones((3, 4)), jnp.ones((4, 2))])) == "stack_shapes"
    assert kind_of(lambda: jax.lax.scan(lambda c, w: (c @ w, None), jnp.ones(3), jnp.ones((2, 3, 4)))) == "scan_carry"
    here = str(Path(__file__).parent)  # this file stands for the submission: its frames are the student's
    assert kind_of(lambda: (lambda a, b: a)(1), where=here) == "call_did_not_fit"
    assert kind_of(_refuses, where=here) == "own_raise" and kind_of(_refuses) == ""
    assert kind_of(_unpacks_three, where=here) == "unpack"
    assert kind_of(lambda: {jnp.ones(2): 1}, where=here) == "unhashable"
    assert kind_of(lambda: {{"w": 1}}, where=here) == "unhashable"
    assert kind_of(lambda: time.perf_counter() - time.perf_counter, where=here) == "function_not_called"
    assert kind_of(lambda: len - 1, where=here) == "function_not_called"
    assert kind_of(lambda: (1, 2).init, where=here) == "no_attribute"
    assert kind_of(lambda: jax.jit(lambda v: v.block_until_ready())(jnp.ones(3)), where=here) == "tracer_method"
    for kind in ("call_did_not_fit", "own_raise", "unpack", "no_attribute", "tracer_method", "traced_argument",
                 "function_not_called", "uneven_split", "axes_contracted", "invalid_key", "key_batch",
                 "grad_not_scalar", "unhashable"):
        assert crash_hint(ObservationError("TypeError", "", kind=kind)), kind


def test_a_result_the_probe_refuses_is_said_as_the_result_not_as_a_raise():
    """A step returning four values: the probe refuses the result; nothing raised inside the student's code."""
    from types import SimpleNamespace

    from grader.engine import _student_error
    from grader.exercises.ex5 import checks as ex5
    from grader.exercises.ex5.probe import StepReturnedOtherCount, _as_returned
    from grader.harness.recorder import Recorder

    with pytest.raises(StepReturnedOtherCount) as refused:
        _as_returned(({}, (), 1.0, 2.0))
    error = ObservationError.from_record(Recorder(Path("/nowhere")).describe(refused.value))
    assert error.kind == "result_does_not_fit"
    assert "4 values" in error.message
    assert ex5.error_hint(error) is ex5.STEP_COUNT
    check = next(c for c in ex5.CHECKS if c.id == "ex5.step_values")
    run = SimpleNamespace(result=SimpleNamespace(seconds=0.0))
    result = _student_error(check, 3.0, run, error)
    assert result.message.startswith("make_train_step: the step returned a tuple of 4 values") and "raised" not in \
        result.message
    assert result.mistake == ex5.STEP_COUNT.id


def test_a_gradient_factor_of_one_over_a_whole_number_is_said_as_a_division():
    from grader.exercises.ex2 import checks as ex2

    assert ex2._one_over(1 / 128) == " (1/128: divided by 128, the lesson batch size)"
    assert ex2._one_over(1 / 10) == " (1/10: divided by 10)"
    assert ex2._one_over(0.3) == ex2._one_over(2.0) == ex2._one_over(-0.5) == ex2._one_over(0.0) == ""


def _refuses():
    raise ValueError("rate must lie in (0, 1)")


def _unpacks_three():
    a, b = (1, 2, 3)  # noqa: F841


def _dropout_values(fn) -> dict:
    """dropout's observations for ``fn(rate) -> output`` at every rate the probe uses."""
    return {f"dropout/rate{r}": fn(r) for r in ex1.RATES}


def test_a_fixed_rate_inside_dropout_is_measured_as_such():
    x = INPUTS["ex1"]["x"]
    mask = np.random.default_rng(1).random(x.shape) >= 0.5
    verdict = ex1.zero_fraction(_ex1_ctx(_dropout_values(lambda r: np.where(mask, 2 * x, 0.0))))
    assert "zeroed at every rate: the fraction does not follow rate" in verdict.message
    assert verdict.mistake == "" and "whatever rate was passed" in verdict.hint
    verdict = ex1.rescale(_ex1_ctx(_dropout_values(lambda r: np.where(mask, 2 * x, 0.0))))
    assert "the same factor 2 at every rate" in verdict.message and verdict.mistake == ""


def test_survivors_scaled_unevenly_are_measured_as_such():
    x = INPUTS["ex1"]["x"]
    rng = np.random.default_rng(2)
    values = _dropout_values(lambda r: np.where(rng.random(x.shape) >= r, x / (1 - r) * rng.uniform(0.9, 1.1, x.shape),
                                                0.0))
    verdict = ex1.rescale(_ex1_ctx(values))
    assert "not one factor" in verdict.message and verdict.mistake == ""


def test_log_softmax_on_the_output_is_measured_without_a_known_id():
    def log_softmax(z):
        return np.log(npref.softmax(z))

    findings = ex3.measure(Context(_observe(_mlp(out_act=log_softmax)), REFERENCE, INPUTS))
    assert [(f.text, f.mistake) for f in findings] == [
        ("one layer mapping x to (x, -x) returned log-softmax values (log-probabilities)", None)]
    assert "raw values" in findings[0].hint


def test_one_vmapped_key_for_the_whole_batch_is_named_as_a_shared_mask():
    b = INPUTS["ex1"]["xb"].shape[0]
    uses = [_draw([[1, 1]], [256]), _draw([[1, 2]], [128])]
    verdict = ex1.placement(_ex1_ctx({"forward/key_uses": uses, "forward/train": np.ones((b, 10))}))
    assert verdict.mistake == ex1.FORWARD_SHARED_ROWS.id and "one per layer for the whole batch" in verdict.message
    assert "one key per example" in verdict.hint


@pytest.mark.parametrize("kind", ["gelu", "bias_twice"])
def test_deep_judges_the_order_through_the_measured_computation(kind):
    """An unnamed computation mistake is charged once, in depths; deep judges the order with it."""
    wrong = {"gelu": {"act": npref.gelu}, "bias_twice": {"bias_scale": 2.0}}[kind]
    assert _verdict(_mlp(**wrong), "ex3.deep").passed
    verdict = _verdict(_mlp(order="string", **wrong), "ex3.deep")
    assert verdict.mistake == ex3.STRING_ORDER.id and "with the computation measured" in verdict.message
    assert not _verdict(_mlp(**wrong), "ex3.depths").passed


def test_the_crash_kind_travels_from_the_recorder_to_the_judge(tmp_path):
    """The child's ``crash`` field reaches ObservationError.kind; a kind the grader does not know is ignored."""
    import jax
    import jax.numpy as jnp

    from grader.harness.recorder import Recorder
    from grader.observations import read_observations

    rec = Recorder(tmp_path)
    rec.record("numpy", lambda: jax.jit(lambda v: np.asarray(v))(jnp.ones(3)))
    rec.values["forged"] = {"kind": "error", "type": "ValueError", "message": "", "traceback": "", "crash": "anything", "detail": ""}
    rec.write(tmp_path)
    errors = read_observations(tmp_path).errors
    assert errors["numpy"].kind == "numpy_on_tracer" and crash_hint(errors["numpy"]) is NUMPY_ON_TRACER
    assert errors["forged"].kind == "anything" and crash_hint(errors["forged"]) == ""


def test_a_rate_that_never_reaches_dropout_is_measured_at_rate_zero():
    b = INPUTS["ex1"]["xb"].shape[0]
    rng = np.random.default_rng(3)
    plain, train = rng.standard_normal((b, 10)), rng.standard_normal((b, 10))
    ctx = Context(Observations({"forward/eval": plain, "forward/rate0": train, "forward/train": train}),
                  Observations({"forward/eval": plain}), INPUTS)
    verdict = ex1.eval_forward(ctx)
    assert verdict.mistake == ex1.RATE_NOT_PASSED.id and "rate=0.0 gave exactly the output of rate=0.5" in verdict.message
    other = rng.standard_normal((b, 10))  # rate=0.0 wrong in another way: measured, not named
    ctx = Context(Observations({"forward/eval": plain, "forward/rate0": other, "forward/train": train}),
                  Observations({"forward/eval": plain}), INPUTS)
    assert ex1.eval_forward(ctx).mistake == ""


def test_eval_mode_scaling_is_measured_as_a_factor():
    x = INPUTS["ex1"]["x"]
    values = _dropout_values(lambda r: x)
    verdict = ex1.identity(_ex1_ctx({**values, "dropout/eval": x * 0.5, "dropout/rate0": x}))
    assert "every element is x times 0.5" in verdict.message and "non-inverted dropout" in verdict.hint
    verdict = ex1.identity(_ex1_ctx({**values, "dropout/eval": x * 3.0, "dropout/rate0": x}))
    assert "every element is x times 3" in verdict.message and verdict.hint == ex1.HINT_IDENTITY


def test_masks_after_each_hidden_relu_with_their_own_keys_pass():
    b = INPUTS["ex1"]["xb"].shape[0]
    masks = [_applied([[i, 1] for i in range(b)], [b, 256]), _applied([[i, 2] for i in range(b)], [b, 128])]
    ctx = _ex1_ctx({"forward/masks": masks, "forward/key_uses": [], "forward/train": np.ones((b, 10))})
    assert ex1.placement(ctx).passed and ex1.separate_keys(ctx).passed


def test_a_mask_applied_before_the_relu_is_named():
    b = INPUTS["ex1"]["xb"].shape[0]
    masks = [_applied([[1, 1]], [b, 256], data_min=-2.5), _applied([[1, 2]], [b, 128])]
    verdict = ex1.placement(_ex1_ctx({"forward/masks": masks, "forward/key_uses": [],
                                      "forward/train": np.ones((b, 10))}))
    assert verdict.mistake == ex1.BEFORE_RELU.id and "-2.5" in verdict.message and "before the ReLU" in verdict.message


def test_masks_alike_for_every_example_are_one_shared_mask_whatever_the_draws_shapes():
    """The masks have the batch's shape (a (B, 256) draw broadcast, or one key vmapped), yet every example keeps
    and drops the same units: measured from the masks, not from the shapes the random calls were given."""
    b = INPUTS["ex1"]["xb"].shape[0]
    masks = [_applied([[1, 1]], [b, 256], rows=1.0), _applied([[1, 2]], [b, 128], rows=1.0)]
    verdict = ex1.placement(_ex1_ctx({"forward/masks": masks, "forward/key_uses": [],
                                      "forward/train": np.ones((b, 10))}))
    assert verdict.mistake == ex1.FORWARD_SHARED_ROWS.id and "kept or dropped alike" in verdict.message


def test_two_masks_from_one_key_are_reused_keys():
    b = INPUTS["ex1"]["xb"].shape[0]
    masks = [_applied([[3, 3]], [b, 256]), _applied([[3, 3]], [b, 128])]
    verdict = ex1.separate_keys(_ex1_ctx({"forward/masks": masks, "forward/key_uses": []}))
    assert verdict.mistake == ex1.REUSED_KEY.id and "two dropout masks were drawn from the same key" in verdict.message


def test_draws_and_masks_finds_where_each_draw_meets_the_data():
    """A forward pass with dropout after one ReLU and a draw that never touches the data: one mask, applied
    after the ReLU, with its own key; its examples' masks differ; the unused draw is a key use, not a mask."""
    import jax
    import jax.numpy as jnp

    from grader.harness.jaxpr_tools import draws_and_masks

    def forward(w, x, key):
        k1, k2 = jax.random.split(key)
        jax.random.uniform(k2, (3,))  # drawn, never used
        h = jax.nn.relu(x @ w)
        return jnp.where(jax.random.bernoulli(k1, 0.5, h.shape), h / 0.5, 0.0)

    w = jnp.asarray(np.random.default_rng(0).standard_normal((5, 64)), jnp.float32)
    x = jnp.asarray(np.random.default_rng(1).standard_normal((16, 5)), jnp.float32)
    uses, masks = draws_and_masks(forward, w, x, jax.random.PRNGKey(0), data_args=(0, 1))
    assert [u["op"] for u in uses] == ["split", "bits", "bits"]
    (mask,) = masks
    assert mask["shape"] == [16, 64] and mask["data_min"] == 0.0 and len(mask["keys"]) == 1
    assert 0.3 < mask["kept"] < 0.7 and mask["row_agreement"] < 0.8 and mask["column_agreement"] < 0.8


def test_draws_and_masks_says_which_masks_come_from_the_key_argument():
    """A mask drawn from a split of the key argument is from it (also through fold_in under vmap); one drawn from a
    key made inside the function or captured from outside it is not."""
    import jax
    import jax.numpy as jnp

    from grader.harness.jaxpr_tools import draws_and_masks

    outside = jax.random.PRNGKey(42)

    def forward(w, x, key):
        k1, _ = jax.random.split(key)
        h = jax.nn.relu(x @ w)
        h = h * jax.random.bernoulli(k1, 0.5, h.shape)
        h = h * jax.random.bernoulli(outside, 0.5, h.shape)
        h = h * jax.random.bernoulli(jax.random.PRNGKey(3), 0.5, h.shape)
        keys = jax.vmap(lambda i: jax.random.fold_in(key, i))(jnp.arange(h.shape[0]))
        return jax.vmap(lambda k, r: r * jax.random.bernoulli(k, 0.5, r.shape))(keys, h)

    w = jnp.asarray(np.random.default_rng(0).standard_normal((5, 64)), jnp.float32)
    x = jnp.asarray(np.random.default_rng(1).standard_normal((16, 5)), jnp.float32)
    uses, masks = draws_and_masks(forward, w, x, jax.random.PRNGKey(0), data_args=(0, 1), key_args=(2,))
    assert [m["from_key"] for m in masks] == [True, False, False, True]
    assert [u["from_key"] for u in uses if u["op"] == "bits"] == [True, False, False, True]


def test_a_mask_whose_key_is_not_from_the_key_argument_is_named():
    b = INPUTS["ex1"]["xb"].shape[0]
    masks = [_applied([[1, 1]], [b, 256]), {**_applied([[1, 2]], [b, 128]), "from_key": False}]
    train = np.ones((b, 10))
    verdict = ex1.forward_keys(_ex1_ctx({"forward/masks": masks, "forward/key_uses": [], "forward/train": train,
                                         "forward/train_again": train, "forward/train_other_key": train + 1}))
    assert verdict.mistake == ex1.FORWARD_KEYS.id and f"mask 2 (shape ({b}, 128))" in verdict.message


def test_one_coin_per_example_in_the_forward_pass_is_named():
    b = INPUTS["ex1"]["xb"].shape[0]
    masks = [_applied([[1, 1]], [b, 256], columns=1.0), _applied([[1, 2]], [b, 128])]
    verdict = ex1.placement(_ex1_ctx({"forward/masks": masks, "forward/key_uses": [],
                                      "forward/train": np.ones((b, 10))}))
    assert verdict.mistake == ex1.SHARED_COLS.id and "all kept or all dropped together" in verdict.message


def test_ex5_measures_updates_as_multiples_of_the_expected_ones():
    from grader.exercises.ex5 import checks as ex5

    want = {f"{t}/layer1/w": np.full((2, 2), -1e-3 * (t + 1)) for t in range(3)}
    times = lambda factors: {k: v * factors[int(k[0])] for k, v in want.items()}  # noqa: E731
    assert ex5._scaled_words(times([-1, -1, -1]), want)[1] is ex5.SIGN_FLIPPED
    words, mistake = ex5._scaled_words(times([10, 10, 10]), want)
    assert mistake is ex5.LR_SCALED and "times 10" in words
    words, mistake = ex5._scaled_words(times([1, 0.9, 0.81]), want)
    assert mistake is ex5.LR_CHANGES and "1, 0.9, 0.81" in words
    assert ex5._scaled_words(times([1, 1, 1]), want) is None
    noisy = {k: v + np.array([[1e-3, 0], [0, 0]]) for k, v in want.items()}
    assert ex5._scaled_words(noisy, want) is None  # not a multiple: nothing measured to name


def test_only_pythons_call_errors_are_signature_errors_and_jax_refusing_an_argument_is_named():
    """A TypeError raised outside the submission is a call that did not fit only in Python's words for one;
    JAX refusing a jitted function's argument is its own kind; anything else has no kind (no guess)."""
    import jax

    from grader.harness.recorder import crash_kind as child_kind

    def kind_of(fn):
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - the exception is the subject
            return child_kind(exc, "/nowhere")
        raise AssertionError("did not raise")

    assert kind_of(lambda: (lambda a, b: a)(1)) == "signature"
    assert kind_of(lambda: (lambda a: a)(1, c=2)) == "signature"
    assert kind_of(lambda: float((1.0, 2.0))) == ""
    assert kind_of(lambda: jax.jit(lambda f: f)(object())) == "jit_argument"


def test_common_factor_measures_one_factor_over_every_leaf_or_none():
    from grader.checks.compare import common_factor

    want = {"a/w": np.array([[1.0, -2.0], [0.5, 3.0]]), "a/b": np.array([0.25, -1.0])}
    assert common_factor({k: -16.0 * v for k, v in want.items()}, want) == pytest.approx(-16.0)
    assert common_factor(want, want) == pytest.approx(1.0)
    one_leaf_off = {**{k: 2.0 * v for k, v in want.items()}, "a/b": want["a/b"]}
    assert common_factor(one_leaf_off, want) is None
    assert common_factor({"a/w": want["a/w"]}, want) is None  # another structure
    assert common_factor({k: np.zeros_like(v) for k, v in want.items()}, {k: 0 * v for k, v in want.items()}) is None
    assert common_factor(np.array([2.0, 4.0]), np.array([1.0, 2.0])) == pytest.approx(2.0)


def _norm_tree_observed(norm) -> Context:
    """ex2.norms' context for a per_example_grad_norms that computes ``norm`` of each example's elements."""
    from grader.inputs import flatten

    tree = flatten(INPUTS["ex2"]["norm_tree"])
    rows = np.concatenate([np.asarray(v, np.float64).reshape(6, -1) for v in tree.values()], axis=1)
    observed = Observations({"norms/tree": np.array([norm(row) for row in rows])})
    reference = Observations({"norms/tree": np.sqrt((rows ** 2).sum(axis=1))})
    return Context(observed, reference, INPUTS)


@pytest.mark.parametrize("p, words", [(1, "p = 1,"), (3, "p = 3,"), (np.inf, "p = inf")])
def test_a_norm_of_another_power_is_measured_and_named(p, words):
    from grader.exercises.ex2 import checks as ex2

    verdict = ex2.norms(_norm_tree_observed(lambda row: np.linalg.norm(row, p)))
    assert not verdict.passed and verdict.mistake == ex2.NORM_POWER.id, verdict
    assert words in verdict.message


def test_norms_that_are_no_p_norm_are_not_given_a_power():
    from grader.exercises.ex2 import checks as ex2

    assert ex2.norms(_norm_tree_observed(lambda row: np.linalg.norm(row))).passed
    verdict = ex2.norms(_norm_tree_observed(lambda row: np.linalg.norm(row) + 1.0))  # off by a constant
    assert not verdict.passed and verdict.mistake != ex2.NORM_POWER.id


def _grads_observed(student) -> Context:
    """ex2.values' context for a per_example_grads computed by ``student(params, x, y)`` (numpy)."""
    from grader.exercises.ex2.shared import GRAD_CASES

    def observe(fn):
        return Observations({f"grads/{case}": fn(INPUTS["ex2"][case]["params"], INPUTS["ex2"][case]["x"],
                                                 INPUTS["ex2"][case]["y"]) for case in GRAD_CASES})

    return Context(observe(student), observe(lambda p, x, y: npref.per_example_grads(p, x, npref.one_hot(y))), INPUTS)


@pytest.mark.parametrize("student, mistake, words", [
    (lambda p, x, y: {k: 0 * v for k, v in npref.per_example_grads(p, x, npref.one_hot(y)).items()},
     "ex2.zero_gradients", "exactly 0"),
    (lambda p, x, y: {k: -v for k, v in npref.per_example_grads(p, x, npref.one_hot(y)).items()},
     "ex2.gradients_scaled", "times -1"),
    (lambda p, x, y: {k: 0.1 * v for k, v in npref.per_example_grads(p, x, npref.one_hot(y)).items()},
     "ex2.gradients_scaled", "times 0.1"),
    (lambda p, x, y: npref.per_example_grads(p, x, npref.one_hot((np.asarray(y) + 1) % 10)),
     "ex2.wrong_labels", "its label +1"),
])
def test_wrong_gradients_are_measured_and_named(student, mistake, words):
    from grader.exercises.ex2 import checks as ex2

    verdict = ex2.values(_grads_observed(student))
    assert not verdict.passed and verdict.mistake == mistake, verdict
    assert words in verdict.message


def test_leaves_that_lose_their_axis_only_for_one_example_are_not_called_the_batch_mean():
    from grader.exercises.ex2 import checks as ex2

    def right(p, x, y):
        return npref.per_example_grads(p, x, npref.one_hot(y))

    squeezed = ex2.shapes(_grads_observed(lambda p, x, y: {k: v.squeeze() for k, v in right(p, x, y).items()}))
    assert not squeezed.passed and squeezed.mistake == ex2.AXIS_OF_ONE.id, squeezed
    assert "B=1" in squeezed.message and "every larger batch keeps its leading axis" in squeezed.message
    mean = ex2.shapes(_grads_observed(lambda p, x, y: {k: v.mean(0) for k, v in right(p, x, y).items()}))
    assert not mean.passed and mean.mistake == ex2.BATCH_GRAD.id, mean  # params-shaped leaves at B > 1


def test_gradients_of_no_measured_kind_show_the_output_gradient_and_name_nothing():
    from grader.exercises.ex2 import checks as ex2

    def smoothed(p, x, y):  # label smoothing: soft targets, no single label, no one factor
        targets = 0.9 * npref.one_hot(y) + 0.01
        return npref.per_example_grads(p, x, targets)

    verdict = ex2.values(_grads_observed(smoothed))
    assert not verdict.passed and verdict.mistake == "", verdict
    assert "gradient with respect to the output bias" in verdict.message and "softmax(logits) - one_hot(" in verdict.message
    assert ex2.values(_grads_observed(lambda p, x, y: npref.per_example_grads(p, x, npref.one_hot(y)))).passed


def test_the_leaves_a_clip_covers_are_measured_and_a_clip_that_never_acts_is_none():
    from grader.exercises.ex5 import checks as ex5

    ctx = Context(Observations({}), Observations({}), INPUTS)
    seq = ex5._grads_seq(ctx)

    def observed(pre):
        return {f"{i}/{k}": v for i, step in enumerate(npref.adam_updates(seq, 1e-3, pre=pre)) for k, v in step.items()}

    weights = sorted(k for k in seq[0] if k.endswith("/w"))
    clip_weights = lambda t: {**t, **npref.clip_global({k: t[k] for k in weights}, 1.0)}  # noqa: E731
    assert ex5._clipped_leaves(ctx, observed(clip_weights)) == weights
    assert ex5._clipped_leaves(ctx, observed(None)) is None  # no clip at all: not "a clip of one small leaf"
    assert ex5._clipped_leaves(ctx, observed(lambda t: npref.clip_global(t, 1.0))) is None  # every leaf: right


def _ex4_run(n_steps: int, cost: float, call_seconds: float, stop: str, compile_run: bool = False,
             late_wake: float = 0.0, extra: float = 0.0) -> dict:
    """ex4's record of a timer on the instrumented step, simulated: a warm-up and n_steps calls, each taking
    ``call_seconds`` to return (a loaded machine makes that long) and queueing ``cost`` of work, the clock
    started just before the first timed call and stopped after the last result (``after_wait``) or as the last
    call returned (``before_wait``), or started a call late and stopped after the last result (``late_start``),
    or started before the warm-up (``with_warm_up``). ``late_wake``: the wait on the last result returns this
    late (a loaded machine); ``extra``: the timer adds this much time of its own before reading the clock.
    ``compile_run``: the first call takes COMPILE_DELAY more (compiling) and the calls queue nothing."""
    from grader.exercises.ex4.shared import COMPILE_DELAY

    calls = n_steps + 1
    first = COMPILE_DELAY if compile_run else 0.0
    started = [0.0] + [first + i * call_seconds for i in range(1, calls)]
    returned = [s + call_seconds for s in started]
    returned[0] = first + call_seconds if compile_run else returned[0]
    started = [0.0] + [returned[i - 1] for i in range(1, calls)]
    cost = 0.0 if compile_run else cost
    ready, free = [], 0.0
    for i, back in enumerate(returned):
        free = max(free, back) + (0.0 if i == 0 else cost)
        ready.append(free)
    woke = ready[-1] + late_wake
    clock = started[{"late_start": 2, "with_warm_up": 0}.get(stop, 1)] - 1e-5
    stopped = (returned[-1] if stop == "before_wait" else woke) + 1e-5 + extra
    return {"seconds": stopped - clock, "calls": calls, "n_steps": n_steps,
            "to_last": [ready[-1] - s for s in started], "to_return": [returned[-1] - s for s in started],
            "to_woke": [] if stop == "before_wait" else [woke] + [woke - r for r in returned],
            "waited": [] if stop == "before_wait" else [calls - 1], "last": calls - 1, "sync": 0.002 * n_steps,
            "cost": cost, "params_seen": list(range(calls)), "state_seen": list(range(calls)), "shapes": [], "compiled": [0] if compile_run else [],
            "timed_shapes": [[4, 784], [4]], "wall": 1.0, "compile_delay": COMPILE_DELAY}


@pytest.mark.parametrize("call_seconds", [0.004, 0.02, 0.05, 0.06, 0.1, 0.15, 0.3, 1.0])
def test_a_clock_stopped_before_the_last_result_is_told_however_slow_the_calls(call_seconds):
    """On a loaded machine slow calls bring a clock stopped as the last call returned near the true time; the last
    result is still ready a call's queued work later, which a timer that waited always counts."""
    from grader.exercises.ex4 import checks as ex4

    def ctx(stop):
        return Context(Observations({"time/compile": _ex4_run(3, 0.0, call_seconds, stop, compile_run=True),
                                     "time/async": _ex4_run(3, 0.06, call_seconds, stop),
                                     "time/count": _ex4_run(6, 0.04, call_seconds, stop)}), Observations(), INPUTS)

    assert ex4.timing(ctx("after_wait")).kind == "ok"
    assert judge_alone("ex4.waits_for_results", ctx("after_wait")).passed
    verdict = judge_alone("ex4.waits_for_results", ctx("before_wait"))
    assert not verdict.passed and not verdict.skipped and verdict.mistake == ex4.BLOCK.id, verdict


def _ex4_ctx(stop: str, call_seconds: float = 0.004, late_wake: float = 0.0, extra: float = 0.0) -> Context:
    runs = {"time/compile": (3, 0.0, True), "time/async": (3, 0.06, False), "time/count": (6, 0.04, False)}
    return Context(Observations({name: _ex4_run(n, cost, call_seconds, stop, compile_run, late_wake, extra)
                                 for name, (n, cost, compile_run) in runs.items()}), Observations(), INPUTS)


@pytest.mark.parametrize("late_wake", [0.0, 0.02, 0.05, 0.1, 0.3])
@pytest.mark.parametrize("call_seconds", [0.004, 0.05, 0.2])
def test_a_correct_timer_on_a_loaded_machine_gets_full_marks(late_wake, call_seconds):
    """A busy machine wakes the timer late after the last result, or makes every call slow: the time a correct
    timer returns grows past the known time, by as much as the probe measured, and it keeps every point."""
    from grader.exercises.ex4 import checks as ex4

    ctx = _ex4_ctx("after_wait", call_seconds, late_wake)
    assert ex4.timing(ctx).kind == "ok", ex4.timing(ctx)
    for check in ("ex4.excludes_compile", "ex4.waits_for_results", "ex4.n_steps"):
        assert judge_alone(check, ctx).passed, (check, judge_alone(check, ctx))


@pytest.mark.parametrize("late_wake", [0.0, 0.1])
def test_time_of_its_own_or_a_timed_compilation_is_still_charged_on_a_loaded_machine(late_wake):
    """The allowance is what the machine added, measured: a timer that adds a call's worth of time of its own
    after the last result, or that started its clock before the compiling warm-up, still loses its points."""
    from grader.exercises.ex4 import checks as ex4

    padded = _ex4_ctx("after_wait", late_wake=late_wake, extra=0.1)
    assert ex4.timing(padded).kind != "ok", ex4.timing(padded)
    assert not judge_alone("ex4.n_steps", padded).passed
    compiled = _ex4_ctx("with_warm_up", late_wake=late_wake)
    verdict = judge_alone("ex4.excludes_compile", compiled)
    assert not verdict.passed and verdict.mistake == ex4.CLOCK_BEFORE_WARMUP.id, verdict


def test_a_clock_started_a_call_late_is_not_taken_for_one_stopped_early():
    """A timer that waits but starts its clock a call late returns the time to the last result from the second
    timed call (about the whole time, the first call's work being queued): never a clock stopped before the
    results."""
    from grader.exercises.ex4 import checks as ex4

    ctx = Context(Observations({"time/compile": _ex4_run(3, 0.0, 0.004, "late_start", compile_run=True),
                                "time/async": _ex4_run(3, 0.06, 0.004, "late_start"),
                                "time/count": _ex4_run(6, 0.04, 0.004, "late_start")}), Observations(), INPUTS)
    assert ex4.timing(ctx).kind not in ("wait_after_clock", "no_block")
    assert judge_alone("ex4.waits_for_results", ctx).passed


def test_a_default_n_steps_other_than_100_is_measured_by_leaving_it_out():
    from grader.exercises.ex4 import checks as ex4

    def ctx(calls):
        return Context(Observations({"time/default": {"calls": calls}}), Observations({}), INPUTS)

    assert ex4._default_steps_problem(ctx(101)) == ex4._default_steps_problem(ctx(100)) == ""  # warm-up or not
    assert "with n_steps left out, called step_fn 11 times; n_steps=100 makes 100 timed calls and one warm-up" in \
        ex4._default_steps_problem(ctx(11))
    assert ex4._default_steps_problem(Context(Observations({}), Observations({}), INPUTS)) == ""  # not observed


SWAPS = '''
import jax
import jax.numpy as jnp


def forward(params, x):
    return jnp.tanh(x @ params["layer1"]["w"])


def loss_fn(params, x, y):
    return jnp.mean((forward(x, params) - y) ** 2)


def loss_by_grad(params, x, y):
    return jax.grad(lambda p, v: jnp.mean(forward(p, v)))(x, params)


def reversed_forward(x, params):
    return x @ params["layer1"]["w"]


def time_steps(step_fn, params, n):
    return step_fn(params, n)


def two_dicts(params, other, x):
    return x["layer1"]


class Loud:
    """A value whose own methods raise: the measurement must read its kind alone."""

    def __getattr__(self, name):
        raise RuntimeError("asked for " + name)

    def __repr__(self):
        raise RuntimeError("repr")
'''


def _describe_swap(tmp_path, call):
    """The recorder's record of the error ``call(module)`` raises, the module loaded from the submission folder."""
    import importlib.util

    from grader.harness.recorder import Recorder

    (tmp_path / "swaps.py").write_text(SWAPS)
    spec = importlib.util.spec_from_file_location("swaps", tmp_path / "swaps.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rec = Recorder(tmp_path)
    rec.record("call", lambda: call(module))
    return rec.values["call"]


def test_arguments_in_each_others_places_are_measured_and_the_call_named(tmp_path):
    """An array indexed by a name where the only dict sits in another parameter: the two and the call that passed
    them in the other order are named, the call followed outwards while the same objects are passed on."""
    params, x = {"layer1": {"w": np.ones((3, 2), np.float32)}}, np.ones((4, 3), np.float32)
    record = _describe_swap(tmp_path, lambda m: m.loss_fn(params, x, np.zeros((4, 2), np.float32)))
    assert record["crash"] == "arguments_swapped"
    assert record["detail"].startswith("forward was given params = an array of shape (4, 3) and x = a dict with "
                                       "keys 'layer1'")
    assert "line 11 of swaps.py, `return jnp.mean((forward(x, params) - y) ** 2)`" in record["detail"]
    error = ObservationError(record["type"], record["message"], record["traceback"], record["crash"], record["detail"])
    assert crash_hint(error).id == "arguments_swapped" and "measured: forward was given" in error.summary()


def test_a_swap_through_a_transformation_names_the_transformed_call(tmp_path):
    """Under jax.grad the arguments arrive as tracers: the call is the one that gave them to grad."""
    params, x = {"layer1": {"w": np.ones((3, 2), np.float32)}}, np.ones((4, 3), np.float32)
    record = _describe_swap(tmp_path, lambda m: m.loss_by_grad(params, x, None))
    assert record["crash"] == "arguments_swapped"
    assert record["detail"].startswith("forward was given params = an array of shape (4, 3)")
    assert "line 15 of swaps.py, `return jax.grad(lambda p, v: jnp.mean(forward(p, v)))(x, params)`" \
        in record["detail"]


def test_a_function_whose_parameters_are_reversed_is_told_so(tmp_path):
    """Called as documented (by the grader) with its parameters in another order: no call of the student's to name."""
    params, x = {"layer1": {"w": np.ones((3, 2), np.float32)}}, np.ones((4, 3), np.float32)
    record = _describe_swap(tmp_path, lambda m: m.reversed_forward(params, x))
    assert record["crash"] == "arguments_swapped"
    assert record["detail"].endswith("the grader calls reversed_forward as its docstring documents, so its "
                                     "parameters are in another order than the docstring's")


def test_a_dict_called_where_the_function_sits_elsewhere(tmp_path):
    record = _describe_swap(tmp_path, lambda m: m.time_steps({"layer1": 1}, m.forward, 3))
    assert record["crash"] == "arguments_swapped"
    assert record["detail"].startswith("time_steps was given step_fn = a dict with keys 'layer1' and params = the "
                                       "function forward")


@pytest.mark.parametrize("case", ["two_dicts", "no_dict", "loud"])
def test_no_swap_is_named_where_the_frame_does_not_show_one(tmp_path, case):
    """Two dicts (which one belongs?), no dict at all, or values whose methods raise: nothing measured, no claim."""
    x = np.ones((4, 3), np.float32)
    call = {"two_dicts": lambda m: m.two_dicts({}, {}, x),
            "no_dict": lambda m: m.forward(x, x),
            "loud": lambda m: m.forward(m.Loud(), x)}[case]
    record = _describe_swap(tmp_path, call)
    assert record["crash"] != "arguments_swapped" and record["detail"] == ""


def test_the_measured_words_keep_no_control_characters_from_the_students_names(tmp_path):
    x = np.ones((4, 3), np.float32)
    record = _describe_swap(tmp_path, lambda m: m.forward(x, {"\x1b[31m::error::": 1}))
    assert record["crash"] == "arguments_swapped" and "\x1b" not in record["detail"] and "::" not in record["detail"]


KEYS = '''
import jax
import optax


def literal(key):
    return jax.random.normal((3, 4), key)


def named(key, n, m):
    return jax.random.uniform((n, m), key)


def pair_of_keys(key):
    pair = tuple(jax.random.split(key))
    return jax.random.normal(pair, (3,))


def number_first(key):
    keep = 0.9
    return jax.random.bernoulli(keep, key, (3,))


def wrong_key_shape(key):
    return jax.random.normal(key[:1], (3,))


def donated(key):
    x = jax.random.normal(key, (3,))
    jax.jit(lambda a: a * 2.0, donate_argnums=0)(x)
    return x + 1.0


def ahead_of_time(key):
    compiled = jax.jit(lambda a: a * 2.0).lower(jax.numpy.ones((3,))).compile()
    return compiled(jax.random.normal(key, (4,)))


def state_first(params, grads):
    optimizer = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))
    state = optimizer.init(params)
    return optimizer.update(state, grads, params)
'''


@pytest.mark.parametrize("call, kind, words", [
    (lambda m, k: m.literal(k), "shape_for_key", "jax.random.normal was given (3, 4), a shape, as its first argument"),
    (lambda m, k: m.named(k, 3, 4), "shape_for_key", "jax.random.uniform was given (n, m) = (3, 4), a shape"),
    (lambda m, k: m.pair_of_keys(k), "not_a_key", ""),  # a tuple, of keys: not a shape, so no shape is claimed
    (lambda m, k: m.number_first(k), "value_for_key", "jax.random.bernoulli was given keep = 0.9, a number"),
    (lambda m, k: m.wrong_key_shape(k), "invalid_key", ""),  # a key's array cut short: JAX's words alone
    (lambda m, k: m.donated(k), "deleted_array", ""),
    (lambda m, k: m.ahead_of_time(k), "aot_compiled", ""),
    (lambda m, k: m.state_first({"w": np.ones(3, np.float32)}, {"w": np.ones(3, np.float32)}), "chain_state", ""),
])
def test_keys_and_states_in_the_wrong_place_are_told_from_what_the_line_held(tmp_path, call, kind, words):
    import importlib.util

    import jax

    from grader.harness.recorder import Recorder

    (tmp_path / "keys.py").write_text(KEYS)
    spec = importlib.util.spec_from_file_location("keys", tmp_path / "keys.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rec = Recorder(tmp_path)
    rec.record("call", lambda: call(module, jax.random.PRNGKey(0)))
    record = rec.values["call"]
    assert record["crash"] == kind and words in record["detail"] and bool(words) == bool(record["detail"])
    assert crash_hint(ObservationError(record["type"], record["message"], kind=record["crash"]))


def test_a_loss_is_said_to_be_a_16_bit_floats_only_when_its_value_is_one():
    from grader.exercises.ex5 import checks as ex5

    want = 2.20479
    half = float(np.float16(want))  # 2.2050781...: off by 0.013%, and a float16's value
    assert "16-bit float" in ex5._rounding_words(np.float32(half), want)
    other = np.float32(want * (1 + 1.3e-4) + 1e-7)  # off by as much, and no 16-bit float's value
    assert np.float16(other).astype(np.float32) != other and np.float32(other).view(np.uint32) & 0xFFFF
    words = ex5._rounding_words(other, want)
    assert words.startswith(" (off by 0.01") and "16-bit" not in words
    assert ex5._rounding_words(np.float32(want * 1.05), want) == ""  # too far off for any rounding


@pytest.mark.parametrize("scale, words", [
    (lambda r: 1 / (1 + r), "1 + rate where 1 - rate belongs"),
    (lambda r: 1 / (1 - r + 1e-3), "+0.001 added to 1 - rate"),
    (lambda r: 1 + r, "first-order expansion"),
    (lambda r: 2 - r, "2 - rate, where"),
])
def test_a_survivor_scale_that_follows_another_law_in_rate_is_measured_as_that_law(scale, words):
    rates = [0.1, 0.25, 0.5, 0.8]
    assert words in ex1._scale_law(rates, [scale(r) for r in rates])


def test_survivor_scales_that_follow_no_simple_law_are_not_given_one():
    rates = [0.1, 0.25, 0.5, 0.8]
    assert ex1._scale_law(rates, [1 / (1 - r) ** 1.5 for r in rates]) == ""
    assert ex1._scale_law(rates[:2], [1.0, 2.0]) == ""  # two rates fit any line


def test_values_rounded_to_a_sixteen_bit_float_are_measured_as_such_and_others_are_not():
    import ml_dtypes

    from grader.checks.compare import array_mismatch, sixteen_bit

    want = np.random.default_rng(0).normal(size=200)
    assert sixteen_bit(want.astype(ml_dtypes.bfloat16)) == "bfloat16"
    assert sixteen_bit(want.astype(np.float16) / 1024) == "float16"  # a loss scale of 2**10 taken off keeps the bits
    for other in (want, want.astype(np.float32), np.arange(200.0), np.arange(200) / 4, np.round(want, 3),
                  want.astype(ml_dtypes.bfloat16)[:10]):
        assert sixteen_bit(other) == "", other
    assert "as a bfloat16 number has" in array_mismatch(want.astype(ml_dtypes.bfloat16), want)
    assert "significant bits" not in array_mismatch(want * 1.01, want)
    # what is expected has a 16-bit float's bits itself: the got's say nothing about how it was computed
    short = want.astype(ml_dtypes.bfloat16).astype(np.float64)
    assert "significant bits" not in array_mismatch(-short, short)
    assert "significant bits" in array_mismatch(-short, want)


def test_a_timing_loop_over_the_rows_of_x_is_measured_by_its_calls():
    from grader.exercises.ex4 import checks as ex4
    stacked = {"timed_shapes": [[300, 784], [300]], "shapes": [[[300, 784], [300]]] + [[[6, 784], [6]]] * 63}
    words = ex4._one_call_per_row(stacked, 301)
    assert "one per row of x (300 rows) and a warm-up" in words and "(6, 784)" in words
    assert ex4._one_call_per_row(stacked, 7) == ""  # n_steps + 1 calls: nothing to say
    assert ex4._one_call_per_row({"timed_shapes": [None], "shapes": []}, 301) == ""


def test_ex4_one_time_of_two_is_not_called_a_summary():
    """A returned time that is one of two runs is always their least or greatest: only where eager_s and jit_s are
    the same value is "a summary taken across the two kinds of step" a measurement."""
    from grader.exercises.ex4 import checks as ex4

    lesson = [{"jitted": False, "seconds": 0.49}, {"jitted": False, "seconds": 0.27}]
    apart = ex4._other_kinds_time(0.27, True, lesson, same=False)
    assert "plain (not jitted) step" in apart and "summary" not in apart, apart
    lesson = [{"jitted": False, "seconds": 0.5}, {"jitted": True, "seconds": 0.05}, {"jitted": True, "seconds": 0.06}]
    pooled = ex4._other_kinds_time(0.05, False, lesson, same=True)
    assert "the least of all 3 times of both steps together" in pooled, pooled
