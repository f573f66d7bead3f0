/** The extension's package.json and the .vsix `npm run package` made from it, for the tests. */
import * as fs from "node:fs";
import * as path from "node:path";
import yauzl from "yauzl";

// Tests run compiled, from out/test/.
export const EXTENSION_ROOT = path.resolve(__dirname, "..", "..");

export interface Manifest {
  name: string;
  version: string;
  license: string;
  homepage: string;
  repository: { type: string; url: string };
  bugs: { url: string };
  main: string;
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: {
    configuration: { properties: Record<string, { type: string; default: unknown }> };
    codeActions: { languages: string[]; actions: { kind: string; title: string }[] }[];
    commands: { command: string }[];
  };
}

export function sourceManifest(): Manifest {
  return JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, "package.json"), "utf8")) as Manifest;
}

/** Every file of a zip archive, by name. */
export function readZip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) {
        return reject(error);
      }
      const files = new Map<string, Buffer>();
      zip.on("error", reject);
      zip.on("end", () => resolve(files));
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) {
            return reject(streamError);
          }
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
