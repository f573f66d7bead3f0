"""Settings from `[tool.pipelint]` in pyproject.toml or `.pipelint.toml`, and CLI overrides."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from pipelint.engine import registry, shellcheckrc
from pipelint.engine.patterns import compile_patterns
from pipelint.engine.sizes import DEFAULT_MAX_FILE_SIZE, parse_size
from pipelint.shell.dialect import LINTED_SHELLS, SHELLS, Dialect

if TYPE_CHECKING:
    from pipelint.rule import Rule

CONFIG_FILES = (".pipelint.toml", "pyproject.toml")  # the first found in a folder wins

_LIST_KEYS = ("select", "ignore", "extend-select", "exclude", "extend-exclude", "slow-mounts")
_KNOWN_KEYS = frozenset(_LIST_KEYS) | {
    "per-file-ignores", "unsafe-fixes", "max-file-size", "embedded", "remote-shell", "cache-dir", "shell",
    "respect-shellcheckrc", "strict-parse", "trace-file",
}  # fmt: skip

# What `remote-shell` may name: the dialect of the scripts ssh and `su -c` run.
REMOTE_SHELLS = ("sh", "bash")
_PATTERN_KEYS = ("exclude", "extend-exclude")

DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", "build", "dist", ".pipelint_cache"
)  # fmt: skip


class ConfigError(Exception):
    """A configuration file pipelint cannot use; the message names file and key."""


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] | None = None  # None: the rules enabled by default
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    unsafe_fixes: bool = False
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    slow_mounts: tuple[str, ...] = ()
    max_file_size: int | None = DEFAULT_MAX_FILE_SIZE  # bytes; None: no limit
    # Lint shell inside strings and here-documents (`sh -c '…'`, `ssh h '…'`) and in
    # Dockerfiles and CI files; `embedded = false` / --no-embedded: scripts only.
    embedded: bool = True
    remote_shell: str = "sh"  # the shell of the scripts `ssh host '…'` and `su -c '…'` run
    # The shell of every script (`--shell`, `shell =`), over its directive, shebang and name; None: detected.
    shell: str | None = None
    # Turn off the rules whose ShellCheck codes the script's `.shellcheckrc` disables (shellcheckrc.py).
    respect_shellcheckrc: bool = True
    shellcheck_disabled: tuple[str, ...] = ()  # those rules' codes, for the folder these settings are for
    # What tree-sitter-bash cannot parse in a script the shell accepts (`bash -n`): a note, not checked
    # (False), or a parse-error finding that sets the exit status, as for a script the shell rejects (True).
    strict_parse: bool = False
    cache_dir: Path | None = None  # where `pipelint check` keeps results (cache.py); None: ./.pipelint_cache
    # A `pipelint trace --output-format json` file whose measurements the language server shows on hover.
    trace_file: Path | None = None
    root: Path = field(default_factory=Path.cwd)  # folder patterns are relative to
    source: Path | None = None  # the config file these came from

    @property
    def forced_dialect(self) -> Dialect | None:
        """The dialect `shell` names, which every script is read in; None: each script's own (`dialect.detect`)."""
        return None if self.shell is None else SHELLS[self.shell].dialect

    def enabled_codes(self, path: Path | None = None) -> frozenset[str]:
        """The codes of the rules that check path, read from the registry's lines: no rule is imported."""
        codes = _selected_codes(self.select, self.extend_select, self.ignore).codes - set(self.shellcheck_disabled)
        if path is not None and self.per_file_ignores:  # resolving the path costs a few lstat calls
            codes -= self._ignored_for(path)
        return codes

    def enabled_rules(self, path: Path | None = None) -> list[type[Rule]]:
        return list(_rules(self.enabled_codes(path)))

    @property
    def loops_only(self) -> frozenset[str]:
        """Codes of enabled rules that report only inside loops: in the default set there, not selected by name."""
        return _selected_codes(self.select, self.extend_select, self.ignore).loops_only

    def _ignored_for(self, path: Path) -> set[str]:
        relative = _relative(path, self.root)
        ignored: set[str] = set()
        for pattern, selectors in self.per_file_ignores:
            if compile_patterns((pattern,)).spec.match_file(relative):
                for selector in selectors:
                    ignored.update(rule.code for rule in registry.resolve(selector))
        return ignored

    def is_excluded(self, path: str | Path) -> bool:
        relative = _relative(path, self.root)
        return compile_patterns(self.exclude + self.extend_exclude).spec.match_file(relative)


