"""GitHub Actions: the `run:` scripts of workflows and composite actions.

Which shell runs a step (GitHub's "Workflow syntax", `jobs.<id>.steps[*].shell`):
- `shell: bash`: `bash --noprofile --norc -eo pipefail {0}` (errexit, pipefail);
- `shell: sh`: `sh -e {0}`; a custom `shell: bash -e {0}` is read for its options;
- `pwsh`, `python`, `cmd`, `powershell`, anything else: not linted;
- no `shell:` on the step, the job's or the workflow's `defaults.run.shell`:
  `bash -e {0}` on Linux and macOS runners (`sh` if bash is missing, so a
  step of a job running in a `container:` is read as POSIX sh), PowerShell
  on Windows runners: not linted there. Where `runs-on` is an expression
  (`${{ matrix.os }}`), the step may run under PowerShell too: linted, no fix.

`${{ … }}` expressions are opaque: each becomes a placeholder of its length
that maps nowhere (as actionlint does), so no edit is ever written over one.
GitHub writes an expression's value into the script before the shell reads
it, so the value is code no one can read: from the statement that holds one
on, no fix is safe (`Region.outer_code`, `embedded.inner_code`).

The `env:` of the workflow, the job and the step are the step's environment:
`SHELLOPTS`, `BASHOPTS` and `BASH_ENV` there change the shell before the
first line (`Region.environment`).

Well-known actions run shell too: `uses: appleboy/ssh-action@…` sends its
`with: script:` over ssh to the remote user's login shell (read as the POSIX
sh of the `remote-shell` default, whatever the step's `shell:`), whose output
comes back over the link. Its `script_stop: true` (drone-ssh, up to
ssh-action v1.1) checks the status after every line and exits on the first
failure: read as errexit on from the first line; drone-ssh then trims and
re-joins the lines, so no fix is written there.
"""

from __future__ import annotations

import re
from functools import partial

import yaml

from pipelint.embedded.hosts import yaml_scripts
from pipelint.shell.dialect import Dialect
from pipelint.embedded.hosts.shells import NOT_A_SHELL, HostShell, shell_of
from pipelint.embedded.hosts.yaml_scripts import Document, YamlScript, get, items, scalars_under, string
from pipelint.shell.options import STARTUP_VARIABLES

EXPRESSION = re.compile(rb"\$\{\{.*?\}\}")

# `shell:` keywords and what GitHub runs for them.
_KEYWORDS = {
    "bash": shell_of(["bash", "--noprofile", "--norc", "-eo", "pipefail"]),  # ... {0}
    "sh": shell_of(["sh", "-e"]),  # sh -e {0}
}
_UNSPECIFIED = shell_of(["bash", "-e"])  # bash -e {0}
_UNSPECIFIED_IN_CONTAINER = shell_of(["sh", "-e"])  # the image may have no bash: read as sh


def named_shell(value: str) -> HostShell:
    """What a `shell:` value runs; NOT_A_SHELL for PowerShell, Python, an expression and the like."""
    if value in _KEYWORDS:
        return _KEYWORDS[value]
    if "${{" in value or "{0}" not in value:
        return NOT_A_SHELL
    return shell_of(value.split())


def _runs_on(job: yaml.Node) -> str:
    """ "windows", "unknown" (an expression: maybe Windows) or "unix"."""
    labels = list(scalars_under(get(job, "runs-on")))
    if any("${{" in label for label in labels):
        return "unknown"
    if any("windows" in label.lower() for label in labels):
        return "windows"
    return "unix"


def _default_shell(node: yaml.Node | None) -> str | None:
    return string(get(get(get(node, "defaults"), "run"), "shell"))


