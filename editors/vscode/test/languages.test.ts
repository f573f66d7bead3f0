import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { HOST_FILE_PATTERNS, documentSelector } from "../src/languages";
import { EXTENSION_ROOT } from "./manifest";

/** VS Code's glob syntax, as far as HOST_FILE_PATTERNS uses it: `**\/`, `*`, `{a,b}`. */
function globRegExp(glob: string): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (glob.startsWith("**/", index)) {
      source += "(?:.*/)?";
      index += 2;
    } else if (char === "*") {
      source += "[^/]*";
    } else if (char === "{") {
      source += "(?:";
    } else if (char === "}") {
      source += ")";
    } else if (char === ",") {
      source += "|";
    } else {
      source += char.replace(/[.+?^$()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}

const SAMPLES: Record<string, string | null> = JSON.parse(
  fs.readFileSync(path.join(EXTENSION_ROOT, "test", "host-files.json"), "utf8"),
).paths;

test("the YAML files that hold shell, and no other YAML file, match the selector's patterns", () => {
  const patterns = HOST_FILE_PATTERNS.map(globRegExp);
  for (const [file, kind] of Object.entries(SAMPLES)) {
    if (kind === "dockerfile" || !/\.ya?ml$/.test(file)) {
      continue; // Dockerfiles come by VS Code's dockerfile language
    }
    const absolute = `/home/user/project/${file}`;
    const matched = patterns.some((pattern) => pattern.test(absolute));
    assert.equal(matched, kind !== null, `${file}: pipelint's registry says ${kind}`);
  }
});

test("the selector sends shell scripts and Dockerfiles by language, YAML only by name", () => {
  const selector = documentSelector();
  const languages = new Set(selector.map((filter) => filter.language).filter(Boolean));
  assert.deepEqual([...languages].sort(), ["dockerfile", "shellscript"]);
  assert.ok(!selector.some((filter) => filter.language === "yaml"));
  const patterns = selector.filter((filter) => filter.pattern !== undefined);
  assert.deepEqual(patterns.map((filter) => filter.pattern), [...HOST_FILE_PATTERNS]);
  assert.ok(patterns.every((filter) => filter.scheme === "file"));
});
