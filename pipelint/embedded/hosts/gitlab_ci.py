"""GitLab CI: the `before_script`, `script` and `after_script` of jobs, `default:` and hidden jobs (`.name:`).

A script is a string or a list of strings; GitLab flattens nested lists (from
anchors and `!reference`) and runs the items one after the other in one shell,
so one list is one region: the items joined by line breaks, each item's lines
mapped to the file. A `!reference [.job, script]` item is GitLab's to resolve:
skipped (the job it names is linted where it is defined).

The shell: GitLab Runner's shell script on Linux runs the job with bash when
the image has it and with sh otherwise (its shell-detection preamble), with
`set -eo pipefail` under bash. Fixes are made for POSIX sh, the cautious one
of the two: a fix valid in sh is valid in bash, not the other way round.
"""

from __future__ import annotations

from functools import partial

import yaml

from pipelint.shell.dialect import Dialect
from pipelint.embedded.hosts import yaml_scripts
from pipelint.embedded.hosts.shells import shell_of
from pipelint.embedded.hosts.yaml_scripts import Document, YamlScript, flattened, items, string

SCRIPT_KEYS = ("before_script", "script", "after_script")
# The Runner's `set -eo pipefail` (under bash; read as in force whatever the shell).
_RUNNER_OPTIONS = shell_of(["bash", "-eo", "pipefail"]).options
# Top-level keys that are no job (GitLab's "CI/CD YAML syntax reference", global keywords).
_GLOBAL_KEYS = frozenset({"include", "stages", "variables", "workflow", "image", "services", "cache", "spec"})


def _job_scripts(name: str, job: yaml.Node) -> list[YamlScript]:
    found = []
    for key, value in items(job):
        if string(key) not in SCRIPT_KEYS:
            continue
        nodes = tuple(flattened(value))
        if nodes:
            where = "`default:`" if name == "default" else f"job `{name}`"
            origin = f"the `{key.value}` of {where}"
            found.append(YamlScript(nodes, key.start_mark.column, Dialect.SH, origin, options=_RUNNER_OPTIONS))
    return found


def scripts(doc: Document) -> list[YamlScript]:
    found: list[YamlScript] = []
    for root in doc.roots:
        for key, value in items(root):
            name = string(key)
            if name is None or name in _GLOBAL_KEYS:
                continue
            if name in SCRIPT_KEYS:  # the deprecated global before_script / after_script
                value = yaml.MappingNode("tag:yaml.org,2002:map", [(key, value)])
            found += _job_scripts(name, value)
    return found


scan = partial(yaml_scripts.scan, find=scripts)
same_structure = partial(yaml_scripts.same_structure, find=scripts)
