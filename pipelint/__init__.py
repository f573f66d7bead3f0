"""pipelint: a linter and optimizer for shell pipelines."""

# Read by the build (pyproject.toml: [[tool.dynamic-metadata]]), so the package's
# metadata and this agree; a constant, because importlib.metadata costs ~50 ms
# of every run's start-up (issue 11).
__version__ = "0.1.0"
