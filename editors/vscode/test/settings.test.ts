import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULTS, needsRestart, readSettings, serverCommand } from "../src/settings";

function source(values: Record<string, unknown>) {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

test("unset settings are the defaults: enabled, pipelint found automatically, no extra args, no fix on save", () => {
  assert.deepEqual(readSettings(source({})), { enable: true, path: "", args: [], fixAll: false });
});

test("settings are read as given, the path trimmed", () => {
  const settings = readSettings(
    source({ enable: false, path: "  /opt/pipelint/bin/pipelint ", args: ["--stdio"], fixAll: true }),
  );
  assert.deepEqual(settings, { enable: false, path: "/opt/pipelint/bin/pipelint", args: ["--stdio"], fixAll: true });
});

test("values of the wrong type fall back to the defaults instead of reaching the command line", () => {
  const settings = readSettings(source({ enable: "yes", path: 42, args: ["--stdio", 3], fixAll: null }));
  assert.deepEqual(settings, DEFAULTS);
});

test("the server command line is the executable, `lsp`, then pipelint.args, without a shell", () => {
  const settings = readSettings(source({ args: ["--stdio", "a b; rm -rf ~"] }));
  assert.deepEqual(serverCommand("/home/me/.venv/bin/pipelint", settings), {
    command: "/home/me/.venv/bin/pipelint",
    args: ["lsp", "--stdio", "a b; rm -rf ~"],
  });
  assert.deepEqual(serverCommand("pipelint", readSettings(source({}))).args, ["lsp"]);
});

test("the reading does not share the defaults' array with the caller", () => {
  readSettings(source({})).args.push("--oops");
  assert.deepEqual(readSettings(source({})).args, []);
});

test("changing enable, path or args restarts the server; fixAll and the trace level do not", () => {
  const restartsFor = (changed: string[]) => needsRestart((section) => changed.includes(section));
  assert.equal(restartsFor(["pipelint.enable"]), true);
  assert.equal(restartsFor(["pipelint.path"]), true);
  assert.equal(restartsFor(["pipelint.args"]), true);
  assert.equal(restartsFor(["pipelint.fixAll"]), false);
  assert.equal(restartsFor(["pipelint.trace.server"]), false);
  assert.equal(restartsFor(["editor.fontSize"]), false);
});
