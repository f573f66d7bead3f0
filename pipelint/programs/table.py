"""The one table of what programs do: every fact pipelint knows about a program lives here.

Each program has one `Program` entry: how its words split into options and
operands (`OptionSpec`: which options take a value, GNU permutation or POSIX
order), whether it is a wrapper that runs another command (`WrapperSpec`:
`sudo`, `env`, `nice`), and its `Trait`s: how it reads standard input,
what it prints on empty input, whether it is a shell builtin that acts on
the shell, a compressor, a dump restorer, a remote shell. Rules, rewrites,
facts and the embedded-shell finders ask here (`program(name)`,
`has(name, trait)`, `named(trait)`) and never keep a list of their own.

Only what some check needs is written: an option missing here is still read
as an option, just one without a value, and a program missing here has no
trait, so a question about it gets the cautious answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from pipelint.shell.dialect import SHELL_PROGRAMS


@dataclass(frozen=True)
class OptionSpec:
    """How one program's words split into options, their values and operands."""

    short_with_value: str = ""  # "o": -o VALUE and -oVALUE
    short_attached_value: str = ""  # "p": -pVALUE only (`mysql -p db` prompts and opens db)
    long_with_value: frozenset[str] = frozenset()  # "--output": --output VALUE and --output=VALUE
    long_optional_value: frozenset[str] = frozenset()  # "--color": only --color=WHEN, never the next word
    digit_options: bool = False  # "-9", "-19": a run of digits in a cluster is ONE option
    options_end_at_operand: bool = False  # POSIX order: the first operand ends the options
    # With options_end_at_operand: options are read again after the first operand, up to the second
    # (OpenSSH restarts getopt after the host: `ssh host -C cmd` compresses, `ssh host ls -l` lists long).
    options_after_first_operand: bool = False
    old_style_first_word: bool = False  # `tar czf f`: a first word without '-' is a cluster
    query_options: frozenset[str] = frozenset()  # options that make a wrapper run nothing (`command -v`)


@dataclass(frozen=True)
class WrapperSpec:
    """A program that runs the command named after its options and positional words."""

    options: OptionSpec
    positional: int = 0  # words between the options and the command: `timeout 5 cmd`, `chrt 10 cmd`
    assignments: bool = False  # `env A=1 B=2 cmd`
    other_user: bool = False  # sudo, doas: the command runs as someone else
    unknowable: frozenset[str] = frozenset()  # options after which the command cannot be told (`env -S`)


class FileInput(Enum):
    """What changes when a program's standard input is a regular file instead of a pipe (`ReadsFileDifferently`)."""

    OUTPUT = "it writes other bytes (to stdout, stderr or its files)"
    NEVER_ENDS = "it never ends"
    SLOWER = "it runs slower"


@dataclass(frozen=True)
class ReadsFileDifferently:
    """A program that reads a regular file on standard input otherwise than a pipe (issue 25).

    `cat f | gzip` writes the header time 0, `gzip < f` the file's modification
    time; `cat f | tail -f` ends with the pipe, `tail -f < f` follows the file
    forever; GNU sort sizes its buffer from a file's size. The redirect rewrite
    (`rewrites/stdin_redirect.py`) asks this before it hands a consumer a file.

    Options are matched as the command model reads them (`-f`, `--follow`); a
    `KEY=` or `KEY=VALUE` entry matches dd's operands (`count=`, `status=none`,
    and `iflag=fullblock` within `iflag=direct,fullblock`).
    """

    how: FileInput
    because: str  # the finding's help: what the file changes, with the number that shows it
    with_options: frozenset[str] = frozenset()  # only with one of these (`tail -f`); empty: whatever the options
    unless_options: frozenset[str] = frozenset()  # never with one of these (`gzip -n`, `gzip -d`, `sort -S`)
    undone_by: frozenset[str] = frozenset()  # options after which `unless_options` may no longer hold (`gzip -n -N`)
    kept_by: str | None = None  # an option the fix may add so the file is read as the pipe was (`-n`)


class Trait(Enum):
    """What a program does, as the checks ask it. Each is documented where it is defined."""

    # Standard input and output.
    QUIET_PRODUCER = "its only effect while it runs is what it writes to stdout (killed early, it leaves nothing else)"
    DRAINS_INPUT = "reads its input to the end whatever it holds (unless one of `stops_early_with`)"
    SILENT_ON_EMPTY = "prints nothing when its input is empty (unless one of `speaks_on_empty_with`)"
    FAILS_ON_EMPTY = "exits non-zero on empty input (unless one of `succeeds_on_empty_with`)"
    NEVER_READS_STDIN = "never reads standard input (unless one of `reads_stdin_with`): a builtin that prints or sets, `mkdir`"
    BOUNDED_OUTPUT = "prints a few lines, however large the data around it is"
    OUTPUT_AT_MOST_INPUT = "writes at most its input (or a fixed multiple of it): a filter that cannot make more"
    BUFFER = "copies its input to its output unchanged (a meter or a buffer)"
    COPIES_FILES_OUT = "writes its file operands to stdout unchanged (`cat f`, `pv f`)"
    DECOMPRESSES_TO_STDOUT = "decompresses its operands to stdout, never into files (`zcat f.gz`)"
    SENDS_STDIN = "sends its standard input over the network"
    # Shell builtins that act on the shell they run in.
    CHANGES_SHELL_STATE = "a builtin whose effect on the current shell (variables, directory, options) outlives it"
    CONTROLS_FLOW = "a builtin that acts on the loop, function or shell it runs in (`break`, `exit`)"
    LEAVES_LOOP = "a builtin after which the loop it runs in goes on no more (`break`, `exit`, `return`; not `continue`)"
    SPECIAL_BUILTIN = "a POSIX special builtin: a failed redirect on it ends a POSIX shell"
    RUNS_OTHER_CODE = "runs code the script does not show (`. FILE`, `eval`): it may define or set anything"
    RUNS_BUILTINS = "runs the builtin named after it in the same shell (`command cd`, `builtin read`, bash's `time cd`)"
    SETS_OPTIONS = "turns shell options on or off (`set -e`, `shopt -s lastpipe`; an ERR trap acts as errexit)"
    SHAPES_LATER_COMMANDS = "changes how every later command runs: the shell's descriptors, directory or builtins"
    SETUP_ONLY = "prepares the shell or a folder and prints nothing (`cd`, `umask`, `mkdir`)"
    PRINTS_ARGUMENTS = "prints its arguments (`echo`, `printf`): the text the script wrote"
    PASSES_STATUS_ON = "without an argument, ends with the status of the command before it (`exit`, `return`)"
    DEFINES_ALIASES = "defines or removes aliases"
    GNUPG = "GnuPG"
    # Families and roles.
    GREP = "grep and its aliases"
    TAR = "an implementation of tar"
    ARCHIVER = "reads an archive on stdin and complains about a directory in its own words"
    COMPRESSOR = "compresses (or, with -d, decompresses) the format in `format`"
    DECOMPRESSOR = "only decompresses the format in `format`"
    RESTORES_DUMP = "restores a database dump or unpacks an archive from stdin (with one of `restores_dump_with`, if any)"
    DUMPS_DATABASE = "writes a database dump that the clients in `restored_by` read back"
    MYSQL_CLIENT = "MySQL's command-line client (runs `LOAD DATA`)"
    BULK_IMPORTER = "MySQL's bulk importer"
    MOUNTS = "mounts a filesystem (of type `filesystem` when the helper names one)"
    UNMOUNTS = "unmounts a filesystem"
    SHELL = "a shell that runs `-c TEXT` or the script on its stdin"
    REMOTE_SHELL = "runs its words, joined, in a shell on another machine"
    SWITCHES_USER = "runs `-c TEXT` (or its stdin) in another user's login shell"
    RUNS_ELSEWHERE = "launches its command in a container or a pod, with that one's files and programs"
    COPIES_TO_HOSTS = "copies files to or from another machine"
    OPERANDS_ALIKE = (
        "does to each operand what it does to that one alone, so one call with many operands does what a call "
        "per operand does (`rm`, `chmod 644`, `sha256sum`; with `many_operands_with`, given that option)"
    )


