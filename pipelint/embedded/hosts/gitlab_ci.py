"""GitLab CI: the `before_script`, `script` and `after_script` of jobs, `default:` and hidden jobs (`.name:`).

A script is a string or a list of strings; GitLab flattens nested lists (from
anchors and `!reference`) and runs the items one after the other in one shell,
so one list is one region: the items joined by line breaks, each item's lines
mapped to the file. A `!reference [.job, script]` item is GitLab's to resolve:
skipped (the job it names is linted where it is defined).

`before_script` and `script` run in the same shell ("CI/CD YAML syntax
reference", `before_script`), so a job's `script` is read after its
`before_script`: a function or alias defined there, an option turned on there,
holds in `script` (issue 25, class 4). The `before_script` is the job's own,
else that of the jobs it `extends` (in this file), else `default:`'s (or the
old global one) unless `inherit: default:` leaves it out. Where it may come
from another file (an `extends:` of a job not here, or an `include:` when
neither the job nor this file's `default:` has one), the `script` runs after
code pipelint cannot read: every name may be a function, every option on.
`after_script` runs in a shell of its own. Each job's `variables:` and the
global ones are its environment (`SHELLOPTS`, `BASHOPTS`, `BASH_ENV`).

The shell: GitLab Runner's shell script on Linux runs the job with bash when
the image has it and with sh otherwise (its shell-detection preamble), with
`set -eo pipefail` under bash. Fixes are made for POSIX sh, the cautious one
of the two: a fix valid in sh is valid in bash, not the other way round.
"""

from __future__ import annotations

from functools import partial

import yaml

from pipelint.embedded.hosts import yaml_scripts
from pipelint.embedded.hosts.shells import environment_of, shell_of
from pipelint.embedded.hosts.yaml_scripts import Document, YamlScript, flattened, get, items, string
from pipelint.shell.dialect import Dialect

SCRIPT_KEYS = ("before_script", "script", "after_script")
# The Runner's `set -eo pipefail` (under bash; read as in force whatever the shell).
_RUNNER_OPTIONS = shell_of(["bash", "-eo", "pipefail"]).options
# Top-level keys that are no job (GitLab's "CI/CD YAML syntax reference", global keywords).
_GLOBAL_KEYS = frozenset({"include", "stages", "variables", "workflow", "image", "services", "cache", "spec"})
# How many `extends:` deep a job's `before_script` is looked for (GitLab allows 11 levels).
_MAX_EXTENDS = 11


class _File:
    """What the jobs of one YAML document share: its jobs by name, `default:`, its variables, its includes."""

    def __init__(self, root: yaml.Node) -> None:
        self.jobs = {name: job for key, job in items(root) if (name := string(key)) is not None}
        self.default = get(root, "default")
        self.global_before = get(root, "before_script")  # the deprecated global keyword
        self.variables = _variables(get(root, "variables"))
        self.includes = get(root, "include") is not None

    def before_script(self, job: yaml.Node) -> tuple[list[yaml.ScalarNode], bool]:
        """The `before_script` that runs before the job's `script`, and whether it may come from another file."""
        found, unknown = self._own_or_extended(job, 0)
        if found is not None or unknown:
            return found or [], unknown
        inherit = get(get(job, "inherit"), "default")
        if string(inherit) == "false" or (
            isinstance(inherit, yaml.SequenceNode) and "before_script" not in [string(item) for item in inherit.value]
        ):
            return [], False
        default = get(self.default, "before_script") or self.global_before
        if default is not None:
            return flattened(default), False
        return [], self.includes  # an included file's `default:` may give one

    def _own_or_extended(self, job: yaml.Node, depth: int) -> tuple[list[yaml.ScalarNode] | None, bool]:
        own = get(job, "before_script")
        if own is not None:
            return flattened(own), False
        extends = get(job, "extends")
        names = [string(extends)] if isinstance(extends, yaml.ScalarNode) else [string(n) for n in getattr(extends, "value", [])]
        if depth >= _MAX_EXTENDS:
            return None, bool(names)
        for name in reversed(names):  # the last one listed wins
            parent = self.jobs.get(name or "")
            if parent is None:
                return None, True  # a job of another file
            found, unknown = self._own_or_extended(parent, depth + 1)
            if found is not None or unknown:
                return found, unknown
        return None, False

    def environment(self, job: yaml.Node) -> dict[str, str | None]:
        return {**self.variables, **_variables(get(job, "variables"))}


def _variables(node: yaml.Node | None) -> dict[str, str | None]:
    """`variables:` as names and values; `NAME: {value: …, description: …}` gives its `value`."""
    found: dict[str, str | None] = {}
    for key, value in items(node):
        name = string(key)
        if name is not None:
            found[name] = string(get(value, "value")) if isinstance(value, yaml.MappingNode) else string(value)
    return found


def _job_scripts(name: str, job: yaml.Node, file: _File) -> list[YamlScript]:
    found = []
    environment = environment_of(file.environment(job))
    for key, value in items(job):
        if string(key) not in SCRIPT_KEYS:
            continue
        nodes = tuple(flattened(value))
        if not nodes:
            continue
        where = "`default:`" if name == "default" else f"job `{name}`"
        origin = f"the `{key.value}` of {where}"
        unseen = False
        if key.value == "script":
            before, unseen = file.before_script(job)
            if before:
                origin = f"the `script` of {where}, after its `before_script`"
                nodes = (*before, *nodes)
        found.append(
            YamlScript(
                nodes, key.start_mark.column, Dialect.SH, origin, options=_RUNNER_OPTIONS, environment=environment,
                unseen_code_before=unseen,
            )
        )  # fmt: skip
    return found


def scripts(doc: Document) -> list[YamlScript]:
    found: list[YamlScript] = []
    for root in doc.roots:
        file = _File(root)
        for key, value in items(root):
            name = string(key)
            if name is None or name in _GLOBAL_KEYS:
                continue
            if name in SCRIPT_KEYS:  # the deprecated global before_script / after_script
                value = yaml.MappingNode("tag:yaml.org,2002:map", [(key, value)])
            found += _job_scripts(name, value, file)
    return found


scan = partial(yaml_scripts.scan, find=scripts, script_keys=frozenset(SCRIPT_KEYS), holders=".")
same_structure = partial(yaml_scripts.same_structure, find=scripts)
