// nospin for VS Code: inline completions from the nospin daemon through `nospin lsp`
// (vscode-languageclient registers the inline completion provider the server announces), a
// status bar item with the last latency and tier, and commands for status and fast mode.
import * as os from "os";
import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

import { type DaemonSummary, type NospinStatus, statusBarView, statusReport } from "./status";
import {
  documentSelector,
  expandHome,
  initializationOptions,
  type NospinSettings,
  readSettings,
  serverArgs,
} from "./settings";

const STATUS_NOTIFICATION = "nospin/status";
const WARM_DEBOUNCE_MS = 200; // the cursor rests on a new line this long: warm the prompt there

let client: LanguageClient | undefined;
let statusItem: vscode.StatusBarItem;
let lastStatus: NospinStatus | undefined;
let fastMode = false;
let warmTimer: ReturnType<typeof setTimeout> | undefined;
let warmedAt = "";

// The cursor settled on another line: the daemon prefills the prompt there in the background
// (nospin.warm), so the first completion after typing starts is quicker. Best effort: errors
// and a stopped server are ignored.
function scheduleWarm(event: vscode.TextEditorSelectionChangeEvent): void {
  const document = event.textEditor.document;
  if (document.uri.scheme !== "file" || event.selections.length !== 1) {
    return;
  }
  const position = event.selections[0].active;
  const key = `${document.uri.toString()}#${position.line}`;
  if (key === warmedAt) {
    return;
  }
  if (warmTimer !== undefined) {
    clearTimeout(warmTimer);
  }
  warmTimer = setTimeout(() => {
    warmTimer = undefined;
    const current = client;
    if (current === undefined || !current.isRunning()) {
      return;
    }
    warmedAt = key;
    current
      .sendRequest(ExecuteCommandRequest.type, {
        command: "nospin.warm",
        arguments: [document.uri.toString(), { line: position.line, character: position.character }],
      })
      .then(undefined, () => undefined);
  }, WARM_DEBOUNCE_MS);
}

function settings(): NospinSettings {
  const config = vscode.workspace.getConfiguration("nospin");
  return readSettings(<T>(key: string, fallback: T): T => config.get<T>(key, fallback));
}

function render(): void {
  const view = statusBarView(lastStatus, fastMode);
  statusItem.text = view.text;
  statusItem.tooltip = view.tooltip;
  statusItem.backgroundColor = view.warning
    ? new vscode.ThemeColor("statusBarItem.warningBackground")
    : undefined;
}

async function startClient(): Promise<void> {
  const current = settings();
  if (!current.enable) {
    statusItem.hide();
    return;
  }
  const serverOptions: ServerOptions = {
    command: expandHome(current.command, os.homedir()),
    args: serverArgs(current),
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(current),
    initializationOptions: initializationOptions(current),
    outputChannelName: "nospin",
  };
  client = new LanguageClient("nospin", "nospin", serverOptions, clientOptions);
  client.onNotification(STATUS_NOTIFICATION, (params: NospinStatus) => {
    lastStatus = params;
    if (typeof params.fast_mode === "boolean") {
      fastMode = params.fast_mode;
    }
    render();
  });
  lastStatus = undefined;
  render();
  statusItem.show();
  await client.start();
}

async function stopClient(): Promise<void> {
  if (client !== undefined) {
    const old = client;
    client = undefined;
    await old.stop();
  }
}

async function serverCommand<T>(command: string, args: unknown[] = []): Promise<T | undefined> {
  if (client === undefined) {
    void vscode.window.showWarningMessage("nospin: the language server is not running");
    return undefined;
  }
  return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as T;
}

async function showStatus(): Promise<void> {
  const summary = await serverCommand<DaemonSummary>("nospin.status");
  if (summary !== undefined) {
    fastMode = summary.fast_mode;
    render();
    void vscode.window.showInformationMessage(statusReport(summary));
  }
}

async function setFastMode(): Promise<void> {
  const choice = await vscode.window.showQuickPick(["Toggle", "On", "Off"], {
    placeHolder: `Fast mode is ${fastMode ? "on" : "off"}`,
  });
  if (choice === undefined) {
    return;
  }
  const result =
    choice === "Toggle"
      ? await serverCommand<{ fast_mode: boolean }>("nospin.toggleFastMode")
      : await serverCommand<{ fast_mode: boolean }>("nospin.fastMode", [choice === "On"]);
  if (result !== undefined) {
    fastMode = result.fast_mode;
    render();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  statusItem.command = "nospin.showStatus";
  context.subscriptions.push(
    statusItem,
    vscode.commands.registerCommand("nospin.showStatus", showStatus),
    vscode.commands.registerCommand("nospin.setFastMode", setFastMode),
    vscode.commands.registerCommand("nospin.restartServer", async () => {
      await stopClient();
      await startClient();
    }),
    vscode.window.onDidChangeTextEditorSelection(scheduleWarm),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("nospin")) {
        await stopClient();
        await startClient();
      }
    }),
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
