#!/usr/bin/env bash
# PrairieLearn external-grader entry point for jax-autograder.
#
# PrairieLearn copies the student's files to /grade/student, runs this script in
# the grading container (built from the Dockerfile beside it) and reads
# /grade/results/results.json. It creates both folders if they are missing
# (PrairieLearn does not create /grade/results). It grades on the public inputs,
# or on a secret seed's: the seed is $JAX_GRADER_SEED, else the file `seed` in
# the question's tests/ folder (/grade/tests/seed), which students never see;
# with a seed, the reference to judge against is /grade/tests/reference (a
# sealed reference made for the seed, or the reference solutions).
#
# It always exits 0 with a results.json: when grading cannot start, the file
# says `gradable: false`, so the student does not lose an attempt. Every path
# can be moved for testing: JAX_GRADER_ROOT (default /grade), JAX_GRADER_PYTHON
# (default /opt/jax-grader/bin/python), JAX_GRADER_CACHE; extra grader options
# go in JAX_GRADER_ARGS (e.g. --allow-unconfined, --timeout 120).
set -uo pipefail

ROOT="${JAX_GRADER_ROOT:-/grade}"
PYTHON="${JAX_GRADER_PYTHON:-/opt/jax-grader/bin/python}"
STUDENT="$ROOT/student"
RESULTS="$ROOT/results"
export JAX_GRADER_CACHE="${JAX_GRADER_CACHE:-/tmp/jax-grader-cache}"
mkdir -p "$STUDENT" "$RESULTS"
rm -rf "$RESULTS/plots" "$RESULTS/results.json"

if [ -z "${JAX_GRADER_SEED:-}" ] && [ -s "$ROOT/tests/seed" ]; then
    JAX_GRADER_SEED="$(head -n 1 "$ROOT/tests/seed")"
    export JAX_GRADER_SEED
fi
reference=()
if [ -n "${JAX_GRADER_SEED:-}" ] && [ -d "$ROOT/tests/reference" ]; then
    reference=(--reference "$ROOT/tests/reference")
fi

target="$("$PYTHON" -P -m grader.gradescope locate "$STUDENT")" || target="$STUDENT"
# -P keeps the working folder off the import path. The grader's log goes to the job's output.
# shellcheck disable=SC2086  # JAX_GRADER_ARGS is a list of options
"$PYTHON" -P -m grader "$target" "${reference[@]}" --prairielearn "$RESULTS/results.json" --plots "$RESULTS/plots" \
    --verbose --require-confinement ${JAX_GRADER_ARGS:-}
status=$?
if [ ! -s "$RESULTS/results.json" ]; then
    printf '{"gradable": false, "format_errors": ["The autograder failed before it could grade (exit status %s); this attempt does not count. Tell your instructor."], "message": "The autograder failed before it could grade."}\n' "$status" > "$RESULTS/results.json"
fi
exit 0
