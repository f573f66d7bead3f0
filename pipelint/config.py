"""Settings from `[tool.pipelint]` in pyproject.toml or `.pipelint.toml`, and CLI overrides."""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

import pathspec

from pipelint import registry
from pipelint.rule import Rule

CONFIG_FILES = (".pipelint.toml", "pyproject.toml")  # the first found in a folder wins

_LIST_KEYS = ("select", "ignore", "extend-select", "exclude", "extend-exclude", "slow-mounts")
_KNOWN_KEYS = frozenset(_LIST_KEYS) | {"per-file-ignores", "unsafe-fixes"}

DEFAULT_EXCLUDE = (".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", "build", "dist")


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
    root: Path = field(default_factory=Path.cwd)  # folder patterns are relative to
    source: Path | None = None  # the config file these came from

    def enabled_rules(self, path: Path | None = None) -> list[type[Rule]]:
        codes = _selected_codes(self.select, self.extend_select, self.ignore)
        if path is not None:
            codes -= self._ignored_for(path)
        return [rule for rule in registry.RULES if rule.code in codes]

    def _ignored_for(self, path: Path) -> set[str]:
        relative = _relative(path, self.root)
        ignored: set[str] = set()
        for pattern, selectors in self.per_file_ignores:
            if _spec((pattern,)).match_file(relative):
                for selector in selectors:
                    ignored.update(rule.code for rule in registry.resolve(selector))
        return ignored

    def is_excluded(self, path: Path) -> bool:
        relative = _relative(path, self.root)
        return _spec(self.exclude + self.extend_exclude).match_file(relative)


def _relative(path: Path, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


@functools.lru_cache(maxsize=256)
def _spec(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(patterns)


@functools.lru_cache(maxsize=256)
def _selected_codes(select: tuple[str, ...] | None, extend: tuple[str, ...], ignore: tuple[str, ...]) -> frozenset[str]:
    if select is None:
        codes = {rule.code for rule in registry.RULES if rule.enabled_by_default}
    else:
        codes = {rule.code for selector in select for rule in registry.resolve(selector)}
    codes |= {rule.code for selector in extend for rule in registry.resolve(selector)}
    codes -= {rule.code for selector in ignore for rule in registry.resolve(selector)}
    return frozenset(codes)


def find_config_file(start: Path) -> Path | None:
    """The closest config file at or above start that configures pipelint."""
    folder = start.resolve()
    if folder.is_file():
        folder = folder.parent
    for candidate_folder in (folder, *folder.parents):
        for name in CONFIG_FILES:
            candidate = candidate_folder / name
            if candidate.is_file() and (name != "pyproject.toml" or _has_tool_table(candidate)):
                return candidate
    return None


def _has_tool_table(pyproject: Path) -> bool:
    try:
        return b"[tool.pipelint" in pyproject.read_bytes()
    except OSError:
        return False


@functools.lru_cache(maxsize=64)
def load(config_file: Path) -> Settings:
    """Read and validate one config file."""
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
    for key in ("select", "ignore", "extend-select"):
        for selector in table.get(key, []):
            try:
                registry.resolve(selector)
            except registry.UnknownSelector as error:
                raise fail(key, str(error)) from None
    if "unsafe-fixes" in table:
        if not isinstance(table["unsafe-fixes"], bool):
            raise fail("unsafe-fixes", "must be true or false")
        values["unsafe_fixes"] = table["unsafe-fixes"]
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
        for selector in selectors:
            try:
                registry.resolve(selector)
            except registry.UnknownSelector as error:
                raise fail(f"per-file-ignores.{pattern}", str(error)) from None
        entries.append((pattern, tuple(selectors)))
    return tuple(entries)


@dataclass(frozen=True)
class Overrides:
    """What the command line says; it wins over every file."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    unsafe_fixes: bool | None = None
    exclude: tuple[str, ...] | None = None
    slow_mounts: tuple[str, ...] = ()

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
        return replace(settings, **changes)


class SettingsResolver:
    """Settings for any file: its closest config file, or an explicit one, plus overrides."""

    def __init__(self, overrides: Overrides | None = None, config_file: Path | None = None):
        self.overrides = overrides or Overrides()
        self.config_file = config_file

    def for_path(self, path: Path) -> Settings:
        config_file = self.config_file or find_config_file(path if path.is_dir() else path.parent)
        base = load(config_file) if config_file else Settings()
        return self.overrides.apply(base)
