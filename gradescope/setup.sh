#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
# The zip (python -m grader gradescope-zip) is extracted to /autograder/source.
# It installs the grader into its own virtualenv and grades the reference
# solutions once, so the image ships with their observations cached and each
# submission only runs the student's code.
set -euo pipefail

SOURCE="${JAX_GRADER_SOURCE:-/autograder/source}"
VENV="${JAX_GRADER_VENV:-/autograder/venv}"
export JAX_GRADER_CACHE="${JAX_GRADER_CACHE:-/autograder/cache}"
# A zip built with --seed grades on the inputs of its secret seed: warm the cache for those.
if [ -s "$SOURCE/seed" ]; then
    JAX_GRADER_SEED="$(cat "$SOURCE/seed")"
    export JAX_GRADER_SEED
fi

python=""
for candidate in python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null 2>&1; then python="$candidate"; break; fi
done
if [ -z "$python" ]; then
    # Ubuntu 22.04 (Gradescope's default image) ships python3.10; 3.11 is in its archive.
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3.11 python3.11-venv
    python=python3.11
fi
if ! "$python" -m venv --help >/dev/null 2>&1 || ! "$python" -c "import ensurepip" >/dev/null 2>&1; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${python}-venv"
fi

"$python" -m venv "$VENV"
"$VENV/bin/python" -m pip install --upgrade pip
"$VENV/bin/python" -m pip install "$SOURCE"

# Warm the reference cache (and check the install end to end): the reference must score full marks.
"$VENV/bin/python" -m grader "$SOURCE/reference" --reference "$SOURCE/reference" --quiet
