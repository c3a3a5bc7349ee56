"""The reproducible spine: config presets, seeded task runner, result store, executors."""
