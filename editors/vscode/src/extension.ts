/**
 * The VS Code side of pipelint: start `pipelint lsp` for shell scripts with
 * vscode-languageclient, restart it when its settings or the selected Python
 * environment change, and apply fix-all on save when `pipelint.fixAll` asks.
 * The decisions live in modules without `vscode` (settings, locate, fixAll,
 * languages) so that node's test runner checks them.
 */
import type { PythonExtension } from "@vscode/python-extension";
import * as vscode from "vscode";
import {
  CodeAction,
  CodeActionRequest,
  CodeActionResolveRequest,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import { FIX_ALL_KIND, fixesOnSave, pickFixAll } from "./fixAll";
import { documentSelector } from "./languages";
import { installGuide, locate, notFound, type NotFound, type Search } from "./locate";
import { pythonExtension, selectedInterpreter } from "./python";
import { needsRestart, readSettings, serverCommand } from "./settings";

let client: LanguageClient | undefined;
let log: vscode.LogOutputChannel;
let python: PythonExtension | undefined;
// Starts and stops run one after another: a settings change during a start
// must not leave two servers running.
let lifecycle: Promise<void> = Promise.resolve();
// The manifest's `homepage`: pyproject.toml's [project.urls] Documentation.
let extensionHomepage = "";

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  log = vscode.window.createOutputChannel("pipelint", { log: true });
  extensionHomepage = String(context.extension.packageJSON.homepage ?? "");
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand("pipelint.restart", restart),
    vscode.commands.registerCommand("pipelint.showLog", () => log.show()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart((section) => event.affectsConfiguration(section))) {
        void restart();
      }
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(restart),
    vscode.workspace.onWillSaveTextDocument(fixAllOnSave),
  );
  python = await pythonExtension();
  if (python !== undefined) {
    context.subscriptions.push(python.environments.onDidChangeActiveEnvironmentPath(restart));
  }
  await restart();
}

export function deactivate(): Promise<void> {
  lifecycle = lifecycle.then(stop, stop);
  return lifecycle;
}

function restart(): Promise<void> {
  lifecycle = lifecycle.then(start, start);
  return lifecycle;
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    await running.dispose().catch((error: unknown) => log.warn(`stopping the server: ${String(error)}`));
  }
}

async function start(): Promise<void> {
  await stop();
  const settings = readSettings(vscode.workspace.getConfiguration("pipelint"));
  if (!settings.enable) {
    log.info("pipelint.enable is off: the server is not started");
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const search: Search = {
    configured: settings.path,
    python: await selectedInterpreter(python, folder),
    folder: folder?.fsPath,
    env: process.env,
    platform: process.platform,
  };
  const located = locate(search);
  if (located.executable === undefined) {
    // The notification waits for the user; the lifecycle does not.
    void reportNotFound(notFound(search, installGuide(extensionHomepage)));
    return;
  }
  const { command, args } = serverCommand(located.executable, settings);
  log.info(`starting ${command} ${args.join(" ")} (found in ${located.source})`);
  const serverOptions: ServerOptions = { command, args, options: { cwd: folder?.fsPath } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    outputChannel: log,
    traceOutputChannel: log,
  };
  const starting = new LanguageClient("pipelint", "pipelint", serverOptions, clientOptions);
  try {
    await starting.start();
    client = starting;
  } catch (error) {
    log.error(`${command} ${args.join(" ")} did not start: ${String(error)}`);
    void vscode.window.showErrorMessage(`pipelint: the server did not start (${command}); see the pipelint output.`);
    await starting.dispose().catch(() => undefined);
  }
}

async function reportNotFound(problem: NotFound): Promise<void> {
  log.error(problem.message);
  const guide = "Open Install Guide";
  const settings = "Open Settings";
  const choices = problem.guide ? [guide, settings] : [settings];
  const chosen = await vscode.window.showErrorMessage(problem.message, ...choices);
  if (chosen === guide && problem.guide) {
    await vscode.env.openExternal(vscode.Uri.parse(problem.guide));
  } else if (chosen === settings) {
    await vscode.commands.executeCommand("workbench.action.openSettings", "pipelint.path");
  }
}

function fixAllOnSave(event: vscode.TextDocumentWillSaveEvent): void {
  const document = event.document;
  const running = client;
  if (running === undefined || !running.isRunning() || vscode.languages.match(documentSelector(), document) === 0) {
    return;
  }
  const settings = readSettings(vscode.workspace.getConfiguration("pipelint", document));
  if (fixesOnSave(event.reason === vscode.TextDocumentSaveReason.Manual, settings.fixAll)) {
    event.waitUntil(fixAllEdits(running, document));
  }
}

/** The server's `source.fixAll.pipelint` edits for the document, as VS Code text edits. */
async function fixAllEdits(running: LanguageClient, document: vscode.TextDocument): Promise<vscode.TextEdit[]> {
  try {
    const whole = document.validateRange(new vscode.Range(0, 0, document.lineCount, 0));
    const reply = await running.sendRequest(CodeActionRequest.type, {
      textDocument: running.code2ProtocolConverter.asTextDocumentIdentifier(document),
      range: running.code2ProtocolConverter.asRange(whole),
      context: { diagnostics: [], only: [FIX_ALL_KIND] },
    });
    let action: CodeAction | undefined = pickFixAll<CodeAction>(reply);
    if (action !== undefined && action.edit === undefined) {
      action = await running.sendRequest(CodeActionResolveRequest.type, action);
    }
    if (action?.edit === undefined) {
      return [];
    }
    const edit = await running.protocol2CodeConverter.asWorkspaceEdit(action.edit);
    return edit.get(document.uri);
  } catch (error) {
    log.error(`fix all on save: ${String(error)}`);
    return [];
  }
}
