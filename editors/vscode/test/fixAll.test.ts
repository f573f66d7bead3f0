import assert from "node:assert/strict";
import { test } from "node:test";
import { FIX_ALL_KIND, fixesOnSave, pickFixAll } from "../src/fixAll";

test("fix all runs on a save the user asked for, with pipelint.fixAll on", () => {
  assert.equal(fixesOnSave(true, true), true);
  assert.equal(fixesOnSave(false, true), false); // auto-save after a delay or on focus change
  assert.equal(fixesOnSave(true, false), false);
});

test("the fix-all action is picked by its kind among quick fixes and commands", () => {
  const fixAll = { title: "pipelint: fix all auto-fixable problems", kind: FIX_ALL_KIND };
  const reply = [
    { title: "PL001: Redirect access.log into grep", kind: "quickfix" },
    { title: "Run something", command: "x.run" },
    fixAll,
  ];
  assert.equal(pickFixAll(reply), fixAll);
  assert.equal(pickFixAll([{ title: "other", kind: "source.fixAll.ruff" }]), undefined);
  assert.equal(pickFixAll(null), undefined);
});