@dataclass(frozen=True)
class Program:
    """What pipelint knows about one program."""

    options: OptionSpec
    traits: frozenset[Trait] = frozenset()
    wrapper: WrapperSpec | None = None  # it runs the command named after its options (`sudo`, `nice`)
    stops_early_with: frozenset[str] = frozenset()  # DRAINS_INPUT, except with one of these (`grep -q`)
    speaks_on_empty_with: frozenset[str] = frozenset()  # SILENT_ON_EMPTY, except with one of these (`grep -c`)
    succeeds_on_empty_with: frozenset[str] = frozenset()  # FAILS_ON_EMPTY, except with one of these (`grep -L`)
    writes_file_with: frozenset[str] = frozenset()  # options naming a file it writes instead of stdout (`sort -o F`)
    reads_stdin_with: frozenset[str] = frozenset()  # NEVER_READS_STDIN, except with one of these (`rm -i` asks)
    restores_dump_with: frozenset[str] = frozenset()  # RESTORES_DUMP only with one of these (`tar -x`); empty: always
    format: str | None = None  # COMPRESSOR, DECOMPRESSOR: "gzip", "xz"…
    filesystem: str | None = None  # MOUNTS: the type a mount helper mounts (`mount.nfs4`: nfs4)
    restored_by: frozenset[bytes] = frozenset()  # DUMPS_DATABASE: the clients that read the dump back
    output_operand: bool = False  # `lz4 SRC DST`: a second operand is the file it writes
    many_operands_with: str | None = None  # OPERANDS_ALIKE only with this option (`basename -a`)
    # COMPRESSOR on one core: from this level on (its default among them) it sets the pace of a transfer it feeds,
    # and the faster command that writes the same format.
    slow_from_level: int | None = None
    faster: str | None = None
    # How it reads a regular file on stdin otherwise than a pipe: what a redirect fix would change.
    file_input: tuple[ReadsFileDifferently, ...] = ()

    def has(self, trait: Trait) -> bool:
        return trait in self.traits

def _long(*names: str) -> frozenset[str]:
    return frozenset(names)


# Programs with no options of their own that take a value and GNU permutation.
DEFAULT = OptionSpec()

_COMPRESSOR_LONG = _long("--suffix", "--threads", "--format", "--check", "--memlimit", "--output", "--dict")


def _compressor(short_with_value: str) -> OptionSpec:
    """gzip, xz, zstd… : `-9` and `-19` are levels."""
    return OptionSpec(short_with_value=short_with_value, long_with_value=_COMPRESSOR_LONG, digit_options=True)


_SSH = OptionSpec(
    short_with_value="BbcDEeFIiJLlmOoPpQRSWw", options_end_at_operand=True, options_after_first_operand=True
)
# autossh passes everything but -M (its monitoring port) on to ssh.
_AUTOSSH = OptionSpec(
    short_with_value="BbcDEeFIiJLlmMOoPpQRSWw", options_end_at_operand=True, options_after_first_operand=True
)
# sh, bash, dash, ksh: `-o pipefail`, `bash -O extglob`; the first operand ends the options.
_SHELL = OptionSpec(short_with_value="oO", long_with_value=_long("--rcfile", "--init-file"), options_end_at_operand=True)
# util-linux su and runuser (GNU permutation: `su postgres -c CMD` reads -c too); a lone `-` is `--login`.
# `runuser -u USER -- CMD…` runs CMD itself, without a shell.
_SU = OptionSpec(
    short_with_value="csgGwu",
    long_with_value=_long("--command", "--session-command", "--shell", "--group", "--supp-group",
                          "--whitelist-environment", "--user"),
)  # fmt: skip
# xargs stops at its command; -i, -l and -e take their values attached only (`-i{}`, `-l1`).
XARGS = OptionSpec(
    short_with_value="IanLsdPE",
    short_attached_value="ile",
    long_with_value=_long("--arg-file", "--delimiter", "--max-args", "--max-lines", "--max-chars", "--max-procs",
                          "--process-slot-var"),
    long_optional_value=_long("--replace", "--eof"),
    options_end_at_operand=True,
)  # fmt: skip
# procps watch: `watch -n 5 CMD…` joins CMD… for `sh -c`; with -x it runs the words as they are.
_WATCH = OptionSpec(short_with_value="nq", long_with_value=_long("--interval", "--equexit"), options_end_at_operand=True)
# util-linux flock: `flock [opts] FILE CMD…` or `flock [opts] FILE -c CMD`: -c only right after FILE.
_FLOCK = OptionSpec(short_with_value="wE", long_with_value=_long("--timeout", "--conflict-exit-code"),
                    options_end_at_operand=True)  # fmt: skip
