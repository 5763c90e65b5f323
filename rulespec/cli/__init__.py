"""The command line: one module per command group, shared options in one place."""
