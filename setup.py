"""Build hook: the wheel carries a copy of the reference answers (`jacpuzzles solution` reads it).

All configuration is in pyproject.toml. `solutions/` stays the single source: it is copied into
the build folder as `checker/_data/solutions/` each time a wheel is built, never into the source
tree, so there is no second copy to drift. An editable install reads `solutions/` directly.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SOURCE = Path(__file__).resolve().parent / "solutions"


class BuildWithSolutions(build_py):
    """`build_py`, then a fresh copy of `solutions/<chapter>/<name>.py` into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "checker" / "_data" / "solutions"
        if target.exists():
            shutil.rmtree(target)
        for path in sorted(SOURCE.glob("*/*.py")):
            dest = target / path.relative_to(SOURCE)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)


setup(cmdclass={"build_py": BuildWithSolutions})
