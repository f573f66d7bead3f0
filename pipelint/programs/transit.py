"""Stages data crosses on its way to the network without changing what compression can do with it.

Shared by PL302 (slow-compression-in-transfer), which sees through all of
them, and PL303 (double-compression), which sees through the buffers only.
"""

from __future__ import annotations

from pipelint.programs.table import Trait, has
from pipelint.shell import syntax
from pipelint.programs.pipeline import Stage

# openssl ciphers run as `openssl enc -aes-256-cbc` or `openssl aes-256-cbc`.
_OPENSSL_CIPHER_PREFIXES = (b"enc", b"aes", b"des", b"bf", b"camellia", b"chacha", b"aria", b"sm4", b"cast", b"rc", b"seed")


def is_buffer(stage: Stage) -> bool:
    """`pv`, `mbuffer`, `buffer` reading the pipe and writing the pipe."""
    return _plain(stage) and has(stage.name, Trait.BUFFER)


def is_encryption(stage: Stage) -> bool:
    """A stage that encrypts the pipe into the pipe: it runs exactly as long as the data flows,
    so a compressor before it still sets the pace (`tar cz | openssl enc … | ssh`)."""
    if not _plain(stage):
        return False
    model = stage.command_model
    if model is None or model.wrappers:
        return False
    if stage.name == b"openssl":
        # Its options are single-dash words (`-aes-256-cbc`, `-in f`): read them as words.
        words = [syntax.literal_value(argument) for argument in model.arguments]
        if not words or words[0] is None or not words[0].startswith(_OPENSSL_CIPHER_PREFIXES):
            return False
        return not {b"-d", b"-in", b"-out"} & set(words)
    if has(stage.name, Trait.GNUPG):
        encrypts = model.has("-c", "--symmetric", "-e", "--encrypt")
        return encrypts and not model.operands and not model.has("-o", "--output", "-d", "--decrypt")
    if stage.name == b"aespipe":
        return not model.has("-d")
    if stage.name == b"age":
        return not model.operands and not model.has("-o", "--output", "-d", "--decrypt")
    return False


def _plain(stage: Stage) -> bool:
    """A simple command whose stdin and stdout are the pipe (stderr may go anywhere)."""
    if not stage.is_simple or syntax.has_assignments(stage.command):
        return False
    return not any(syntax.redirects_stdin(r) or syntax.redirects_stdout(r) for r in stage.all_redirects)
