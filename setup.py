"""Build hook: the wheel ships the exercise stubs (``exercises/``) as ``grader/_stubs/``.

``exercises/`` stays the one copy in the repository; ``python -m grader init
DIR`` reads the copy in an installed package, or the checkout's folder in an
editable install. Everything else is configured in ``pyproject.toml``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

STUBS = ("ex1_dropout.py", "ex2_per_example_grads.py", "ex3_mlp_forward.py", "ex4_jit_speedup.py",
         "ex5_clipping.py", "answers.md")


class BuildWithStubs(build_py):
    def run(self) -> None:
        # A build folder left by an earlier build keeps modules since moved or deleted, and setuptools would
        # pack them too (an old probe changes the probes' digest, so the wheel would refuse its own sealed
        # reference): every build starts from the package as it is now.
        shutil.rmtree(Path(self.build_lib) / "grader", ignore_errors=True)
        super().run()
        source = Path(__file__).resolve().parent / "exercises"
        target = Path(self.build_lib) / "grader" / "_stubs"
        self.mkpath(str(target))
        for name in STUBS:
            self.copy_file(str(source / name), str(target / name))


setup(cmdclass={"build_py": BuildWithStubs})
