"""What pipelint knows about programs' command lines: data only, read by `command.py`.

Each entry says which options take a value and how the program reads its
options (GNU permutation or POSIX order). Only what the rules need is listed:
an option missing here is still read as an option, just one without a value,
so a rule that cares checks the names it understands and stays quiet on the rest.

Wrappers (`sudo`, `env`, `nice`, …) run another program named after their own
options; `WRAPPERS` says how to find it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OptionSpec:
    """How one program's words split into options, their values and operands."""

    short_with_value: str = ""  # "o": -o VALUE and -oVALUE
    long_with_value: frozenset[str] = frozenset()  # "--output": --output VALUE and --output=VALUE
    long_optional_value: frozenset[str] = frozenset()  # "--color": only --color=WHEN, never the next word
    digit_options: bool = False  # "-9", "-19": a run of digits in a cluster is ONE option
    options_end_at_operand: bool = False  # POSIX order: the first operand ends the options
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


def _long(*names: str) -> frozenset[str]:
    return frozenset(names)


# Programs with no options of their own that take a value and GNU permutation.
DEFAULT = OptionSpec()

_COMPRESSOR_LONG = _long("--suffix", "--threads", "--format", "--check", "--memlimit", "--output", "--dict")


def _compressor(short_with_value: str) -> OptionSpec:
    """gzip, xz, zstd… : `-9` and `-19` are levels."""
    return OptionSpec(short_with_value=short_with_value, long_with_value=_COMPRESSOR_LONG, digit_options=True)