_CHROOT = OptionSpec(long_with_value=_long("--userspec", "--groups"), options_end_at_operand=True)
# docker/podman before the subcommand (`docker -H tcp://h exec …`), and `docker exec`'s own options:
# both stop at the first operand, as docker's flag parser does for exec.
DOCKER = OptionSpec(
    short_with_value="Hcl",
    long_with_value=_long("--host", "--context", "--config", "--log-level", "--tlscacert", "--tlscert", "--tlskey",
                          "--url", "--connection", "--identity", "--root", "--runroot"),
    options_end_at_operand=True,
)  # fmt: skip
DOCKER_EXEC = OptionSpec(
    short_with_value="euw",
    long_with_value=_long("--env", "--env-file", "--user", "--workdir", "--detach-keys", "--preserve-fds"),
    options_end_at_operand=True,
)
# `docker compose [global] exec [opts] SERVICE CMD…` and `docker-compose`.
COMPOSE = OptionSpec(
    short_with_value="fp",
    long_with_value=_long("--file", "--project-name", "--profile", "--env-file", "--project-directory", "--ansi",
                          "--progress", "--parallel"),
    options_end_at_operand=True,
)  # fmt: skip
COMPOSE_EXEC = OptionSpec(
    short_with_value="euw", long_with_value=_long("--env", "--index", "--user", "--workdir"), options_end_at_operand=True
)
# kubectl (and OpenShift's oc) read flags anywhere before `--`: `kubectl -n ns exec -i pod -c app -- sh`.
_KUBECTL = OptionSpec(
    short_with_value="ncfsvl",
    long_with_value=_long("--namespace", "--container", "--filename", "--context", "--cluster", "--user",
                          "--kubeconfig", "--server", "--token", "--as", "--as-group", "--request-timeout",
                          "--pod-running-timeout", "--certificate-authority", "--client-certificate", "--client-key",
                          "--tls-server-name", "--cache-dir", "--selector", "--v"),
)  # fmt: skip
_MOUNT = OptionSpec(
    short_with_value="tOoLUN",
    long_with_value=_long("--types", "--options", "--test-opts", "--label", "--uuid"),
)
_GREP = OptionSpec(
    short_with_value="efmABCdD",
    long_with_value=_long(
        "--regexp", "--file", "--max-count", "--label", "--binary-files", "--after-context", "--before-context",
        "--context", "--devices", "--directories", "--exclude", "--include", "--exclude-from", "--exclude-dir",
        "--group-separator",
    ),
    long_optional_value=_long("--color", "--colour"),
    digit_options=True,  # `grep -5`: five lines of context
)  # fmt: skip
_TAR = OptionSpec(
    short_with_value="bCfFgHIKLNTVX",
    long_with_value=_long(
        "--file", "--directory", "--use-compress-program", "--files-from", "--exclude-from", "--exclude",
        "--format", "--blocking-factor", "--label", "--newer", "--owner", "--group", "--mode", "--transform",
        "--xform", "--listed-incremental", "--info-script", "--new-volume-script", "--tape-length",
    ),
    old_style_first_word=True,
)  # fmt: skip

# `-p` takes its password attached only: `mysql -p db` prompts and opens db; `-psecret` is no cluster.
_MYSQL = OptionSpec(
    short_with_value="hPuDeS",
    short_attached_value="p",
    long_with_value=_long("--execute", "--database", "--user", "--host", "--port", "--socket"),
    long_optional_value=_long("--password"),
)
_MYSQLDUMP = OptionSpec(
    short_with_value="hPuSrTw",
    short_attached_value="p",
    long_with_value=_long("--host", "--port", "--user", "--socket", "--result-file", "--tab", "--where"),
    long_optional_value=_long("--password"),
)
_PG_DUMP = OptionSpec(
    short_with_value="fFjnNtTZhpUdES",
    long_with_value=_long("--file", "--format", "--jobs", "--schema", "--exclude-schema", "--table",
                          "--exclude-table", "--compress", "--host", "--port", "--username", "--dbname",
                          "--encoding", "--superuser"),
)  # fmt: skip

_GPG = OptionSpec(
    short_with_value="rRzuoa",
    long_with_value=_long("--recipient", "--hidden-recipient", "--local-user", "--output", "--passphrase",
                          "--passphrase-file", "--passphrase-fd", "--cipher-algo", "--compress-algo", "--homedir",
                          "--pinentry-mode", "--trust-model", "--compress-level"),
)  # fmt: skip


