/**
 * The interpreter of the Python environment selected in VS Code, through the
 * Python extension's API (`@vscode/python-extension`).  Without the Python
 * extension there is no selection and pipelint is looked up on PATH.
 */
import { PythonExtension } from "@vscode/python-extension";
import * as vscode from "vscode";

export async function pythonExtension(): Promise<PythonExtension | undefined> {
  if (vscode.extensions.getExtension("ms-python.python") === undefined) {
    return undefined;
  }
  try {
    return await PythonExtension.api();
  } catch {
    return undefined; // installed but failed to activate: behave as without it
  }
}

export async function selectedInterpreter(
  python: PythonExtension | undefined,
  resource: vscode.Uri | undefined,
): Promise<string | undefined> {
  if (python === undefined) {
    return undefined;
  }
  const environment = await python.environments.resolveEnvironment(
    python.environments.getActiveEnvironmentPath(resource),
  );
  return environment?.executable.uri?.fsPath;
}
