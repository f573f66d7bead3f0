"""A grammar of the shapes pipelint's rules touch, rendered into whole scripts.

Every choice comes from one `random.Random`, so a (seed, index) pair always
gives the same script. A script is built from parts:

    shebang, option prefix (set -e, pipefail) and sometimes its undoing
    (set +e, a `( set -e )` that stays inside), definitions of command names
    (functions, aliases, a sourced file), setup (variables, files), one
    pipeline inside a wrapper (plain, $(…), if, &&/||, a loop, a function),
    observers ($?, PIPESTATUS, variables), definitions after the use, and a
    last line that prints the variables a fix could leak.

A pipeline is a producer (cat FILE, a here-document, dd, grep, sort, echo, a
group with side effects), optional middle stages (tee /dev/null, cat) and a
consumer (external commands, state-changing builtins, compound commands,
expansions that read stdin, functions of the script), with redirects in
either order. Inputs are sandbox files, missing files, folders, and operands
that mean stdin or an option (`-`, "$x" with x=-n).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

# Names of the sandbox data (tests/sandbox/data) and of what setup creates.
OPERANDS = [
    "access.log", "words.txt", '"my file.txt"', "'my file.txt'", "latin.txt", "data.csv", "backup.tar",
    "missing.txt", "src", '"$f"', '"$HOME/words.txt"', "~/words.txt", '"~/words.txt"', '"$file"', '"$x"',
    "\\-", '"$*"', "$(echo words.txt)", '"$(echo access.log)"', "bin.dat", "src/hello.txt",
    # Unquoted, as ops scripts write them: split and globbed by cat, not by a redirect.
    "$f", "$x", "$file", "${f}", "$d/hello.txt", "${d}/$f",
]
SETUP = [
    "f=words.txt", "x=-n", "file=${1:--}", "v=init", "n=0", "d=src",
    "printf 'a\\000b\\nab\\n' > bin.dat",
]
BASH_SETUP = ["arr=(x)", "shopt -s expand_aliases"]
PREFIXES = ["", "", "", "set -e", "set -u"]
BASH_PREFIXES = ["set -o pipefail", "set -eo pipefail"]
# Options turned off again, or on only inside a subshell, after the prefix (facts.option_at follows these).
SCOPED_OPTIONS = ["set +e", "set +u", "( set -e )", "x=$(set -e; echo)", "set -e; set +e", "set -u; set +u", "f() { set -e; }"]
BASH_SCOPED_OPTIONS = ["set +o pipefail", "( set -o pipefail )", "set -o pipefail; set +o pipefail", "set +eo pipefail"]
# Issue 25: options turned on in ways only the one reader of options sees (class 7), the last stage in the
# current shell (class 1), builtins that act on the shell (class 12).
OTHER_WAYS = ["builtin set -e", "command set -e", "\\set -e", "'set' -u", "command -p set -e", "complete() { :; }"]
BASH_OTHER_WAYS = ["shopt -s lastpipe", "time set -e", "builtin shopt -s lastpipe", "set -e; export SHELLOPTS"]
# Issue 25: the script read by a shell from its stdin, after a command that may read it (class 3), or from an
# unquoted here-document whose `$…` the outer shell expands first (class 2).
STDIN_READERS = ["", "", "read -r first", "head -n 1 > line.txt", "mkdir -p made", "x=$(head -c 3)"]

# Consumers that are external commands: nothing can leak from their subshell.
EXTERNAL = [
    "wc -l", "wc -c", "tr a-z A-Z", "grep a", "sort", "head -n 1", "tail -n 1", "od -c", "cksum",
    "sort -r", "uniq", "cut -c1-3", "mysql shop", "tar -tf -", "env LC_ALL=C wc -l",
]
# Builtins and compound commands: they would run in the current shell.
STATEFUL = [
    "read v", "read -r v", "command -p read v", "eval read v", "cd src", "command cd src",
    "exit 3", "\\exit 4", "export v=2", ": ${v:=set}", "umask 077", "set -f", "trap 'echo trapped' EXIT",
    "while read -r l; do v=$l; done", "while read -r l; do echo \"l=$l\"; done",
    "while read -r l; do exit 6; done", "{ read -r a; read -r b; echo \"$a|$b\"; }",
    "{ v=2; wc -l; }", "( cd src; wc -l )", "if read -r v; then echo \"v=$v\"; fi",
    "true", ":",
]
BASH_STATEFUL = [
    "builtin read v", "mapfile -t arr", "readarray arr", "[[ ${v:=x} ]]", "(( n++ ))",
    "time wc -l", "time wc -l 2>/dev/null", "declare -g v=3", "shopt -s nullglob",
]
SEVERAL_READERS = ["{ head -n 1; wc -l; }", "( head -n 1; wc -l )", "{ read -r a; cat; }"]
EXPANSIONS = ['echo "got: $(head -n 1)"', 'printf "%s\\n" "$(cat)"', 'echo "$(wc -l)"', 'X="$(head -n 1)" env']
MIDDLES = [
    "tee /dev/null", "tee -a /dev/null", "tee /dev/null 2>err", "tee /dev/null 2>/dev/null", "tee",
    "cat", "tee -p /dev/null", "sort", "tr a-z A-Z",
]
REDIRECTS = ["", "", "", "> out", ">> out", "2>&1 > out", "> out 2>&1", "2>/dev/null", "2>err", "| cat > out",
             "| cat | wc -c", "| uniq"]
# Command names the rules look at, with a function body and an alias that change what they do.
REDEFINABLE = {
    "cat": "command cat -n \"$@\"", "tee": "echo tee-fn; command tee \"$@\"", "dd": "echo dd-fn; command dd \"$@\"",
    "grep": "command grep -i \"$@\"", "sort": "command sort -r \"$@\"", "uniq": "command uniq -c \"$@\"",
    "wc": "echo wc-fn; command wc \"$@\"", "echo": "printf 'echo-fn %s\\n' \"$*\"", "head": "command head -n 2 \"$@\"",
}
ALIASES = {
    "cat": "cat -n", "tee": "tee -a", "dd": "dd status=none", "grep": "grep -i", "sort": "sort -r",
    "uniq": "uniq -c", "wc": "wc -c", "echo": "echo alias:", "head": "head -n 2",
}
# Consumers the program table says read a regular file otherwise than a pipe (issue 25 class 6), each with
# the input it is fed; big.txt holds more than a pipe's 64 KiB, so reads from the pipe come back short.
# `tail -f` never ends on a file: check.py refuses to run a fixed script that gives it one.
FILE_CONSUMERS = [
    ("big.txt", "gzip > out.gz"), ("words.txt", "gzip -9 > out.gz"), ("big.txt", "gzip -n > out.gz"),
    ("words.txt", "gzip -N > out.gz"), ("w.gz", "gzip -d > out"), ("big.txt", "gzip -c | wc -c"),
    ("big.txt", "xz > out.xz"), ("big.txt", "{ gzip; } > out.gz"), ("words.txt", "sh -c 'gzip > out.gz'"),
    ("big.txt", "dd of=out bs=1M count=1"), ("big.txt", "dd bs=256k skip=1 status=none | wc -c"),
    ("big.txt", "dd of=out status=none"), ("big.txt", "dd of=out bs=1M"), ("big.txt", "dd of=out bs=512 conv=sync status=none"),
    ("big.txt", "dd bs=1M count=1 iflag=fullblock status=none | cksum"), ("big.txt", "sort"), ("big.txt", "sort -S 1M | tail -n 1"),
    ("access.log", "tail -f"), ("access.log", "tail -F -n 2"), ("big.txt", "tail -n 2"), ("big.txt", "wc -c"),
    ("backup.tar", "tar -tf -"),
]  # fmt: skip
FILE_READERS = ["cat {}", "cat -- {}", "dd if={} status=none", "dd if={} bs=64k status=none"]
FILE_SETUP = ["seq 1 30000 > big.txt", "gzip -c words.txt > w.gz"]
# Here-document body lines; some only look like the end or like commands.
BODY_LINES = ["hello", "b a", "", "a | b", "x # y", "$v", "\tindented", "cat words.txt | sort", "  two  spaces"]
# Lines bash does NOT take as the end of `<<EOF` / `<<-EOF` (tree-sitter may).
FAKE_ENDS = {"<<": ["\tEOF", "  EOF", "EOF ", "EOF;", "EOFX"], "<<-": ["  EOF", "EOF ", "\t EOF", "EOF;"]}


@dataclass
class Pipeline:
    """Lines of one pipeline; wrapper text attaches to the start of line 0 and the end of `end`."""

    lines: list[str]
    end: int = 0
    bodies: list[str] = field(default_factory=list)

    @property
    def has_body(self) -> bool:
        return len(self.lines) > 1


@dataclass
class Case:
    """One generated script and what the checks need to know about it."""

    dialect: str  # "bash" or "sh"
    lines: list[str]
    bodies: list[str]  # here-document bodies as the shell reads them
    crlf: bool = False

    @property
    def path(self) -> str:
        return "script.bash" if self.dialect == "bash" else "script.sh"

    @property
    def source(self) -> bytes:
        return render(self.lines, self.crlf)

    @property
    def body_bytes(self) -> list[bytes]:
        return [render_text(body, self.crlf) for body in self.bodies]


def render_text(text: str, crlf: bool) -> bytes:
    data = text.encode("utf-8")
    return data.replace(b"\n", b"\r\n") if crlf else data


def render(lines: list[str], crlf: bool) -> bytes:
    return render_text("\n".join(lines) + "\n", crlf)


class Generator:
    """Draws one script from the grammar; all randomness comes from rng."""

    def __init__(self, rng: random.Random, timing: bool = True):
        self.rng = rng
        self.timing = timing  # shapes whose outcome depends on sleeps and SIGPIPE timing

    def pick(self, options: list[str]) -> str:
        return self.rng.choice(options)

    def chance(self, probability: float) -> bool:
        return self.rng.random() < probability

    def case(self) -> Case:
        bash = self.chance(0.6)
        dialect = "bash" if bash else "sh"
        lines = ["#!/bin/bash" if bash else "#!/bin/sh"]
        prefix = self.pick(PREFIXES + (BASH_PREFIXES if bash else []))
        if prefix:
            lines.append(prefix)
        lines += self.rng.sample(SETUP + (BASH_SETUP if bash else []), k=self.rng.randint(1, 4))
        bodies: list[str] = []
        if self.chance(0.04):
            lines += self.job_file(bodies)
        loop = self.chance(0.15)
        function = not loop and self.chance(0.15)
        pipeline = self.pipeline(bash, loop=loop, function=function)
        bodies += pipeline.bodies
        used = [name for name in REDEFINABLE if any(name in line.split() for line in pipeline.lines)]
        redefined = self.definitions(self.pick(used), bash) if used and self.chance(0.2) else []
        after = self.chance(0.4)
        if redefined and not after:
            lines += redefined
        lines += self.wrap(pipeline, bash, loop, function)
        if redefined and after:
            lines += redefined
        if function:
            lines.append('run; echo "out=$?"')
        lines.append(self.last_line(bash))
        crlf = bash and self.chance(0.05)
        # Drawn last, so that every other choice of script i stays what it was before this was added.
        if self.chance(0.2):
            lines.insert(2 if prefix else 1, self.pick(SCOPED_OPTIONS + (BASH_SCOPED_OPTIONS if bash else [])))
        # Issue 25's shapes, drawn after everything above for the same reason.
        if self.chance(0.12):
            lines.insert(1, self.pick(OTHER_WAYS + (BASH_OTHER_WAYS if bash else [])))
        if not crlf and self.chance(0.1):
            lines = self.fed_on_stdin(lines, bash)
        if self.chance(0.15):  # issue 25 class 6, after those for the same reason
            last = len(lines) - (3 if lines[-2:] == ["SCRIPT", 'echo "outer rc=$?"'] else 1)  # the variables' printout
            lines[last:last] = self.file_consumer()
        return Case(dialect, lines, bodies, crlf)

    def file_consumer(self) -> list[str]:
        """`cat FILE | CONSUMER` for a consumer that reads a regular file otherwise than the pipe."""
        operand, consumer = self.rng.choice(FILE_CONSUMERS)
        reader = self.pick(FILE_READERS).format(operand)
        observer = self.pick(["", "", '; echo "rc=$?"', " && echo ok"])
        return [*FILE_SETUP, f"{reader} | {consumer}{observer}"]

    def fed_on_stdin(self, lines: list[str], bash: bool) -> list[str]:
        """The script after its `#!` line as the here-document a shell reads from stdin (`bash -s <<'SCRIPT'`),
        maybe after a command that reads stdin; an unquoted delimiter lets the outer shell expand `$…` first."""
        shell = "bash -s" if bash else "sh -s"
        delimiter = self.pick(["'SCRIPT'", "'SCRIPT'", "SCRIPT"])
        reader = self.pick(STDIN_READERS)
        inner = ([reader] if reader else []) + lines[1:]
        return [lines[0], f"{shell} <<{delimiter}", *inner, "SCRIPT", 'echo "outer rc=$?"']

    def definitions(self, name: str, bash: bool) -> list[str]:
        body = REDEFINABLE[name]
        style = self.pick(["function", "keyword", "alias", "source"] if bash else ["function", "alias", "source"])
        if style == "function":
            return [f"{name}() {{ {body}; }}"]
        if style == "keyword":
            return [f"function {name} {{ {body}; }}"]
        if style == "alias":
            return (["shopt -s expand_aliases"] if bash else []) + [f"alias {name}='{ALIASES[name]}'"]
        return [f"printf '%s\\n' '{name}() {{ {body}; }}' > lib.sh", ". ./lib.sh"]

    def job_file(self, bodies: list[str]) -> list[str]:
        """`cat > job.sh <<EOF` whose body holds a line only tree-sitter takes for the end."""
        operator = self.pick(["<<", "<<-"])
        body = [self.pick(BODY_LINES), self.pick(FAKE_ENDS[operator]), "cat words.txt | sort", "echo $v"]
        bodies.append("\n".join(body) + "\n")
        return [f"cat > job.sh {operator}EOF", *body, "EOF"]

    def pipeline(self, bash: bool, loop: bool, function: bool) -> Pipeline:
        kind = self.pick(["cat", "cat", "cat", "heredoc", "dd", "grep", "sort", "echo", "ls", "tee", "group"])
        if kind == "group" and not self.timing:
            kind = "cat"
        if kind == "group":  # the producer outlives the consumer only while tee holds the pipe
            return Pipeline(["{ echo a; sleep 0.3; echo b; touch done; } | tee /dev/null | head -n 1"])
        stages = []
        if kind not in ("grep", "sort") or self.chance(0.6):
            stages = [self.pick(MIDDLES) for _ in range(self.rng.choice([0, 0, 0, 1, 1, 2]))]
            stages.append(self.consumer(bash, loop, function))
        tail = " ".join(filter(None, [" | ".join(stages), self.pick(REDIRECTS)]))
        if kind == "heredoc":
            return self.heredoc(tail)
        head = self.producer(kind, bash)
        if not stages:
            return Pipeline([f"{head} {tail}".rstrip()])
        return Pipeline([f"{head} | {tail}"])

    def producer(self, kind: str, bash: bool) -> str:
        operand = self.pick(OPERANDS)
        own = self.rng.choice(["", "", "", " 2>/dev/null", " 2>&1", " 2>err"])
        if kind == "cat":
            return f"{self.rng.choice(['cat', 'cat', '/bin/cat', 'cat --'])} {operand}{own}"
        if kind == "dd":
            size = self.pick(["bs=512", "bs=1k", "ibs=512 obs=512", "bs=1M", ""])
            extra = self.pick(["", "status=none", "status=noxfer", "conv=sparse", "count=1"])
            word = operand if not operand.startswith(('"', "'")) else operand[0] + "if=" + operand[1:]
            word = word if word.startswith(('"', "'")) else "if=" + word
            return " ".join(filter(None, ["dd", word, size, extra])) + own
        if kind == "grep":
            files = self.pick([operand, "latin.txt", "bin.dat", "words.txt access.log", f"-f /dev/null {operand}"])
            return f"grep {self.pick(['a', 'GET', '-i a', '-v a'])} {files} | wc -l"
        if kind == "sort":
            return f"{self.pick(['sort', 'LC_ALL=C sort', 'sort -u', 'LC_ALL=C sort -r'])} {operand} | uniq"
        if kind == "echo":
            return self.pick(['echo "$v"', "printf '%s\\n' \"$v\"", 'echo "$x"'] if bash else ['echo "$v"', 'echo "$x"'])
        if kind == "ls":
            return f"ls missing.txt words.txt {self.pick(['2>&1', '2>/dev/null', ''])}".rstrip()
        if kind == "tee":
            return f"{self.pick(['sort', 'cat'])} {operand} | tee /dev/null"
        return "{ echo a; sleep 0.3; echo b; touch done; }"

    def heredoc(self, tail: str) -> Pipeline:
        dash = self.pick(["<<", "<<-"])
        delimiter = self.pick(["EOF", "'EOF'", '"EOF"', "\\EOF", " EOF"])
        body = [self.pick(BODY_LINES) for _ in range(self.rng.randint(0, 3))]
        if dash == "<<-":
            body = ["\t" + line if self.chance(0.5) else line for line in body]
        if self.chance(0.15):
            body.insert(self.rng.randint(0, len(body)), self.pick(FAKE_ENDS[dash]))
        end = ("\t" if dash == "<<-" and self.chance(0.5) else "") + "EOF"
        bodies = ["".join(line + "\n" for line in body)]
        operator = f"cat {dash}{delimiter}"
        if self.chance(0.3):  # the pipe continues on the line after the delimiter
            lines = [f"{operator} |", *body, end, tail]
            return Pipeline(lines, end=len(lines) - 1, bodies=bodies)
        return Pipeline([f"{operator} | {tail}", *body, end], bodies=bodies)

    def consumer(self, bash: bool, loop: bool, function: bool) -> str:
        group = self.pick(["external", "external", "stateful", "readers", "expansion", "function", "control"])
        if group == "external":
            return self.pick(EXTERNAL)
        if group == "stateful":
            return self.pick(STATEFUL + (BASH_STATEFUL if bash else []))
        if group == "readers":
            return self.pick(SEVERAL_READERS)
        if group == "expansion":
            return self.pick(EXPANSIONS)
        if group == "function":
            return "fn"
        control = (["break", "continue"] if loop else []) + (["return 5"] if function else []) + ["exit 7"]
        return self.pick(control)

    def wrap(self, pipeline: Pipeline, bash: bool, loop: bool, function: bool) -> list[str]:
        lines = list(pipeline.lines)
        fn = []
        if any("fn" == word for line in lines for word in line.split()):
            fn = [self.pick(["fn() { wc -l; }", "fn() { read -r v; }", "fn() { cd src; }"])]
        if loop:
            prefix, suffix, newline = "for i in 1 2; do ", '; echo "i=$i"; done', False
        elif function:
            prefix, suffix, newline = "run() { ", '; echo "in=$?"; }', False
        else:
            forms = [
                ("", "", False), ("", '; echo "rc=$?"', False), ("if ", "; then echo yes; else echo no; fi", False),
                ("", " && echo ok || echo ko", False), ("n=$(", ')\necho "n=$n"', True), ('echo "got $(', ')"', True),
                ("( ", " )", False),
            ]
            if bash:
                forms.append(("", '; echo "ps=${PIPESTATUS[*]}"', False))
            prefix, suffix, newline = forms[self.rng.randrange(len(forms))]
        lines[0] = prefix + lines[0]
        if newline and pipeline.has_body and pipeline.end == 0:
            lines.append(suffix)  # `)` after the delimiter line, not before the body
        else:
            lines[pipeline.end] += suffix
        return fn + lines

    def last_line(self, bash: bool) -> str:
        if bash:
            return 'echo "end v=${v-unset} n=${n-unset} a=${a-} arr=${arr[*]-} pwd=${PWD##*/}"'
        return 'echo "end v=${v-unset} n=${n-unset} a=${a-} pwd=${PWD##*/}"'


def generate(seed: int, index: int, timing: bool = True) -> Case:
    """The index-th script of a run: the same for the same (seed, index) on every machine."""
    return Generator(random.Random(f"{seed}:{index}"), timing).case()
