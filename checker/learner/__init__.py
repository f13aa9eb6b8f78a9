"""The learner's loop: workspaces and their progress, watch, pictures of Jacobians, notebooks."""
