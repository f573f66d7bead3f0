import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";
import { environmentCandidates, installGuide, locate, notFound, pathCandidates, shellWord, type Search } from "../src/locate";
import { sourceManifest } from "./manifest";

const roots: string[] = [];
after(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

/** A temporary folder tree; `exe` files get mode 755, `plain` files 644. */
function tree(files: { exe?: string[]; plain?: string[]; dirs?: string[] }): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pipelint-locate-"));
  roots.push(root);
  for (const dir of files.dirs ?? []) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
  }
  for (const [names, mode] of [[files.exe ?? [], 0o755], [files.plain ?? [], 0o644]] as const) {
    for (const name of names) {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), "#!/bin/sh\n", { mode });
    }
  }
  return root;
}

function search(overrides: Partial<Search>): Search {
  return { configured: "", env: { PATH: "" }, platform: "linux", ...overrides };
}

test("the selected Python environment's pipelint comes before the one on PATH", () => {
  const root = tree({ exe: ["venv/bin/python", "venv/bin/pipelint", "usr/bin/pipelint"] });
  const found = locate(search({ python: path.join(root, "venv/bin/python"), env: { PATH: path.join(root, "usr/bin") } }));
  assert.deepEqual(found, { executable: path.join(root, "venv/bin/pipelint"), source: "python" });
});

test("without pipelint in the environment, PATH is searched in order", () => {
  const root = tree({ exe: ["venv/bin/python", "b/pipelint", "c/pipelint"], dirs: ["a"] });
  const env = { PATH: ["a", "b", "c"].map((dir) => path.join(root, dir)).join(":") };
  const found = locate(search({ python: path.join(root, "venv/bin/python"), env }));
  assert.deepEqual(found, { executable: path.join(root, "b/pipelint"), source: "path" });
});

test("a file that is not executable, or a folder named pipelint, is passed over", () => {
  const root = tree({ plain: ["a/pipelint"], dirs: ["b/pipelint"], exe: ["c/pipelint"] });
  const env = { PATH: ["a", "b", "c"].map((dir) => path.join(root, dir)).join(":") };
  assert.equal(locate(search({ env })).executable, path.join(root, "c/pipelint"));
});

test("pipelint.path wins, relative to the workspace folder or under ~", () => {
  const root = tree({ exe: ["tools/pipelint", "usr/bin/pipelint"] });
  const env = { PATH: path.join(root, "usr/bin") };
  assert.deepEqual(locate(search({ configured: path.join(root, "tools/pipelint"), env })), {
    executable: path.join(root, "tools/pipelint"),
    source: "setting",
  });
  assert.equal(locate(search({ configured: "tools/pipelint", folder: root, env })).executable, path.join(root, "tools/pipelint"));
  const seen: string[] = [];
  locate(search({ configured: "~/bin/pipelint" }), (file) => (seen.push(file), false));
  assert.deepEqual(seen, [path.join(os.homedir(), "bin/pipelint")]);
});

test("a pipelint.path that does not exist is reported, not replaced by another pipelint", () => {
  const root = tree({ exe: ["usr/bin/pipelint"] });
  const wanted = search({ configured: "/nonexistent/pipelint", env: { PATH: path.join(root, "usr/bin") } });
  const found = locate(wanted);
  assert.equal(found.executable, undefined);
  const problem = notFound(wanted, GUIDE);
  assert.match(problem.message, /pipelint\.path is "\/nonexistent\/pipelint", which is not an executable file/);
  assert.equal(problem.guide, undefined);
});

// Until the first release no registry has pipelint: no message may say `pip install pipelint`.
const GUIDE = installGuide(sourceManifest().homepage);

test("the install guide is the README's Install section at the manifest's homepage", () => {
  assert.equal(GUIDE, "https://github.com/pipelint/pipelint#install");
});

test("not found with an environment selected: the message names it and its pip, from a clone or a wheel", () => {
  const root = tree({ exe: ["my env/bin/python"] });
  const python = path.join(root, "my env/bin/python");
  const wanted = search({ python, env: { PATH: "/nonexistent" } });
  assert.equal(locate(wanted).executable, undefined);
  const problem = notFound(wanted, GUIDE);
  assert.equal(problem.guide, GUIDE);
  assert.equal(
    problem.message,
    `pipelint was not found in the selected Python environment (${python}) or on PATH. ` +
      "Install it into that environment from a clone of its repository or from a wheel file " +
      `(pipelint is not on PyPI yet): '${python}' -m pip install CLONE-OR-WHEEL — or set pipelint.path.`,
  );
  assert.doesNotMatch(problem.message, /install pipelint\b/);
});

test("not found without an environment: pipx, which works on Debian's externally managed Python too", () => {
  const problem = notFound(search({}), GUIDE);
  assert.equal(problem.guide, GUIDE);
  assert.match(problem.message, /^pipelint was not found on PATH .*: pipx install CLONE-OR-WHEEL — or set pipelint\.path\.$/);
  assert.doesNotMatch(problem.message, /install pipelint\b/);
});

test("Windows: Scripts\\pipelint.exe beside or below python.exe, and PATH with PATHEXT", () => {
  assert.deepEqual(environmentCandidates("C:\\envs\\base\\python.exe", "win32"), [
    "C:\\envs\\base\\pipelint.exe",
    "C:\\envs\\base\\Scripts\\pipelint.exe",
  ]);
  assert.deepEqual(pathCandidates({ PATH: "C:\\bin;D:\\tools", PATHEXT: ".EXE;.CMD" }, "win32"), [
    "C:\\bin\\pipelint.exe",
    "C:\\bin\\pipelint.cmd",
    "D:\\tools\\pipelint.exe",
    "D:\\tools\\pipelint.cmd",
  ]);
});

test("shell words: plain paths stay bare, others are quoted so they paste as one word", () => {
  assert.equal(shellWord("/home/me/.venv/bin/python", "linux"), "/home/me/.venv/bin/python");
  assert.equal(shellWord("/home/me/my env/python", "linux"), "'/home/me/my env/python'");
  assert.equal(shellWord("/tmp/it's/python", "linux"), `'/tmp/it'\\''s/python'`);
  assert.equal(shellWord("C:\\Program Files\\Python\\python.exe", "win32"), '"C:\\Program Files\\Python\\python.exe"');
});
