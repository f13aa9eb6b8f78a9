"""The command line: `jacpuzzles` and its commands."""