def _relative(path: str | Path, root: Path) -> str:
    # os.path.realpath, not Path.resolve, which raises on a symlink loop; compared as
    # strings: pathlib's relative_to cost a third of discovery on 1,389 files.
    real, real_root = _real_file_path(path), _realpath(os.fspath(root))
    if real == real_root:
        return "."
    prefix = real_root if real_root.endswith("/") else real_root + "/"
    return real[len(prefix) :] if real.startswith(prefix) else Path(path).as_posix()


def _real_file_path(path: str | Path) -> str:
    """os.path.realpath(path), with the folder's real path remembered: one lstat per file, not one per component.

    On strings: a Path's parent and hash cost more than the lookup they serve.
    """
    folder, name = os.path.split(os.fspath(path))
    if name in ("", ".", "..") or os.path.islink(path):
        return os.path.realpath(path)
    return os.path.join(_realpath(folder or "."), name)


def _realpath(folder: str) -> str:
    """A folder's real path, asked for every file in it (a folder moved during one run is not a concern).

    Remembered by absolute path: the language server and the tests change
    the working folder, and "." must not answer for the last one.
    """
    return _real_folder(folder if os.path.isabs(folder) else os.path.join(os.getcwd(), folder))


@functools.lru_cache(maxsize=4096)
def _real_folder(folder: str) -> str:
    """The real path of an absolute folder: its parent's, remembered, and its own name unless that is a link.

    One lstat per folder, where os.path.realpath takes one per component
    (6,500 of a cached run's 8,900 on the benchmark corpus's 930 folders).
    """
    parent, name = os.path.split(folder)
    if name in ("", ".", "..") or os.path.islink(folder):
        return os.path.realpath(folder)
    return os.path.join(_real_folder(parent), name)


@functools.lru_cache(maxsize=256)
def _rules(codes: frozenset[str]) -> tuple[type[Rule], ...]:
    """The rules of these codes, in the registry's order: only these rules' modules are imported."""
    return tuple(line.load() for line in registry.TABLE if line.code in codes)


@dataclass(frozen=True)
class _Selection:
    codes: frozenset[str]  # every rule that runs
    loops_only: frozenset[str]  # those of them that report only inside loops (`Rule.default_in_loops`)


@functools.lru_cache(maxsize=256)
def _selected_codes(select: tuple[str, ...] | None, extend: tuple[str, ...], ignore: tuple[str, ...]) -> _Selection:
    """The rules a selection runs. A rule in the default set only inside loops runs everywhere once named."""
    if select is None:
        codes = {line.code for line in registry.TABLE if line.enabled_by_default}
        in_loops = {line.code for line in registry.TABLE if line.default_in_loops}
    else:
        codes = {rule.code for selector in select for rule in registry.resolve(selector)}
        in_loops = set()
    extended = {rule.code for selector in extend for rule in registry.resolve(selector)}
    ignored = {rule.code for selector in ignore for rule in registry.resolve(selector)}
    in_loops = in_loops - extended - ignored
    return _Selection(frozenset((codes | extended | in_loops) - ignored), frozenset(in_loops))


