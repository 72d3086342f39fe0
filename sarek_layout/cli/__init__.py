"""Command-line stage: argument parsing, one module per sub-command, and error reporting."""
