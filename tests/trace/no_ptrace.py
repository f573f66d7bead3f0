"""Run a command where the kernel refuses ptrace(2), as a container's seccomp profile may.

    python no_ptrace.py COMMAND [ARG]...

Installs a seccomp filter that makes every ptrace call fail with EPERM
(after PR_SET_NO_NEW_PRIVS, which an unprivileged process may set), then
execs the command; the filter holds for everything it starts.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
import sys

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
EPERM = 1
# linux/audit.h and the syscall tables: the architecture's id and ptrace's number on it.
ARCHITECTURES = {"x86_64": (0xC000003E, 101), "aarch64": (0xC00000B7, 117)}
# BPF: ld/jeq/ret opcodes; seccomp_data has nr at offset 0 and arch at offset 4.
LD_W_ABS, JEQ_K, RET_K = 0x20, 0x15, 0x06


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def instruction(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def deny_ptrace() -> None:
    arch, number = ARCHITECTURES[platform.machine()]
    program = b"".join(
        [
            instruction(LD_W_ABS, 0, 0, 4),  # the architecture
            instruction(JEQ_K, 0, 3, arch),  # another one: allow
            instruction(LD_W_ABS, 0, 0, 0),  # the syscall number
            instruction(JEQ_K, 0, 1, number),
            instruction(RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM),
            instruction(RET_K, 0, 0, SECCOMP_RET_ALLOW),
        ]
    )
    buffer = ctypes.create_string_buffer(program)
    fprog = SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "PR_SET_SECCOMP")


if __name__ == "__main__":
    deny_ptrace()
    os.execvp(sys.argv[1], sys.argv[1:])
