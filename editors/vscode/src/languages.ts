/**
 * The VS Code languages pipelint lints.  The manifest's activation events and
 * code-action contributions name the same list (test/manifest.test.ts checks
 * it); Dockerfiles and workflow YAML join here once `pipelint lsp` lints them.
 */
export const SHELL_LANGUAGES: readonly string[] = ["shellscript"];

/** A documentSelector entry for each language, on disk and in untitled buffers. */
export function documentSelector(): { scheme: string; language: string }[] {
  return SHELL_LANGUAGES.flatMap((language) => [
    { scheme: "file", language },
    { scheme: "untitled", language },
  ]);
}