def _is_dir(path: Path) -> bool:
    """Like Path.is_dir, but False for a path the system cannot even look up (a name too long, …)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def find_config_file(start: Path, known: dict[Path, Path | None] | None = None) -> Path | None:
    """The closest config file at or above start that configures pipelint.

    known: the answers for folders already searched, filled as it goes; a run
    over 1,349 files in a tree 9 folders deep looked for 24k files without it.
    """
    known = {} if known is None else known
    if start in known:  # a folder searched before, as named or resolved: the same folder, the same answer
        return known[start]
    folder = Path(_realpath(os.fspath(start)))
    if not _is_dir(folder):
        folder = folder.parent
    searched: list[Path] = []
    found = None
    for candidate_folder in (folder, *folder.parents):
        if candidate_folder in known:
            found = known[candidate_folder]
            break
        searched.append(candidate_folder)
        found = _config_file_in(candidate_folder)
        if found is not None:
            break
    for searched_folder in (start, *searched):
        known[searched_folder] = found
    return found


def _config_file_in(folder: Path) -> Path | None:
    for name in CONFIG_FILES:
        candidate = folder / name
        if _is_file(candidate) and (name != "pyproject.toml" or _has_tool_table(candidate)):
            return candidate
    return None


def _has_tool_table(pyproject: Path) -> bool:
    try:
        return b"[tool.pipelint" in pyproject.read_bytes()
    except OSError:
        return False


def read_afresh() -> None:
    """Forget the config files and real paths read so far: the next lookup sees the disk as it is now.

    A run reads them once; a language server that lives for hours asks this
    before each lint (a config file edited, a folder turned into a link).
    """
    load.cache_clear()
    _real_folder.cache_clear()
    shellcheckrc.read_afresh()


@functools.lru_cache(maxsize=64)
def load(config_file: Path) -> Settings:
    """Read and validate one config file."""
    import tomllib  # only where a config file is found: 3 ms of a start-up without one

    try:
        data = tomllib.loads(config_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{config_file}: cannot read: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{config_file}: invalid TOML: {error}") from None
    if config_file.name == "pyproject.toml":
        table = data.get("tool", {}).get("pipelint", {})
        prefix = "tool.pipelint."
    else:
        table, prefix = data, ""
        if isinstance(data.get("tool"), dict) and "pipelint" in data["tool"]:
            # ruff refuses `[tool.ruff]` in ruff.toml too ("unknown field `tool`"): one spelling per file.
            raise ConfigError(
                f"{config_file}: [tool.pipelint] is pyproject.toml's table; in {config_file.name} write its keys "
                "at the top, without the table header (`select = [...]`)"
            )
    return from_table(table, config_file, prefix)


def from_table(table: dict, config_file: Path, prefix: str = "") -> Settings:
    def fail(key: str, problem: str) -> ConfigError:
        return ConfigError(f"{config_file}: {prefix}{key}: {problem}")

    if not isinstance(table, dict):
        raise fail("", "must be a table")
    for key in table:
        if key not in _KNOWN_KEYS:
            raise fail(key, f"unknown key (known: {', '.join(sorted(_KNOWN_KEYS))})")
    values: dict = {"root": config_file.parent.resolve(), "source": config_file}
    for key in _LIST_KEYS:
        if key in table:
            value = table[key]
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise fail(key, "must be a list of strings")
            values[key.replace("-", "_")] = tuple(value)
    for key in _PATTERN_KEYS:
        for number, line in compile_patterns(tuple(table.get(key, ()))).rejected:
            raise fail(key, f"pattern {line!r} (entry {number}) is not a valid gitignore pattern")
    for key in ("select", "ignore", "extend-select"):
        for selector in table.get(key, []):
            try:
                registry.resolve(selector)
            except registry.UnknownSelector as error:
                raise fail(key, str(error)) from None
    for key in ("unsafe-fixes", "embedded", "respect-shellcheckrc", "strict-parse"):
        if key in table:
            if not isinstance(table[key], bool):
                raise fail(key, "must be true or false")
            values[key.replace("-", "_")] = table[key]
    if "remote-shell" in table:
        if table["remote-shell"] not in REMOTE_SHELLS:
            raise fail("remote-shell", f"must be one of {', '.join(map(repr, REMOTE_SHELLS))}")
        values["remote_shell"] = table["remote-shell"]
    if "shell" in table:
        if table["shell"] not in LINTED_SHELLS:
            raise fail("shell", f"must be one of {', '.join(map(repr, LINTED_SHELLS))}")
        values["shell"] = table["shell"]
    if "cache-dir" in table:
        if not isinstance(table["cache-dir"], str) or not table["cache-dir"]:
            raise fail("cache-dir", "must be a folder name")
        values["cache_dir"] = config_file.parent.resolve() / Path(table["cache-dir"]).expanduser()
    if "trace-file" in table:
        if not isinstance(table["trace-file"], str) or not table["trace-file"]:
            raise fail("trace-file", "must be a file name")
        values["trace_file"] = config_file.parent.resolve() / Path(table["trace-file"]).expanduser()
    if "max-file-size" in table:
        try:
            values["max_file_size"] = parse_size(table["max-file-size"])
        except ValueError as error:
            raise fail("max-file-size", str(error)) from None
    if "per-file-ignores" in table:
        values["per_file_ignores"] = _per_file_ignores(table["per-file-ignores"], fail)
    return Settings(**values)


def _per_file_ignores(value: object, fail) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise fail("per-file-ignores", 'must be a table of "glob" = ["CODE", …]')
    entries = []
    for pattern, selectors in value.items():
        if not isinstance(selectors, list) or not all(isinstance(s, str) for s in selectors):
            raise fail(f"per-file-ignores.{pattern}", "must be a list of rule codes")
        if compile_patterns((pattern,)).rejected:
            raise fail(f"per-file-ignores.{pattern}", "is not a valid gitignore pattern")
        for selector in selectors:
            try:
                registry.resolve(selector)
            except registry.UnknownSelector as error:
                raise fail(f"per-file-ignores.{pattern}", str(error)) from None
        entries.append((pattern, tuple(selectors)))
    return tuple(entries)


class Unset(Enum):
    """Not given on the command line (None already means "no limit")."""

    UNSET = "unset"


UNSET = Unset.UNSET


@dataclass(frozen=True)
class Overrides:
    """What the command line says; it wins over every file."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    unsafe_fixes: bool | None = None
    exclude: tuple[str, ...] | None = None
    slow_mounts: tuple[str, ...] = ()
    max_file_size: int | None | Unset = UNSET  # UNSET: as configured; None: no limit
    embedded: bool | None = None  # None: as configured
    shell: str | None = None  # None: as configured
    strict_parse: bool | None = None  # None: as configured

    def validate(self) -> None:
        for selector in (*(self.select or ()), *self.ignore, *self.extend_select):
            registry.resolve(selector)

    def apply(self, settings: Settings) -> Settings:
        changes: dict = {}
        if self.select is not None:
            changes["select"] = self.select
            changes["extend_select"] = self.extend_select
        else:
            changes["extend_select"] = settings.extend_select + self.extend_select
        changes["ignore"] = settings.ignore + self.ignore
        if self.unsafe_fixes is not None:
            changes["unsafe_fixes"] = self.unsafe_fixes
        if self.exclude is not None:
            changes["exclude"] = self.exclude
        changes["slow_mounts"] = settings.slow_mounts + self.slow_mounts
        if self.max_file_size is not UNSET:
            changes["max_file_size"] = self.max_file_size
        if self.embedded is not None:
            changes["embedded"] = self.embedded
        if self.shell is not None:
            changes["shell"] = self.shell
        if self.strict_parse is not None:
            changes["strict_parse"] = self.strict_parse
        return replace(settings, **changes)


