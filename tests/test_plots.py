"""--plots writes PNGs from what the children observed (no grading needed here)."""

from __future__ import annotations

import numpy as np

from grader.plots import save_plots
from grader.results import Report
from grader.observations import Observations


def _image_is_not_blank(path) -> bool:
    import matplotlib.image

    pixels = matplotlib.image.imread(path)
    return pixels.std() > 0.01


def test_plots_show_both_losses_and_the_norms(tmp_path):
    losses = np.linspace(2.3, 0.1, 50)
    accuracy = Observations({"train": {"0/layer1/w": np.zeros((2, 2)), "1": losses}, "baseline_losses": losses * 1.1})
    grads = {"layer1/w": np.ones((5, 3, 2)), "layer1/b": np.arange(10.0).reshape(5, 2)}
    ex2 = Observations({"grads/lesson": grads})
    written = save_plots(tmp_path / "plots", accuracy, ex2)
    assert sorted(p.name for p in written) == ["grad_norms.png", "training_loss.png"]
    assert all(_image_is_not_blank(p) for p in written)


def test_plots_skip_what_was_not_observed(tmp_path):
    assert save_plots(tmp_path, Observations(), None) == []
    failed = Observations(values={"grads/lesson": "not a tree"})
    assert save_plots(tmp_path, None, failed) == []


def test_lesson_pictures_mark_clipping_and_the_largest_image(tmp_path):
    from grader.exercises.ex2.lesson import question as ex2_question
    from grader.exercises.ex5.lesson import question as ex5_question
    from grader.lesson import describe

    norms = np.linspace(1.0, 2.0, 32)
    norms[7] = 9.0
    from grader import inputs as grader_inputs
    from grader.checks import npref
    from grader.exercises.ex2.lesson import lesson_batch

    logits = npref.mlp(grader_inputs.build()["accuracy"]["params"], lesson_batch()[0])
    ex2 = Observations({"mnist/norms": norms, "mnist/logits": logits})
    question = ex2_question(ex2)
    assert question["index"] == 7 and 0 <= question["label"] <= 9
    assert question["loss"] > 0 and question["norm"] == 9.0 and question["prediction"] == int(np.argmax(logits[7]))
    losses = np.linspace(2.3, 0.1, 50)
    grad_norms = np.where(np.arange(50) < 10, 3.0, 0.5)
    accuracy = Observations({"train": {"1": losses}, "baseline_losses": losses * 1.1, "clipped_grad_norms": grad_norms})
    curves = ex5_question(accuracy)
    assert curves["clipped_steps"] == 10 and curves["first_clipped_steps"][:2] == [0, 1]
    lines = describe({"ex2": question, "ex5": curves})
    assert "example 7" in lines[0] and f"label is {question['label']}" in lines[0] and "10 of 50 steps" in lines[1]
    written = save_plots(tmp_path, accuracy, ex2, {"ex2": question, "ex5": curves})
    assert sorted(p.name for p in written) == ["mnist_grad_norms.png", "training_loss.png"]
    assert all(_image_is_not_blank(p) for p in written)
    assert ex2_question(Observations({"mnist/norms": np.ones(5)})) is None


def test_grading_ex2_answers_the_lesson_question(grade_with):
    from tests.conftest import REFERENCE

    report = grade_with(REFERENCE, only=("ex2",))
    assert report.score == report.max_score == 20
    question = report.lesson["ex2"]
    assert len(question["norms"]) == 32 and question["norms"][question["index"]] == max(question["norms"])
    assert Report.from_json(report.to_json()).lesson == report.lesson


def test_a_grade_that_shows_no_lesson_leaves_its_question_out(grade_with):
    """A batch shows the lesson's question nowhere: its ex2 run does not compute it, and the grade is the same."""
    from tests.conftest import REFERENCE

    report = grade_with(REFERENCE, only=("ex2",), lesson=False)
    assert report.score == report.max_score == 20
    assert report.lesson == {}  # answered from the run's mnist/norms whenever it has them
