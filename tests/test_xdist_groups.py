"""The default run spreads test files over the cores with pytest-xdist's `--dist loadgroup`
(tests/conftest.py): every file is a group, and the files that run the class grader are one
group, so two graders never compete for the cores and a file's class run is made once. That
rests on pytest-xdist tagging each test's id with its group: when a pytest release stops it
from doing so (9.2 did, with xdist 3.8), the groups silently vanish; this test says so."""

from __future__ import annotations

import pytest

from tests.conftest import GRADING


def test_this_test_s_id_carries_its_group_under_pytest_xdist(request: pytest.FixtureRequest) -> None:
    if not hasattr(request.config, "workerinput"):
        pytest.skip("not under pytest-xdist (-n 0): no groups to keep")
    if not request.config.getvalue("loadgroup"):  # what pytest-xdist tells its workers
        pytest.skip("not --dist loadgroup")
    assert request.node.nodeid.endswith("@test_xdist_groups.py"), (
        f"{request.node.nodeid}: pytest-xdist did not tag the test with its group, so --dist loadgroup does not keep "
        "the grading files together"
    )


def test_the_grading_group_names_files_that_exist() -> None:
    from pathlib import Path

    here = Path(__file__).parent
    assert GRADING and all((here / name).is_file() for name in GRADING), sorted(
        n for n in GRADING if not (here / n).is_file()
    )
