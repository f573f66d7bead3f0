/**
 * The .vsix that `npm run package` built (`npm test` builds it first): what a
 * user installs with `code --install-extension`.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import Module from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { before, test } from "node:test";
import { FIX_ALL_KIND } from "../src/fixAll";
import { EXTENSION_ROOT, readZip, sourceManifest } from "./manifest";

const manifest = sourceManifest();
const VSIX = path.join(EXTENSION_ROOT, `${manifest.name}-${manifest.version}.vsix`);
let files: Map<string, Buffer>;

before(async () => {
  assert.ok(fs.existsSync(VSIX), `${VSIX} is missing: run \`npm run package\` first`);
  files = await readZip(VSIX);
});

test("the package holds the manifest, the README, the license and the bundled client, and nothing else", () => {
  const extensionFiles = [...files.keys()].filter((name) => name.startsWith("extension/")).sort();
  assert.deepEqual(extensionFiles, [
    "extension/LICENSE.txt",
    "extension/dist/extension.js",
    "extension/package.json",
    "extension/readme.md",
  ]);
  assert.ok(files.has("extension.vsixmanifest"));
});

test("the license in the package is the repository's LICENSE, declared in the VSIX manifest", () => {
  const repositoryLicense = fs.readFileSync(path.join(EXTENSION_ROOT, "LICENSE"));
  assert.match(repositoryLicense.toString("utf8"), /^MIT License\n/);
  assert.deepEqual(files.get("extension/LICENSE.txt"), repositoryLicense);
  assert.match(files.get("extension.vsixmanifest")!.toString("utf8"), /<License>extension\/LICENSE\.txt<\/License>/);
});

test("the packaged manifest is the current package.json", () => {
  const packaged = JSON.parse(files.get("extension/package.json")!.toString("utf8"));
  assert.deepEqual(packaged, manifest);
  assert.equal(`extension/${path.posix.normalize(packaged.main)}`, "extension/dist/extension.js");
  assert.deepEqual(packaged.activationEvents, [
    "onLanguage:shellscript",
    "onLanguage:dockerfile",
    "onLanguage:yaml",
    "onLanguage:github-actions-workflow",
    "onLanguage:dockercompose",
  ]);
  assert.deepEqual(
    Object.keys(packaged.contributes.configuration.properties).sort(),
    ["pipelint.args", "pipelint.enable", "pipelint.fixAll", "pipelint.path", "pipelint.trace.server"],
  );
  const kinds = packaged.contributes.codeActions.flatMap((c: { actions: { kind: string }[] }) => c.actions.map((a) => a.kind));
  assert.ok(kinds.includes(FIX_ALL_KIND));
  const vsixManifest = files.get("extension.vsixmanifest")!.toString("utf8");
  assert.match(vsixManifest, new RegExp(`Version="${manifest.version.replace(/\./g, "\\.")}"`));
});

test("the bundle loads with nothing but VS Code's own module, and exports activate and deactivate", () => {
  // Unpack the bundle and require it with `vscode` stubbed: any other require
  // it could not satisfy (a dependency left out of the bundle) throws here.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pipelint-vsix-"));
  const bundle = path.join(folder, "extension.js");
  fs.writeFileSync(bundle, files.get("extension/dist/extension.js")!);
  // Every property of the stub is the stub again, callable and extendable;
  // `__esModule` keeps the bundle's import helpers from copying it.
  const stub: object = new Proxy(function () {}, {
    get: (_target, key) => (key === "__esModule" ? true : stub),
    apply: () => stub,
    construct: () => stub,
  });
  const moduleInternals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = moduleInternals._load;
  moduleInternals._load = (request, ...rest) => (request === "vscode" ? stub : load(request, ...rest));
  try {
    const extension = require(bundle);
    assert.equal(typeof extension.activate, "function");
    assert.equal(typeof extension.deactivate, "function");
  } finally {
    moduleInternals._load = load;
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
