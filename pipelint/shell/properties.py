"""`cached_property` without functools' lock.

Python 3.11's `functools.cached_property` takes an RLock on every first
access; the engine computes some 120,000 of them on a megabyte of pipelines
(stage models, command splits, script facts), and the lock was 4 % of the
lint. The objects that use this one are made and read by one thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

Value = TypeVar("Value")


class cached_property(Generic[Value]):  # noqa: N801 - named as the functools one it stands for
    """Computed on first access, then kept in the instance's __dict__ (which later reads find first)."""

    def __init__(self, compute: Callable[[Any], Value]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached_property[Value]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> Value: ...
    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)
        return value
