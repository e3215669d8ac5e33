"""End-to-end rubric: the student's pieces, trained together, clear an accuracy threshold."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from grader.checks import Check, Context, Verdict, fail
from grader.exercises.accuracy.shared import BATCH, DROPOUT, EPOCHS
from grader.inputs import PARENT_ONLY
from grader.rubric import AccuracyRule, load_accuracy_rule

HINT_TRAINING = (
    "The grader trains with your forward_with_dropout(params, x, key, {rate}, True) for the loss, your "
    "make_optimizer() for the updates and your mlp_forward(params, x) for the test logits; fix the "
    "exercise checks above first, they point at the piece that is wrong."
)
HINT_NAN = "The training loss became NaN or inf: check dropout's scaling and the optimizer's chain."


def test_accuracy(ctx: Context) -> float:
    """The accuracy of the child's test logits against the test labels, which only the parent holds."""
    logits = np.asarray(ctx.got("test_logits"), dtype=np.float64)
    y = ctx.inputs[PARENT_ONLY]["accuracy"]["y_test"]
    if logits.shape != (len(y), 10):
        raise ValueError(f"mlp_forward returned shape {logits.shape} for the test set, expected {(len(y), 10)}")
    return float(np.mean(np.argmax(logits, axis=1) == y))


def threshold_check(rule: AccuracyRule) -> Check:
    """The check that the accuracy run clears ``rule.threshold`` (partial credit from ``rule.floor``)."""

    def judge(ctx: Context) -> Verdict:
        """Held-out accuracy of the grader's training loop built from the student's pieces."""
        hint = HINT_TRAINING.format(rate=DROPOUT)
        losses = ctx.got("train")
        losses = np.asarray(losses.get("1", [])) if isinstance(losses, dict) else np.asarray([])
        try:
            accuracy = test_accuracy(ctx)
        except ValueError as exc:
            return fail(str(exc), hint)
        details = {"accuracy": accuracy, "threshold": rule.threshold, "reference_mean": rule.reference_mean,
                   "final_loss": float(losses[-1]) if losses.size else float("nan")}
        setup = (f"{EPOCHS} epochs, batch {BATCH}, dropout {DROPOUT}, "
                 f"4000 training / 1000 test images")
        message = (f"test accuracy {accuracy:.3f}, threshold {rule.threshold:.3f} "
                   f"(the reference reaches {rule.reference_mean:.3f}; {setup})")
        if accuracy >= rule.threshold:
            return Verdict(True, message, details=details)
        if losses.size and not np.all(np.isfinite(losses)):
            hint = HINT_NAN
        span = rule.threshold - rule.floor
        verdict = fail(message, hint, fraction=(accuracy - rule.floor) / span if span > 0 else 0.0)
        return replace(verdict, details=details)

    return Check("accuracy.threshold", "your pieces, trained together, reach the accuracy threshold", judge,
                 ("forward_with_dropout", "make_optimizer", "mlp_forward"))


#: The rule is this package's ``rule.toml``, read when the checks are.
CHECKS = [threshold_check(load_accuracy_rule())]
