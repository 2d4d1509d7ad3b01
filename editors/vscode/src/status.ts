// What the status bar shows: pure functions of the server's `nospin/status` notification and
// of the `nospin.status` command's result (docs/editors.md). No `vscode` import: unit-tested
// under plain node.

/** Params of the `nospin/status` notification sent by `nospin lsp`. */
export interface NospinStatus {
  state: string; // "ready" (served), "error", "cancelled", "connected"
  latency_ms: number | null; // total time of the last completion
  first_token_ms: number | null;
  tier: number | null; // 0 cache/none, 1 normal, 2 capped, 3 fast
  tier_name: string; // "normal", "cap", "fast", "cache"
  tier_reason: string;
  cache: string; // "miss", "hit", "type_through"
  finish_reason: string;
  num_tokens: number;
  fast_mode: boolean | null;
  engine_state: string;
  message: string;
}

/** Result of the server command `nospin.status`. */
export interface DaemonSummary {
  version: string;
  pid: number;
  fast_mode: boolean;
  paused: boolean;
  engine_state: string;
  engine: string;
  num_requests: number;
  total_ms: { p50?: number; p95?: number } | null;
  first_token_ms: { p50?: number; p95?: number } | null;
  num_cancelled: number;
  num_documents: number;
  log_path: string;
  last_crash?: string; // how the daemon before this one died ("" or absent: it did not)
}

export interface StatusBarView {
  text: string; // codicons allowed: $(zap)
  tooltip: string;
  warning: boolean; // show with the warning background
}

const ms = (value: number | null | undefined): string =>
  typeof value === "number" ? `${Math.round(value)} ms` : "-";

/** The status bar item for the last notification (`undefined`: not connected yet). */
export function statusBarView(status: NospinStatus | undefined, fastMode: boolean): StatusBarView {
  if (status === undefined) {
    return { text: "$(loading~spin) nospin", tooltip: "nospin: starting", warning: false };
  }
  const fast = fastMode ? " $(zap)" : "";
  if (status.state === "error") {
    return {
      text: `$(error) nospin${fast}`,
      tooltip: `nospin: ${status.message || "error"}`,
      warning: true,
    };
  }
  if (status.state === "connected" || status.latency_ms === null) {
    const engine = status.engine_state ? ` (engine ${status.engine_state})` : "";
    return { text: `nospin${fast}`, tooltip: `nospin: connected${engine}`, warning: false };
  }
  const tier = status.tier_name ? ` · ${status.tier_name}` : "";
  const lines = [
    `nospin: last completion ${ms(status.latency_ms)} (first token ${ms(status.first_token_ms)})`,
    `tier ${status.tier ?? "-"} ${status.tier_name}: ${status.tier_reason}`,
    `cache ${status.cache}, ${status.num_tokens} tokens, ${status.finish_reason}`,
    `fast mode ${fastMode ? "on" : "off"}`,
  ];
  return { text: `nospin ${ms(status.latency_ms)}${tier}${fast}`, tooltip: lines.join("\n"), warning: false };
}

/** The report of the "nospin: Show Status" command. */
export function statusReport(summary: DaemonSummary): string {
  const pct = (v: { p50?: number; p95?: number } | null): string =>
    v ? `p50 ${ms(v.p50)}, p95 ${ms(v.p95)}` : "-";
  return [
    `nospin ${summary.version}, daemon pid ${summary.pid}, engine ${summary.engine} ${summary.engine_state}`,
    `fast mode ${summary.fast_mode ? "on" : "off"}${summary.paused ? ", paused" : ""}`,
    `${summary.num_requests} requests: total ${pct(summary.total_ms)}; first token ${pct(summary.first_token_ms)}`,
    ...(summary.last_crash ? [`the previous daemon crashed: ${summary.last_crash}`] : []),
  ].join(" · ");
}
