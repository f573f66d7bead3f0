"""Which shell a script is for."""

from __future__ import annotations

import pytest

from pipelint.dialect import Dialect, detect


@pytest.mark.parametrize(
    ("source", "path", "dialect"),
    [
        (b"#!/bin/bash\n", "x", Dialect.BASH),
        (b"#!/usr/bin/env bash\n", "x", Dialect.BASH),
        (b"#!/usr/bin/env -S bash -e\n", "x", Dialect.BASH),
        (b"#!/bin/sh\n", "x.bash", Dialect.SH),
        (b"#! /bin/dash\n", "x", Dialect.SH),
        (b"#!/bin/ksh\n", "x", Dialect.KSH),
        (b"echo\n", "x.bash", Dialect.BASH),
        (b"echo\n", "x.sh", Dialect.SH),
        (b"echo\n", None, Dialect.SH),
        (b"#!/bin/sh\n# shellcheck shell=bash\n", "x", Dialect.BASH),
        (b"#!/bin/bash\n# pipelint: shell=sh\n", "x", Dialect.SH),
    ],
)
def test_detect(source, path, dialect):
    assert detect(source, path) is dialect