_SSH = OptionSpec(short_with_value="BbcDEeFIiJLlmOoPpQRSWw", options_end_at_operand=True)
# autossh passes everything but -M (its monitoring port) on to ssh.
_AUTOSSH = OptionSpec(short_with_value="BbcDEeFIiJLlmMOoPpQRSWw", options_end_at_operand=True)
# sh, bash, dash, ksh: `-o pipefail`, `bash -O extglob`; the first operand ends the options.
_SHELL = OptionSpec(short_with_value="oO", long_with_value=_long("--rcfile", "--init-file"), options_end_at_operand=True)
# util-linux su and runuser (GNU permutation: `su postgres -c CMD` reads -c too); a lone `-` is `--login`.
# `runuser -u USER -- CMD…` runs CMD itself, without a shell.
_SU = OptionSpec(
    short_with_value="csgGwu",
    long_with_value=_long("--command", "--session-command", "--shell", "--group", "--supp-group",
                          "--whitelist-environment", "--user"),
)  # fmt: skip
# xargs stops at its command; -i, -l and -e take their values attached only (`-i{}`), so they are not listed.
XARGS = OptionSpec(
    short_with_value="IanLsdPE",
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

# `-p` takes its password attached only: `mysql -p db` prompts and opens db.
_MYSQL = OptionSpec(short_with_value="hPuDeS", long_with_value=_long("--execute", "--database", "--user", "--host"))

_MYSQLDUMP = OptionSpec(
    short_with_value="hPuSrTw",
    long_with_value=_long("--host", "--port", "--user", "--socket", "--result-file", "--tab", "--where"),
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

# Programs the rules read, by the name they run under.
PROGRAMS: dict[bytes, OptionSpec] = {
    b"cat": DEFAULT,
    b"tee": OptionSpec(long_optional_value=_long("--output-error")),
    b"dd": OptionSpec(),  # `key=value` operands only; `--help` is no operand dd takes
    b"grep": _GREP,
    b"egrep": _GREP,
    b"fgrep": _GREP,
    b"sort": OptionSpec(
        short_with_value="kotST",
        long_with_value=_long(
            "--key", "--output", "--field-separator", "--buffer-size", "--temporary-directory", "--parallel",
            "--compress-program", "--batch-size", "--files0-from", "--random-source", "--sort",
        ),
    ),  # fmt: skip
    b"uniq": OptionSpec(
        short_with_value="fsw", long_with_value=_long("--skip-fields", "--skip-chars", "--check-chars")
    ),
    b"wc": OptionSpec(long_with_value=_long("--files0-from")),
    b"head": OptionSpec(short_with_value="nc", long_with_value=_long("--lines", "--bytes"), digit_options=True),
    # Compressors: the short options of each that take a value.
    b"gzip": _compressor("S"),
    b"pigz": _compressor("SbpIJ"),
    b"bzip2": _compressor(""),
    b"pbzip2": _compressor("bpm"),
    b"lbzip2": _compressor("n"),
    b"xz": _compressor("TCFM"),
    b"pixz": _compressor("pt"),
    b"zstd": _compressor("oTDBM"),
    b"pzstd": _compressor("po"),
    b"zstdmt": _compressor("oTDBM"),
    b"lz4": _compressor("B"),
    b"gunzip": _compressor("S"),
    b"zcat": _compressor("S"),
    b"unpigz": _compressor("SbpIJ"),
    b"bunzip2": _compressor(""),
    b"bzcat": _compressor(""),
    b"unxz": _compressor("TCFM"),
    b"xzcat": _compressor("TCFM"),
    b"unzstd": _compressor("oTDBM"),
    b"zstdcat": _compressor("oTDBM"),
    b"unlz4": _compressor("B"),
    b"lz4cat": _compressor("B"),
    b"tar": _TAR,
    b"gtar": _TAR,
    b"bsdtar": _TAR,
    b"cpio": OptionSpec(short_with_value="CEFHIMOR", long_with_value=_long("--format", "--file", "--owner")),
    b"ssh": _SSH,
    b"autossh": _AUTOSSH,
    b"scp": OptionSpec(short_with_value="cDFiJloPSX"),
    b"rsync": OptionSpec(
        short_with_value="efBTM",
        long_with_value=_long(
            "--rsh", "--rsync-path", "--exclude", "--include", "--filter", "--exclude-from", "--include-from",
            "--files-from", "--temp-dir", "--compare-dest", "--copy-dest", "--link-dest", "--bwlimit", "--chmod",
            "--partial-dir", "--log-file", "--password-file", "--port", "--timeout",
            "--skip-compress", "--compress-level", "--zl", "--compress-choice", "--zc", "--checksum-choice", "--cc",
        ),
    ),  # fmt: skip
    b"sftp": OptionSpec(short_with_value="BbcDFiJlPRSsoX", options_end_at_operand=True),
    b"mount": _MOUNT,
    b"mount.nfs": _MOUNT,
    b"mount.nfs4": _MOUNT,
    b"mount.cifs": _MOUNT,
    b"mount.smb3": _MOUNT,
    b"sshfs": OptionSpec(short_with_value="opF"),
    b"umount": OptionSpec(short_with_value="tO", long_with_value=_long("--types", "--test-opts")),
    b"fusermount": DEFAULT,
    b"fusermount3": DEFAULT,
    b"mysql": _MYSQL,
    b"mariadb": _MYSQL,
    b"psql": OptionSpec(short_with_value="cdfhpUvLoPT", long_with_value=_long("--command", "--file", "--dbname")),
    b"pg_restore": OptionSpec(short_with_value="dfFIjLnNPsStTU", long_with_value=_long("--dbname", "--file")),
    b"redis-cli": OptionSpec(short_with_value="hpasnu"),
    b"gpg": _GPG,
    b"gpg2": _GPG,
    b"age": OptionSpec(short_with_value="rRio", long_with_value=_long("--recipient", "--recipients-file", "--identity", "--output")),
    b"aespipe": OptionSpec(short_with_value="eHKpOCG"),
    b"mysqldump": _MYSQLDUMP,
    b"mariadb-dump": _MYSQLDUMP,
    b"mysqlpump": _MYSQLDUMP,
    b"pg_dump": _PG_DUMP,
    b"pg_dumpall": OptionSpec(short_with_value="fhpUdlS", long_with_value=_long("--file", "--host", "--port", "--username", "--dbname")),
    # Commands that run shell text or another command line (embedded.py, launchers.py).
    **dict.fromkeys((b"sh", b"bash", b"dash", b"ksh", b"mksh", b"ash"), _SHELL),
    b"su": _SU,
    b"runuser": _SU,
    b"xargs": XARGS,
    b"watch": _WATCH,
    b"flock": _FLOCK,
    b"chroot": _CHROOT,
    b"setsid": OptionSpec(options_end_at_operand=True),
    b"docker": DOCKER,
    b"podman": DOCKER,
    b"docker-compose": COMPOSE,
    b"podman-compose": COMPOSE,
    b"kubectl": _KUBECTL,
    b"oc": _KUBECTL,
}


def spec_for(program: bytes | None) -> OptionSpec:
    return PROGRAMS.get(program or b"", DEFAULT)


WRAPPERS: dict[bytes, WrapperSpec] = {
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
