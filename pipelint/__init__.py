"""pipelint: a linter and optimizer for shell pipelines."""

from importlib import metadata

try:
    __version__ = metadata.version("pipelint")
except metadata.PackageNotFoundError:  # running from a source checkout
    __version__ = "0.1.0"
