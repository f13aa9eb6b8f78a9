"""The CI front-ends: GitHub Classroom, Gradescope and the pytest plugin, each grading one submission."""
