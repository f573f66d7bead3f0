/**
 * The documents pipelint lints in VS Code: shell scripts and Dockerfiles by
 * language, and the YAML files that hold shell by name only, so that no other
 * YAML file is sent to the server.  The names are those of pipelint's
 * `embedded/hosts` registry (README, "Which files"); `test/host-files.json`
 * lists sample paths that both this module and the Python registry are
 * tested against, so the two cannot drift apart.  The manifest's activation
 * events and code-action contributions name ACTIVATION_LANGUAGES
 * (test/manifest.test.ts checks it).
 */

/** Languages whose every document pipelint reads. */
export const LINTED_LANGUAGES: readonly string[] = ["shellscript", "dockerfile"];

/**
 * YAML files that hold shell, by glob (VS Code's glob syntax: `**`, `*`,
 * `{a,b}`): GitHub Actions workflows (not in subfolders: GitHub reads none)
 * and actions, GitLab CI files, Docker Compose files and their variants.
 */
export const HOST_FILE_PATTERNS: readonly string[] = [
  "**/.github/workflows/*.{yml,yaml}",
  "**/action.{yml,yaml}",
  "**/{.gitlab-ci.yml,*.gitlab-ci.yml}",
  "**/{compose,docker-compose}.{yml,yaml}",
  "**/{compose,docker-compose}.*.{yml,yaml}",
];

/**
 * The languages that wake the extension: the linted ones, and those VS Code
 * (or the GitHub Actions and Docker extensions) give the files above.
 */
export const ACTIVATION_LANGUAGES: readonly string[] = [
  ...LINTED_LANGUAGES,
  "yaml",
  "github-actions-workflow",
  "dockercompose",
];

export interface DocumentFilter {
  scheme: string;
  language?: string;
  pattern?: string;
}

/** The client's documentSelector: each linted language on disk and unsaved, each host file pattern on disk. */
export function documentSelector(): DocumentFilter[] {
  return [
    ...LINTED_LANGUAGES.flatMap((language) => [
      { scheme: "file", language },
      { scheme: "untitled", language },
    ]),
    ...HOST_FILE_PATTERNS.map((pattern) => ({ scheme: "file", pattern })),
  ];
}
