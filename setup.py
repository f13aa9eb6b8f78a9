"""Build hook: the wheel carries a copy of the reference answers (`jacpuzzles solution` reads it)
and of the documentation pages (`jacpuzzles docs PAGE` prints one; messages name that command).

All configuration is in pyproject.toml. `solutions/` and `docs/` stay the single sources: they
are copied into the build folder as `checker/_data/solutions/` and `checker/_docs/` each time a
wheel is built, never into the source tree, so there is no second copy to drift. An editable
install reads `solutions/` and `docs/` directly.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SOURCE = Path(__file__).resolve().parent / "solutions"
DOCS = Path(__file__).resolve().parent / "docs"
DOC_PAGES = ("*.md", "templates/*.toml", "templates/*.yml")  # checker/learner/_docs.py's PAGES


class BuildWithSolutions(build_py):
    """`build_py`, then fresh copies of `solutions/<chapter>/<name>.py` and of the documentation
    pages into the built package."""

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
        docs = Path(self.build_lib) / "checker" / "_docs"
        if docs.exists():
            shutil.rmtree(docs)
        for pattern in DOC_PAGES:
            for path in sorted(DOCS.glob(pattern)):
                dest = docs / path.relative_to(DOCS)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, dest)


setup(cmdclass={"build_py": BuildWithSolutions})
