/**
 * Finding the `pipelint` to start, in the order ruff-vscode and
 * vscode-shellcheck use: the `pipelint.path` setting, then the selected
 * Python environment (where `pip install` put pipelint), then PATH.
 * Nothing here imports `vscode`: the caller passes what the editor knows.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export interface Search {
  /** `pipelint.path`, trimmed; "" when unset. */
  configured: string;
  /** The interpreter of the Python environment selected in VS Code, if any. */
  python?: string;
  /** The first workspace folder: a relative `pipelint.path` is taken from there. */
  folder?: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

export type Located =
  | { executable: string; source: "setting" | "python" | "path" }
  | { executable: undefined; search: Search };

export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    fs.accessSync(file, fs.constants.X_OK); // on Windows this only checks that it exists
    return true;
  } catch {
    return false;
  }
}

function expandHome(file: string): string {
  return file === "~" || file.startsWith("~/") ? path.join(os.homedir(), file.slice(1)) : file;
}

function resolveConfigured(search: Search): string {
  const file = expandHome(search.configured);
  return path.isAbsolute(file) || !search.folder ? file : path.join(search.folder, file);
}

/** Where `pip install` puts console scripts next to the interpreter. */
export function environmentCandidates(python: string, platform: NodeJS.Platform): string[] {
  if (platform === "win32") {
    const folder = path.win32.dirname(python);
    // A venv keeps python.exe in Scripts\; a base or conda install keeps it
    // one level up, with the scripts in Scripts\.
    return [path.win32.join(folder, "pipelint.exe"), path.win32.join(folder, "Scripts", "pipelint.exe")];
  }
  return [path.posix.join(path.posix.dirname(python), "pipelint")];
}

export function pathCandidates(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  const separator = platform === "win32" ? ";" : ":";
  const value = env.PATH ?? env.Path ?? "";
  const suffixes = platform === "win32" ? (env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean) : [""];
  const join = platform === "win32" ? path.win32.join : path.posix.join;
  return value
    .split(separator)
    .filter(Boolean)
    .flatMap((folder) => suffixes.map((suffix) => join(folder, `pipelint${suffix.toLowerCase()}`)));
}

export function locate(search: Search, usable: (file: string) => boolean = isExecutableFile): Located {
  if (search.configured) {
    // A path the user chose is never silently replaced by another pipelint.
    const file = resolveConfigured(search);
    return usable(file) ? { executable: file, source: "setting" } : { executable: undefined, search };
  }
  if (search.python) {
    const found = environmentCandidates(search.python, search.platform).find(usable);
    if (found) {
      return { executable: found, source: "python" };
    }
  }
  const found = pathCandidates(search.env, search.platform).find(usable);
  return found ? { executable: found, source: "path" } : { executable: undefined, search };
}

/** A word the user can paste into a shell as it is. */
export function shellWord(word: string, platform: NodeJS.Platform): string {
  if (/^[\w@%+=:,./\\-]+$/.test(word)) {
    return word;
  }
  return platform === "win32" ? `"${word}"` : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface NotFound {
  message: string;
  /** The page that explains the install; absent when the fix is to correct pipelint.path. */
  guide?: string;
}

/** The README's Install section, from the project's documentation address (the manifest's `homepage`). */
export function installGuide(homepage: string): string {
  return new URL("#install", homepage).href;
}

/**
 * What to tell a user whose pipelint was not found.  pipelint is not on PyPI
 * yet, so the message names no install from a registry: pipelint installs
 * from a clone of its repository or from a wheel file (`guide`: the README's
 * Install section).  Once it is released, the message names that again.
 */
export function notFound(search: Search, guide: string): NotFound {
  if (search.configured) {
    return {
      message:
        `pipelint: pipelint.path is "${search.configured}", which is not an executable file ` +
        `(looked for ${resolveConfigured(search)}). Correct the setting, or clear it to use the ` +
        "pipelint of the selected Python environment or PATH.",
    };
  }
  const source = "from a clone of its repository or from a wheel file (pipelint is not on PyPI yet)";
  if (search.python) {
    return {
      message:
        `pipelint was not found in the selected Python environment (${search.python}) or on PATH. ` +
        `Install it into that environment ${source}: ` +
        `${shellWord(search.python, search.platform)} -m pip install CLONE-OR-WHEEL — or set pipelint.path.`,
      guide,
    };
  }
  return {
    message:
      "pipelint was not found on PATH (and no Python environment is selected). " +
      `Install it ${source}: pipx install CLONE-OR-WHEEL — or set pipelint.path.`,
    guide,
  };
}
