/**
 * The extension's settings, read once per server start, and the command line
 * they give the server.  Nothing here imports `vscode`, so node's test runner
 * can check it without an editor.
 */

export interface Settings {
  enable: boolean;
  /** The `pipelint` executable; "" means: look in the Python environment, then on PATH. */
  path: string;
  /** Extra arguments after `pipelint lsp`. */
  args: string[];
  /** Apply `source.fixAll.pipelint` when a script is saved by hand. */
  fixAll: boolean;
}

/** What `vscode.workspace.getConfiguration("pipelint")` offers; a plain object in tests. */
export interface SettingsSource {
  get<T>(key: string): T | undefined;
}

export const DEFAULTS: Settings = { enable: true, path: "", args: [], fixAll: false };

/**
 * Settings with wrong types (a hand-edited settings.json) fall back to the
 * defaults instead of reaching the server's command line.
 */
export function readSettings(source: SettingsSource): Settings {
  const enable = source.get<unknown>("enable");
  const path = source.get<unknown>("path");
  const args = source.get<unknown>("args");
  const fixAll = source.get<unknown>("fixAll");
  return {
    enable: typeof enable === "boolean" ? enable : DEFAULTS.enable,
    path: typeof path === "string" ? path.trim() : DEFAULTS.path,
    args: Array.isArray(args) && args.every((arg) => typeof arg === "string") ? [...args] : [...DEFAULTS.args],
    fixAll: typeof fixAll === "boolean" ? fixAll : DEFAULTS.fixAll,
  };
}

export interface ServerCommand {
  command: string;
  args: string[];
}

/** `pipelint lsp` and the user's extra arguments, run without a shell (no quoting to get wrong). */
export function serverCommand(executable: string, settings: Settings): ServerCommand {
  return { command: executable, args: ["lsp", ...settings.args] };
}

/**
 * Whether these setting changes need the server started again.  `fixAll` is
 * read at each save and vscode-languageclient follows `pipelint.trace.server`
 * itself, so changing only those restarts nothing.
 */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return ["enable", "path", "args"].some((key) => affects(`pipelint.${key}`));
}