class SettingsResolver:
    """Settings for any file: its closest config file, or an explicit one, plus overrides."""

    def __init__(self, overrides: Overrides | None = None, config_file: Path | None = None):
        self.overrides = overrides or Overrides()
        self.config_file = config_file
        # Config files found, by folder: one resolver serves one run (the language server makes one per lint).
        self._known: dict[Path, Path | None] = {}
        self._settings: dict[Path | None, Settings] = {}  # by config file: most runs have one for every file
        self._by_folder: dict[str, Settings] = {}  # for_file's answers, by the file's folder as written

    def for_file(self, path: Path) -> Settings:
        """for_path of a path known to be no folder (a file the run lints): one lookup per folder, no stat per file."""
        folder = os.path.dirname(os.fspath(path)) or "."
        settings = self._by_folder.get(folder)
        if settings is None:
            settings = self._by_folder[folder] = self.for_path(Path(folder))
        return settings

    def for_path(self, path: Path) -> Settings:
        folder = path if _is_dir(path) else path.parent
        config_file = self.config_file or find_config_file(folder, self._known)
        if config_file not in self._settings:
            base = load(config_file) if config_file else Settings()
            self._settings[config_file] = self.overrides.apply(base)
        settings = self._settings[config_file]
        if not settings.respect_shellcheckrc:
            return settings
        disabled = shellcheckrc.disabled_rules(_realpath(os.fspath(folder)))
        return replace(settings, shellcheck_disabled=disabled) if disabled else settings
