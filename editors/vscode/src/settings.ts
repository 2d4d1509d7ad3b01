// How the extension starts `nospin lsp`, from the user's settings. Pure (unit-tested).

export interface NospinSettings {
  enable: boolean;
  command: string; // the nospin executable
  daemonAddress: string; // "" = the user's local socket
  deadlineMs: number;
  maxTokens: number | null;
  languages: string[]; // [] = every file
}

export const DEFAULT_SETTINGS: NospinSettings = {
  enable: true,
  command: "nospin",
  daemonAddress: "",
  deadlineMs: 2500,
  maxTokens: null,
  languages: [],
};

/** Read settings through `get(key, default)` (a WorkspaceConfiguration in the extension). */
export function readSettings(get: <T>(key: string, fallback: T) => T): NospinSettings {
  const maxTokens = get<number | null>("maxTokens", DEFAULT_SETTINGS.maxTokens);
  return {
    enable: get("enable", DEFAULT_SETTINGS.enable),
    command: get("command", DEFAULT_SETTINGS.command).trim() || DEFAULT_SETTINGS.command,
    daemonAddress: get("daemonAddress", DEFAULT_SETTINGS.daemonAddress).trim(),
    deadlineMs: Math.max(1, Math.min(600000, get("deadlineMs", DEFAULT_SETTINGS.deadlineMs))),
    maxTokens: typeof maxTokens === "number" && maxTokens >= 1 ? Math.min(2048, maxTokens) : null,
    languages: get<string[]>("languages", DEFAULT_SETTINGS.languages).filter((l) => l !== ""),
  };
}

/** Expand a leading `~/` (settings often hold home-relative paths). */
export function expandHome(path: string, home: string): string {
  return path === "~" ? home : path.startsWith("~/") ? `${home}/${path.slice(2)}` : path;
}

/** Command line of the language server (vscode-languageclient adds `--stdio`). */
export function serverArgs(settings: NospinSettings): string[] {
  const args = ["lsp"];
  if (settings.daemonAddress) {
    args.push("--endpoint", settings.daemonAddress);
  }
  return args;
}

/**
 * initializationOptions of `nospin lsp`. Classic completion is off: VS Code shows inline
 * completions, and a second request per keystroke would supersede the first in the daemon.
 */
export function initializationOptions(settings: NospinSettings): Record<string, unknown> {
  const options: Record<string, unknown> = { deadlineMs: settings.deadlineMs, completion: "off" };
  if (settings.maxTokens !== null) {
    options.maxTokens = settings.maxTokens;
  }
  if (settings.daemonAddress) {
    options.endpoint = settings.daemonAddress;
  }
  return options;
}

/** The documents the client syncs and completes: files, all or of the chosen languages. */
export function documentSelector(settings: NospinSettings): { scheme: string; language?: string }[] {
  if (settings.languages.length === 0) {
    return [{ scheme: "file" }];
  }
  return settings.languages.map((language) => ({ scheme: "file", language }));
}