_WRAPPER_SPECS: dict[bytes, WrapperSpec] = {
    b"sudo": WrapperSpec(
        OptionSpec(
            short_with_value="ugCDhpRrtUT",
            long_with_value=_long("--user", "--group", "--close-from", "--chdir", "--host", "--prompt", "--chroot",
                                  "--role", "--type", "--other-user", "--command-timeout"),
            options_end_at_operand=True,
            query_options=_long("-l", "--list", "-v", "--validate", "-e", "--edit", "-K", "--remove-timestamp",
                                "-V", "--version", "--help"),
        ),
        assignments=True,  # `sudo VAR=value cmd`
        other_user=True,
    ),  # fmt: skip
    b"doas": WrapperSpec(
        OptionSpec(short_with_value="uC", options_end_at_operand=True, query_options=_long("-C", "-L", "-s")),
        other_user=True,
    ),
    b"env": WrapperSpec(
        OptionSpec(
            short_with_value="uCS",
            long_with_value=_long("--unset", "--chdir", "--split-string"),
            options_end_at_operand=True,
        ),
        assignments=True,
        unknowable=_long("-S", "--split-string"),
    ),
    b"nice": WrapperSpec(
        OptionSpec(
            short_with_value="n", long_with_value=_long("--adjustment"), digit_options=True, options_end_at_operand=True
        )
    ),
    b"ionice": WrapperSpec(
        OptionSpec(
            short_with_value="cnpPu",
            long_with_value=_long("--class", "--classdata", "--pid", "--pgid", "--uid"),
            options_end_at_operand=True,
            query_options=_long("-p", "--pid", "-P", "--pgid", "-u", "--uid"),
        )
    ),
    b"nohup": WrapperSpec(OptionSpec(options_end_at_operand=True)),
    # The bash keyword (`time -p cmd`) and /usr/bin/time (`-f FMT`, `-o FILE`).
    b"time": WrapperSpec(
        OptionSpec(short_with_value="fo", long_with_value=_long("--format", "--output"), options_end_at_operand=True)
    ),
    b"command": WrapperSpec(OptionSpec(options_end_at_operand=True, query_options=_long("-v", "-V"))),
    b"exec": WrapperSpec(OptionSpec(short_with_value="a", options_end_at_operand=True)),
    b"sshpass": WrapperSpec(OptionSpec(short_with_value="pfdP", options_end_at_operand=True)),
    b"stdbuf": WrapperSpec(
        OptionSpec(
            short_with_value="ioe", long_with_value=_long("--input", "--output", "--error"), options_end_at_operand=True
        )
    ),
    b"timeout": WrapperSpec(
        OptionSpec(
            short_with_value="sk", long_with_value=_long("--signal", "--kill-after"), options_end_at_operand=True
        ),
        positional=1,  # DURATION
    ),
    b"chrt": WrapperSpec(
        OptionSpec(
            short_with_value="TPD",
            long_with_value=_long("--sched-runtime", "--sched-period", "--sched-deadline"),
            options_end_at_operand=True,
            query_options=_long("-p", "--pid", "-m", "--max"),
        ),
        positional=1,  # PRIORITY
    ),
    b"taskset": WrapperSpec(
        OptionSpec(options_end_at_operand=True, query_options=_long("-p", "--pid")),
        positional=1,  # MASK or CPU list
    ),
}


# Shorthands for the table below.
QUIET, DRAINS, SILENT, SHRINKS = Trait.QUIET_PRODUCER, Trait.DRAINS_INPUT, Trait.SILENT_ON_EMPTY, Trait.OUTPUT_AT_MOST_INPUT
BOUNDED, NO_STDIN, STATE = Trait.BOUNDED_OUTPUT, Trait.NEVER_READS_STDIN, Trait.CHANGES_SHELL_STATE
FLOW, SPECIAL = Trait.CONTROLS_FLOW, Trait.SPECIAL_BUILTIN
ALIKE = Trait.OPERANDS_ALIKE

# Options that make grep stop at the first line that settles the answer, print on empty input, succeed on it.
_GREP_STOPS = _long("-q", "--quiet", "--silent", "-m", "--max-count", "-l", "-L", "--files-with-matches",
                    "--files-without-match")  # fmt: skip
_GREP_SPEAKS_ON_EMPTY = _long("-c", "--count", "-L", "--files-without-match")
_GREP_SUCCEEDS_ON_EMPTY = _long("-L", "--files-without-match")
_MYSQL_CLIENTS = frozenset({b"mysql", b"mariadb"})


def _entry(options: OptionSpec = DEFAULT, *traits: Trait, **facts: object) -> Program:
    return Program(options, frozenset(traits), **facts)  # type: ignore[arg-type]


def _grep() -> Program:
    return _entry(
        _GREP, Trait.GREP, QUIET, DRAINS, SILENT, Trait.FAILS_ON_EMPTY, SHRINKS,
        stops_early_with=_GREP_STOPS, speaks_on_empty_with=_GREP_SPEAKS_ON_EMPTY,
        succeeds_on_empty_with=_GREP_SUCCEEDS_ON_EMPTY,
    )  # fmt: skip


def _compressor_entry(short_with_value: str, format: str, *traits: Trait, **facts: object) -> Program:
    return _entry(_compressor(short_with_value), Trait.COMPRESSOR, *traits, format=format, **facts)


def _decompressor_entry(short_with_value: str, format: str, *traits: Trait, output_operand: bool = False) -> Program:
    return _entry(_compressor(short_with_value), Trait.DECOMPRESSOR, *traits, format=format, output_operand=output_operand)


def _tar() -> Program:
    return _entry(_TAR, Trait.TAR, Trait.ARCHIVER, Trait.RESTORES_DUMP, restores_dump_with=_long("-x", "--extract", "--get"))


def _mount(filesystem: str | None = None) -> Program:
    return _entry(_MOUNT, Trait.MOUNTS, filesystem=filesystem)


def _dump(options: OptionSpec, restored_by: frozenset[bytes], writes_file_with: frozenset[str]) -> Program:
    return _entry(options, Trait.DUMPS_DATABASE, restored_by=restored_by, writes_file_with=writes_file_with)


def _wrapper(spec: WrapperSpec, *traits: Trait) -> Program:
    return Program(spec.options, frozenset(traits), wrapper=spec)


