"""One module per paper: its config schema, task functions, tables and figures."""
