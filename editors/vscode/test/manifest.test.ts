import assert from "node:assert/strict";
import { test } from "node:test";
import { ACTIVATION_LANGUAGES } from "../src/languages";
import { DEFAULTS } from "../src/settings";
import { FIX_ALL_KIND } from "../src/fixAll";
import { sourceManifest } from "./manifest";

const manifest = sourceManifest();

test("the extension activates for exactly the languages of the files its client serves", () => {
  assert.deepEqual(manifest.activationEvents, ACTIVATION_LANGUAGES.map((language) => `onLanguage:${language}`));
  for (const contribution of manifest.contributes.codeActions) {
    assert.deepEqual(contribution.languages, [...ACTIVATION_LANGUAGES]);
  }
});

test("every setting the code reads is contributed, with the same default", () => {
  const properties = manifest.contributes.configuration.properties;
  for (const [key, value] of Object.entries(DEFAULTS)) {
    assert.ok(properties[`pipelint.${key}`], `pipelint.${key} is not in contributes.configuration`);
    assert.deepEqual(properties[`pipelint.${key}`].default, value, `default of pipelint.${key}`);
  }
  assert.deepEqual(Object.keys(properties).sort(), [...Object.keys(DEFAULTS).map((key) => `pipelint.${key}`), "pipelint.trace.server"].sort());
});

test("source.fixAll.pipelint is contributed, so editor.codeActionsOnSave completes it", () => {
  const kinds = manifest.contributes.codeActions.flatMap((contribution) => contribution.actions.map((action) => action.kind));
  assert.ok(kinds.includes(FIX_ALL_KIND), kinds.join(", "));
});

test("an untrusted workspace cannot choose the program VS Code runs", () => {
  assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.sort(), ["pipelint.args", "pipelint.path"]);
});