# How programs read a regular file on stdin otherwise than a pipe (issue 25; coreutils 9.1, gzip 1.12,
# pigz 2.6, lz4 1.9.4; tests/rules/test_file_input.py runs each both ways). xz, zstd, bzip2 and lz4
# without --content-size write the same bytes either way; `wc -c` and `tail -n` only read less of a file.
_NOT_COMPRESSING = ("-d", "--decompress", "--uncompress", "-t", "--test", "-l", "--list")
_GZIP_TIME = ReadsFileDifferently(
    FileInput.OUTPUT,
    "gzip stores a regular file's modification time in its header, where a pipe gives it none: the compressed"
    " bytes change",
    unless_options=_long("-n", "--no-name", *_NOT_COMPRESSING),
    undone_by=_long("-N", "--name"),
    kept_by="-n",  # no time from a file either: the header of the pipe, byte for byte
)
_PIGZ_TIME = ReadsFileDifferently(
    FileInput.OUTPUT,
    "pigz stores a regular file's modification time in its header, and the time it ran for a pipe: the"
    " compressed bytes change",
    unless_options=_long("-n", "--no-name", "-m", "--no-time", *_NOT_COMPRESSING),
    undone_by=_long("-N", "--name", "-M", "--time"),
)
_LZ4_SIZE = ReadsFileDifferently(
    FileInput.OUTPUT,
    "with --content-size, lz4 stores a regular file's size in the frame header, which a pipe does not give it",
    with_options=_long("--content-size"),
    unless_options=_long(*_NOT_COMPRESSING),
)
_TAIL_FOLLOW = ReadsFileDifferently(
    FileInput.NEVER_ENDS,
    "`tail -f` follows a regular file and never ends, where it ignores -f on a pipe and ends with it",
    with_options=_long("-f", "-F", "--follow"),
)
_SORT_BUFFER = ReadsFileDifferently(
    FileInput.SLOWER,
    "GNU sort sizes its buffer from a regular file's size and sorts a large file in one buffer, slower than"
    " in the small pieces it takes from a pipe; with -S the two are alike",
    unless_options=_long("-S", "--buffer-size"),
)
_DD_RECORDS = ReadsFileDifferently(
    FileInput.OUTPUT,
    "dd counts each short read from a pipe as a partial record (`0+81 records in` where the file gives `5+1`):"
    " its statistics on stderr change",
    unless_options=_long("status=none", "iflag=fullblock"),
)
_DD_COUNTS = ReadsFileDifferently(
    FileInput.OUTPUT,
    "dd's count=, skip= and conv= act on each read, which a pipe cuts short and a file does not: `bs=1M count=1`"
    " copies 64 KiB from a pipe and 1 MiB from the file",
    with_options=_long("count=", "skip=", "iseek=", "conv="),
    unless_options=_long("iflag=fullblock"),
)
_PV_SIZE = ReadsFileDifferently(
    FileInput.OUTPUT,
    "pv knows a regular file's size and draws a percentage and an ETA on stderr, which it cannot for a pipe",
    unless_options=_long("-q", "--quiet", "-s", "--size"),
)
_PV = OptionSpec(
    short_with_value="sLiNDAwHBFRPx",
    long_with_value=_long("--size", "--rate-limit", "--interval", "--name", "--delay-start", "--average-rate-window",
                          "--width", "--height", "--buffer-size", "--format", "--remote", "--pidfile", "--watchfd",
                          "--last-written", "--extra-display"),
)  # fmt: skip