def variables(*levels: yaml.Node | None) -> dict[str, str | None]:
    """The `env:` of the workflow, the job and the step, the later winning. An `env:` that is one
    expression (`${{ fromJSON(…) }}`) may set any variable: the startup variables then have no known value."""
    found: dict[str, str | None] = {}
    for env in levels:
        if isinstance(env, yaml.ScalarNode) and "${{" in env.value:
            found.update(dict.fromkeys(name.decode() for name in STARTUP_VARIABLES))
        for key, value in items(env):
            name = string(key)
            if name is not None:
                found[name] = string(value) if isinstance(value, yaml.ScalarNode) else None
    return found


# Actions that run an input on another host over ssh: the action (without `@ref`), the input holding the
# script, and the inputs that make it stop at the first failing line.
_REMOTE_SCRIPT_ACTIONS = {"appleboy/ssh-action": ("script", ("script_stop",))}
_TRUE = frozenset({"true", "True", "TRUE", "yes", "on"})


def _remote_script(step: yaml.Node, number: int, where: str) -> YamlScript | None:
    """The script a well-known ssh action runs remotely (`uses: appleboy/ssh-action@v1` with `script:`)."""
    uses = string(get(step, "uses")) or ""
    action = _REMOTE_SCRIPT_ACTIONS.get(uses.partition("@")[0].strip().lower())
    if action is None:
        return None
    key, stops = action
    inputs = get(step, "with")
    script = get(inputs, key)
    if not isinstance(script, yaml.ScalarNode) or "${{" in script.value.strip()[:3]:
        return None
    stop = any((string(get(inputs, name)) or "").strip() in _TRUE for name in stops)
    name = next(name for name, value in inputs.value if value is script)  # type: ignore[union-attr]
    return YamlScript(
        (script,),
        name.start_mark.column,
        Dialect.SH,
        f"the `{key}:` that step {number} of {where} runs on another host ({uses.partition('@')[0]})",
        editable=not stop,
        options=frozenset({"errexit"}) if stop else frozenset(),
        stdout_over_network=True,
    )


def _step_scripts(
    steps: yaml.Node | None,
    default: str | None,
    platform: str,
    in_container: bool,
    where: str,
    env: tuple[yaml.Node | None, ...] = (),
) -> list[YamlScript]:
    found = []
    if not isinstance(steps, yaml.SequenceNode):
        return found
    for number, step in enumerate(steps.value, 1):
        run = get(step, "run")
        if not isinstance(run, yaml.ScalarNode):
            remote = _remote_script(step, number, where)
            if remote is not None:
                found.append(remote)
            continue
        explicit = string(get(step, "shell")) or default
        if explicit is not None:
            shell = named_shell(explicit.strip())
        elif platform == "windows":
            shell = NOT_A_SHELL  # PowerShell
        else:
            shell = _UNSPECIFIED_IN_CONTAINER if in_container else _UNSPECIFIED
        if shell.dialect is None:
            continue
        shell = shell.with_environment(variables(*env, get(step, "env")))
        key = next(name for name, value in step.value if value is run)
        found.append(
            YamlScript(
                (run,),
                key.start_mark.column,
                shell.dialect,
                f"the `run:` script of step {number} of {where}",
                editable=explicit is not None or platform != "unknown",
                **shell.facts,
            )
        )
    return found


def scripts(doc: Document) -> list[YamlScript]:
    found: list[YamlScript] = []
    for root in doc.roots:
        workflow_default = _default_shell(root)
        for name, job in items(get(root, "jobs")):
            default = _default_shell(job) or workflow_default
            in_container = get(job, "container") is not None
            where = f"job `{string(name)}`"
            env = (get(root, "env"), get(job, "env"))
            found += _step_scripts(get(job, "steps"), default, _runs_on(job), in_container, where, env)
        runs = get(root, "runs")
        if string(get(runs, "using")) == "composite":
            found += _step_scripts(get(runs, "steps"), None, "unknown", False, "the composite action")
    return found


scan = partial(yaml_scripts.scan, find=scripts, expressions=EXPRESSION, script_keys=frozenset({"run"}))
same_structure = partial(yaml_scripts.same_structure, find=scripts)
