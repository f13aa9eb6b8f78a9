"""For authors of puzzles: packs (`pack new`, `pack check`), the mutation operators, and the files
generated from the kit's catalog (`dev generate`)."""
