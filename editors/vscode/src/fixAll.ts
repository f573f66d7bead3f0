/**
 * Fix-all on save: which saves trigger it and which of the server's code
 * actions it applies.  The server offers `source.fixAll.pipelint`, the same
 * fixes as `pipelint check --fix`; VS Code's own `editor.codeActionsOnSave`
 * can ask for it too, and the `pipelint.fixAll` setting is the one-switch way.
 */
export const FIX_ALL_KIND = "source.fixAll.pipelint";

export interface ActionLike {
  kind?: string;
  title: string;
}

/**
 * Only a save the user asked for (Ctrl+S, "Save"): an auto-save after a delay
 * must not rewrite the line being typed — VS Code's "explicit" setting for
 * `editor.codeActionsOnSave` draws the same line.
 */
export function fixesOnSave(manualSave: boolean, fixAllSetting: boolean): boolean {
  return manualSave && fixAllSetting;
}

/** The server's fix-all action among a codeAction reply (commands and other kinds ignored). */
export function pickFixAll<T extends ActionLike>(actions: readonly (T | { command: string; title: string })[] | null | undefined): T | undefined {
  return (actions ?? []).find((action): action is T => "kind" in action && action.kind === FIX_ALL_KIND);
}