# Every program pipelint knows, by the name it runs under.
PROGRAMS: dict[bytes, Program] = {
    # Text tools.
    b"cat": _entry(DEFAULT, QUIET, DRAINS, SILENT, SHRINKS, Trait.COPIES_FILES_OUT, ALIKE),
    b"tee": _entry(OptionSpec(long_optional_value=_long("--output-error")), DRAINS, SHRINKS),
    b"grep": _grep(),
    b"egrep": _grep(),
    b"fgrep": _grep(),
    b"sort": _entry(
        OptionSpec(
            short_with_value="kotST",
            long_with_value=_long(
                "--key", "--output", "--field-separator", "--buffer-size", "--temporary-directory", "--parallel",
                "--compress-program", "--batch-size", "--files0-from", "--random-source", "--sort",
            ),
        ),
        QUIET, DRAINS, SILENT, SHRINKS,
        stops_early_with=_long("-c", "-C", "--check"), writes_file_with=_long("-o", "--output"),
        file_input=(_SORT_BUFFER,),
    ),  # fmt: skip
    b"uniq": _entry(
        OptionSpec(short_with_value="fsw", long_with_value=_long("--skip-fields", "--skip-chars", "--check-chars")),
        QUIET, DRAINS, SILENT, SHRINKS,
    ),  # fmt: skip
    b"wc": _entry(OptionSpec(long_with_value=_long("--files0-from")), QUIET, DRAINS, SHRINKS),
    b"head": _entry(
        OptionSpec(short_with_value="nc", long_with_value=_long("--lines", "--bytes"), digit_options=True),
        QUIET, SILENT, SHRINKS,
    ),  # fmt: skip
    b"tail": _entry(
        OptionSpec(
            short_with_value="ncs",
            long_with_value=_long("--lines", "--bytes", "--sleep-interval", "--pid", "--max-unchanged-stats"),
            long_optional_value=_long("--follow"),
            digit_options=True,
        ),
        SILENT, SHRINKS, file_input=(_TAIL_FOLLOW,),
    ),  # fmt: skip
    b"cut": _entry(DEFAULT, QUIET, DRAINS, SILENT, SHRINKS),
    b"tr": _entry(DEFAULT, QUIET, DRAINS, SILENT, SHRINKS),
    b"sed": _entry(DEFAULT, SILENT, SHRINKS),
    b"awk": _entry(DEFAULT, SHRINKS),
    b"tac": _entry(DEFAULT, QUIET, DRAINS, SILENT),
    b"rev": _entry(DEFAULT, QUIET, DRAINS, SILENT, SHRINKS),
    b"nl": _entry(DEFAULT, QUIET, DRAINS, SHRINKS),
    b"paste": _entry(DEFAULT, QUIET, DRAINS, SILENT),
    b"fold": _entry(DEFAULT, QUIET, DRAINS, SILENT, SHRINKS),
    b"expand": _entry(DEFAULT, QUIET, DRAINS, SHRINKS),
    b"unexpand": _entry(DEFAULT, QUIET, DRAINS, SHRINKS),
    b"fmt": _entry(DEFAULT, QUIET, SHRINKS),
    b"column": _entry(DEFAULT, QUIET, SHRINKS),
    b"join": _entry(DEFAULT, QUIET),
    b"comm": _entry(DEFAULT, QUIET),
    b"od": _entry(DEFAULT, QUIET, DRAINS),
    b"base64": _entry(DEFAULT, QUIET, DRAINS, SHRINKS),
    b"base32": _entry(DEFAULT, QUIET, DRAINS),
    **dict.fromkeys((b"md5sum", b"sha1sum", b"sha256sum", b"sha512sum", b"cksum"), _entry(DEFAULT, QUIET, DRAINS, ALIKE)),
    b"seq": _entry(DEFAULT, QUIET, NO_STDIN),
    b"yes": _entry(DEFAULT, QUIET, NO_STDIN),
    b"ls": _entry(DEFAULT, QUIET, NO_STDIN),
    b"ts": _entry(DEFAULT, SHRINKS),
    b"logger": _entry(DEFAULT, SHRINKS),
    # Programs that print a few lines whatever they are given.
    b"date": _entry(DEFAULT, QUIET, BOUNDED, NO_STDIN),
    **dict.fromkeys((b"hostname", b"uname", b"whoami", b"id"), _entry(DEFAULT, BOUNDED, NO_STDIN)),
    # coreutils' basename takes many names only with -a (or -s); dirname takes many as they come.
    b"basename": _entry(
        OptionSpec(short_with_value="s", long_with_value=_long("--suffix")), BOUNDED, NO_STDIN, ALIKE,
        many_operands_with="-a",
    ),  # fmt: skip
    b"dirname": _entry(DEFAULT, BOUNDED, NO_STDIN, ALIKE),
    # File tools that read no input, except to ask before they overwrite or remove (`-i`); those that
    # treat each operand alone are ALIKE (PL506 reads them after `xargs -n 1`).
    b"sleep": _entry(DEFAULT, NO_STDIN),
    b"touch": _entry(OptionSpec(short_with_value="drt", long_with_value=_long("--date", "--reference")), NO_STDIN, ALIKE),
    **dict.fromkeys(
        (b"chmod", b"chown", b"chgrp"),
        _entry(OptionSpec(long_with_value=_long("--reference", "--from")), NO_STDIN, ALIKE),
    ),  # fmt: skip
    b"rm": _entry(DEFAULT, NO_STDIN, ALIKE, reads_stdin_with=_long("-i", "--interactive", "-I")),
    **dict.fromkeys(
        (b"cp", b"mv", b"ln"), _entry(DEFAULT, NO_STDIN, reads_stdin_with=_long("-i", "--interactive", "-I"))
    ),  # fmt: skip
    **dict.fromkeys((b"rmdir", b"realpath"), _entry(DEFAULT, NO_STDIN, ALIKE)),
    # Shell builtins.
    b"echo": _entry(DEFAULT, QUIET, BOUNDED, NO_STDIN, Trait.PRINTS_ARGUMENTS),
    b"printf": _entry(DEFAULT, QUIET, BOUNDED, NO_STDIN, STATE, Trait.PRINTS_ARGUMENTS),  # `printf -v NAME` sets
    b"true": _entry(DEFAULT, QUIET, BOUNDED, NO_STDIN),
    b"false": _entry(DEFAULT, BOUNDED, NO_STDIN),
    b"pwd": _entry(DEFAULT, BOUNDED, NO_STDIN),
    b":": _entry(DEFAULT, NO_STDIN, SPECIAL),
    b"test": _entry(DEFAULT, NO_STDIN),
    b"[": _entry(DEFAULT, NO_STDIN),
    b".": _entry(DEFAULT, STATE, SPECIAL, Trait.RUNS_OTHER_CODE),
    b"source": _entry(DEFAULT, STATE, Trait.RUNS_OTHER_CODE),
    b"eval": _entry(DEFAULT, STATE, SPECIAL, Trait.RUNS_OTHER_CODE),
    b"exit": _entry(DEFAULT, NO_STDIN, STATE, FLOW, SPECIAL, Trait.PASSES_STATUS_ON, Trait.LEAVES_LOOP),
    # `set` turns options on and off; an ERR trap acts as errexit does.
    b"set": _entry(DEFAULT, NO_STDIN, STATE, SPECIAL, Trait.SETS_OPTIONS, Trait.SETUP_ONLY),
    b"shopt": _entry(DEFAULT, STATE, Trait.SETS_OPTIONS),
    b"trap": _entry(DEFAULT, STATE, SPECIAL, Trait.SETS_OPTIONS),
    b"return": _entry(DEFAULT, NO_STDIN, STATE, FLOW, SPECIAL, Trait.PASSES_STATUS_ON, Trait.LEAVES_LOOP),
    b"break": _entry(DEFAULT, NO_STDIN, FLOW, SPECIAL, Trait.LEAVES_LOOP),
    b"continue": _entry(DEFAULT, NO_STDIN, FLOW, SPECIAL),
    b"suspend": _entry(DEFAULT, FLOW),
    b"logout": _entry(DEFAULT, FLOW),
    b"shift": _entry(DEFAULT, NO_STDIN, STATE, SPECIAL),
    b"unset": _entry(DEFAULT, NO_STDIN, STATE, SPECIAL),
    b"export": _entry(DEFAULT, NO_STDIN, STATE, SPECIAL, Trait.SETUP_ONLY),
    b"readonly": _entry(DEFAULT, NO_STDIN, STATE, SPECIAL),
    b"times": _entry(DEFAULT, SPECIAL),
    **dict.fromkeys((b"local", b"declare", b"typeset", b"let"), _entry(DEFAULT, NO_STDIN, STATE)),
    b"cd": _entry(DEFAULT, NO_STDIN, STATE, Trait.SHAPES_LATER_COMMANDS, Trait.SETUP_ONLY),
    **dict.fromkeys((b"pushd", b"popd", b"enable"), _entry(DEFAULT, STATE, Trait.SHAPES_LATER_COMMANDS)),
    b"umask": _entry(DEFAULT, STATE, Trait.SETUP_ONLY),
    b"mkdir": _entry(OptionSpec(short_with_value="m", long_with_value=_long("--mode")), NO_STDIN, Trait.SETUP_ONLY, ALIKE),
    **dict.fromkeys(
        (b"read", b"mapfile", b"readarray", b"ulimit", b"wait", b"hash", b"getopts", b"disown", b"jobs", b"bg", b"fg"),
        _entry(DEFAULT, STATE),
    ),  # fmt: skip
    **dict.fromkeys((b"alias", b"unalias"), _entry(DEFAULT, STATE, Trait.DEFINES_ALIASES)),
    # Builtins that keep what they set in the shell they run in: bash's completions, key bindings, history
    # and directory stack (`complete -W x foo`, `dirs -c`), a job spec (`kill %1` names the shell's own
    # jobs; a subshell has none), dash's `chdir`, ksh's typed variables, `autoload`, `hist` (it
    # runs earlier commands again) and `redirect` (ksh93's `command exec`), mksh's `global`.
    **dict.fromkeys(
        (b"complete", b"compopt", b"bind", b"history", b"fc", b"dirs", b"kill", b"autoload", b"integer", b"float",
         b"nameref", b"compound", b"enum", b"global", b"hist"),
        _entry(DEFAULT, STATE),
    ),  # fmt: skip
    b"chdir": _entry(DEFAULT, NO_STDIN, STATE, Trait.SHAPES_LATER_COMMANDS, Trait.SETUP_ONLY),
    b"redirect": _entry(DEFAULT, STATE, Trait.SHAPES_LATER_COMMANDS),
    b"newgrp": _entry(DEFAULT, STATE, FLOW),  # ksh93's builtin replaces the shell, as `exec newgrp` does
    b"builtin": _entry(DEFAULT, STATE, Trait.RUNS_BUILTINS, Trait.SHAPES_LATER_COMMANDS),
    # Compressors: the short options of each that take a value.
    # xz calls -0…-3 its fast presets; bzip2's level only sets the block size, so all of them are slow; gzip's
    # default is 6. pigz, lbzip2, pixz, zstd and lz4 use every core or are fast at any level.
    b"gzip": _compressor_entry("S", "gzip", ALIKE, slow_from_level=6, faster="gzip -1", file_input=(_GZIP_TIME,)),
    b"pigz": _compressor_entry("SbpIJ", "gzip", file_input=(_PIGZ_TIME,)),
    b"bzip2": _compressor_entry("", "bzip2", ALIKE, slow_from_level=1, faster="lbzip2"),
    b"pbzip2": _compressor_entry("bpm", "bzip2"),
    b"lbzip2": _compressor_entry("n", "bzip2"),
    b"xz": _compressor_entry("TCFM", "xz", ALIKE, slow_from_level=4, faster="xz -T0 -1"),
    b"pixz": _compressor_entry("pt", "xz"),
    b"zstd": _compressor_entry("oTDBM", "zstd"),
    b"pzstd": _compressor_entry("po", "zstd"),
    b"zstdmt": _compressor_entry("oTDBM", "zstd"),
    b"lz4": _compressor_entry("B", "lz4", output_operand=True, file_input=(_LZ4_SIZE,)),
    b"gunzip": _decompressor_entry("S", "gzip", ALIKE),
    b"zcat": _decompressor_entry("S", "gzip", QUIET, Trait.DECOMPRESSES_TO_STDOUT),
    b"unpigz": _decompressor_entry("SbpIJ", "gzip"),
    b"bunzip2": _decompressor_entry("", "bzip2", ALIKE),
    b"bzcat": _decompressor_entry("", "bzip2", QUIET, Trait.DECOMPRESSES_TO_STDOUT),
    b"unxz": _decompressor_entry("TCFM", "xz", ALIKE),
    b"xzcat": _decompressor_entry("TCFM", "xz", QUIET, Trait.DECOMPRESSES_TO_STDOUT),
    b"unzstd": _decompressor_entry("oTDBM", "zstd"),
    b"zstdcat": _decompressor_entry("oTDBM", "zstd", QUIET, Trait.DECOMPRESSES_TO_STDOUT),
    b"unlz4": _decompressor_entry("B", "lz4", output_operand=True),
    b"lz4cat": _decompressor_entry("B", "lz4", Trait.DECOMPRESSES_TO_STDOUT),
    # Archives.
    b"tar": _tar(),
    b"gtar": _tar(),
    b"bsdtar": _tar(),
    b"cpio": _entry(
        OptionSpec(short_with_value="CEFHIMOR", long_with_value=_long("--format", "--file", "--owner")),
        Trait.ARCHIVER, Trait.RESTORES_DUMP, restores_dump_with=_long("-i", "--extract"),
    ),  # fmt: skip
    # Copying to and running on other machines.
    b"ssh": _entry(_SSH, Trait.REMOTE_SHELL),
    b"autossh": _entry(_AUTOSSH, Trait.REMOTE_SHELL),
    b"scp": _entry(OptionSpec(short_with_value="cDFiJloPSX"), Trait.COPIES_TO_HOSTS),
    b"rsync": _entry(
        OptionSpec(
            short_with_value="efBTM",
            long_with_value=_long(
                "--rsh", "--rsync-path", "--exclude", "--include", "--filter", "--exclude-from", "--include-from",
                "--files-from", "--temp-dir", "--compare-dest", "--copy-dest", "--link-dest", "--bwlimit", "--chmod",
                "--partial-dir", "--log-file", "--password-file", "--port", "--timeout",
                "--skip-compress", "--compress-level", "--zl", "--compress-choice", "--zc", "--checksum-choice", "--cc",
            ),
        ),
        Trait.COPIES_TO_HOSTS,
    ),  # fmt: skip
    b"sftp": _entry(OptionSpec(short_with_value="BbcDFiJlPRSsoX", options_end_at_operand=True), Trait.COPIES_TO_HOSTS),
    **dict.fromkeys((b"nc", b"ncat", b"netcat", b"socat"), _entry(DEFAULT, Trait.SENDS_STDIN)),
    b"pv": _entry(_PV, Trait.BUFFER, Trait.COPIES_FILES_OUT, file_input=(_PV_SIZE,)),
    # dd's words are operands (`if=F`, `count=1`); its file_input entries match them by `KEY=`.
    b"dd": _entry(DEFAULT, file_input=(_DD_RECORDS, _DD_COUNTS)),
    **dict.fromkeys((b"mbuffer", b"buffer"), _entry(DEFAULT, Trait.BUFFER)),
    # Mounts.
    b"mount": _mount(),
    b"mount.nfs": _mount("nfs"),
    b"mount.nfs4": _mount("nfs4"),
    b"mount.cifs": _mount("cifs"),
    b"mount.smb3": _mount("smb3"),
    b"sshfs": _entry(OptionSpec(short_with_value="opF"), Trait.MOUNTS, filesystem="fuse.sshfs"),
    b"umount": _entry(OptionSpec(short_with_value="tO", long_with_value=_long("--types", "--test-opts")), Trait.UNMOUNTS),
    b"fusermount": _entry(DEFAULT, Trait.UNMOUNTS),
    b"fusermount3": _entry(DEFAULT, Trait.UNMOUNTS),
    # Databases: clients that restore a dump from stdin, and the dump tools.
    b"mysql": _entry(_MYSQL, Trait.RESTORES_DUMP, Trait.MYSQL_CLIENT),
    b"mariadb": _entry(_MYSQL, Trait.RESTORES_DUMP, Trait.MYSQL_CLIENT),
    b"mysqlimport": _entry(DEFAULT, Trait.BULK_IMPORTER),
    b"mariadb-import": _entry(DEFAULT, Trait.BULK_IMPORTER),
    b"psql": _entry(
        OptionSpec(short_with_value="cdfhpUvLoPT", long_with_value=_long("--command", "--file", "--dbname")),
        Trait.RESTORES_DUMP,
    ),
    b"pg_restore": _entry(
        OptionSpec(short_with_value="dfFIjLnNPsStTU", long_with_value=_long("--dbname", "--file")), Trait.RESTORES_DUMP
    ),
    **dict.fromkeys((b"sqlite3", b"mongorestore", b"mbstream", b"xbstream"), _entry(DEFAULT, Trait.RESTORES_DUMP)),
    b"redis-cli": _entry(OptionSpec(short_with_value="hpasnu"), Trait.RESTORES_DUMP, restores_dump_with=_long("--pipe")),
    b"mysqldump": _dump(_MYSQLDUMP, _MYSQL_CLIENTS, _long("-r", "--result-file")),
    b"mariadb-dump": _dump(_MYSQLDUMP, _MYSQL_CLIENTS, _long("-r", "--result-file")),
    b"mysqlpump": _dump(_MYSQLDUMP, _MYSQL_CLIENTS, _long("--result-file")),
    b"pg_dump": _dump(_PG_DUMP, frozenset({b"psql"}), _long("-f", "--file")),
    b"pg_dumpall": _dump(
        OptionSpec(short_with_value="fhpUdlS", long_with_value=_long("--file", "--host", "--port", "--username", "--dbname")),
        frozenset({b"psql"}),
        _long("-f", "--file"),
    ),
    # Encryption on the way (programs/transit.py reads their words).
    b"gpg": _entry(_GPG, Trait.GNUPG),
    b"gpg2": _entry(_GPG, Trait.GNUPG),
    b"age": _entry(OptionSpec(short_with_value="rRio", long_with_value=_long("--recipient", "--recipients-file", "--identity", "--output"))),
    b"aespipe": _entry(OptionSpec(short_with_value="eHKpOCG")),
    # Commands that run shell text or another command line (embedded/, launchers.py).
    **dict.fromkeys(SHELL_PROGRAMS, _entry(_SHELL, Trait.SHELL)),
    b"su": _entry(_SU, Trait.SWITCHES_USER),
    b"runuser": _entry(_SU, Trait.SWITCHES_USER),
    b"xargs": _entry(XARGS),
    b"watch": _entry(_WATCH),
    b"flock": _entry(_FLOCK),
    b"chroot": _entry(_CHROOT),
    b"setsid": _entry(OptionSpec(options_end_at_operand=True)),
    b"docker": _entry(DOCKER, Trait.RUNS_ELSEWHERE),
    b"podman": _entry(DOCKER, Trait.RUNS_ELSEWHERE),
    b"docker-compose": _entry(COMPOSE, Trait.RUNS_ELSEWHERE),
    b"podman-compose": _entry(COMPOSE, Trait.RUNS_ELSEWHERE),
    b"kubectl": _entry(_KUBECTL, Trait.RUNS_ELSEWHERE),
    b"oc": _entry(_KUBECTL, Trait.RUNS_ELSEWHERE),
    # Wrappers: they run the program named after their own options.
    **{name: _wrapper(spec) for name, spec in _WRAPPER_SPECS.items() if name not in (b"command", b"exec", b"time")},
    b"command": _wrapper(_WRAPPER_SPECS[b"command"], Trait.RUNS_BUILTINS),
    b"time": _wrapper(_WRAPPER_SPECS[b"time"], Trait.RUNS_BUILTINS),  # bash's keyword: `time set -e` sets errexit
    b"exec": _wrapper(_WRAPPER_SPECS[b"exec"], STATE, FLOW, SPECIAL, Trait.SHAPES_LATER_COMMANDS),
}

UNKNOWN = Program(DEFAULT)  # a program the table does not know: no trait, GNU permutation, no option takes a value


def program(name: bytes | None) -> Program:
    """The table's entry for a program by its basename (`cat`, `mount.nfs4`); UNKNOWN for others and for None."""
    return PROGRAMS.get(name or b"", UNKNOWN)


def has(name: bytes | None, trait: Trait) -> bool:
    return trait in program(name).traits


@cache
def named(trait: Trait) -> frozenset[bytes]:
    """The names of every program with trait (for a query that reads only those commands)."""
    return frozenset(name for name, entry in PROGRAMS.items() if trait in entry.traits)


def spec_for(name: bytes | None) -> OptionSpec:
    """How a program's words split into options and operands."""
    return program(name).options


# The wrappers by name, for the command model's walk through them (`sudo -u pg nice psql` runs psql).
WRAPPERS: dict[bytes, WrapperSpec] = {name: entry.wrapper for name, entry in PROGRAMS.items() if entry.wrapper is not None}
