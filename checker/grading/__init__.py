"""Grading a class: reading submissions, the sandboxed workers, the grader, the gradebook, evidence of copying."""
