// Unit tests of the pure parts, under node's own test runner (`npm test`).
import assert from "node:assert/strict";
import { test } from "node:test";

import { type NospinStatus, statusBarView, statusReport } from "../src/status";
import {
  DEFAULT_SETTINGS,
  documentSelector,
  expandHome,
  initializationOptions,
  readSettings,
  serverArgs,
} from "../src/settings";

const served: NospinStatus = {
  state: "ready",
  latency_ms: 321.6,
  first_token_ms: 120.2,
  tier: 1,
  tier_name: "normal",
  tier_reason: "predicted 640 ms at full settings, 0 ahead: normal",
  cache: "miss",
  finish_reason: "newline",
  num_tokens: 6,
  fast_mode: false,
  engine_state: "",
  message: "",
};

void test("status bar shows latency and tier of the last completion", () => {
  const view = statusBarView(served, false);
  assert.equal(view.text, "nospin 322 ms · normal");
  assert.match(view.tooltip, /first token 120 ms/);
  assert.match(view.tooltip, /tier 1 normal: predicted 640 ms/);
  assert.equal(view.warning, false);
});

void test("status bar marks fast mode, errors and the start", () => {
  assert.equal(statusBarView(served, true).text, "nospin 322 ms · normal $(zap)");
  const error = statusBarView({ ...served, state: "error", message: "no daemon" }, false);
  assert.equal(error.warning, true);
  assert.equal(error.tooltip, "nospin: no daemon");
  assert.match(statusBarView(undefined, false).text, /nospin/);
  const connected = statusBarView({ ...served, state: "connected", latency_ms: null, engine_state: "loading" }, false);
  assert.equal(connected.text, "nospin");
  assert.match(connected.tooltip, /engine loading/);
});

void test("status report summarises the daemon", () => {
  const text = statusReport({
    version: "0.1.0", pid: 42, fast_mode: true, paused: false, engine_state: "ready",
    engine: "llamacpp", num_requests: 7, total_ms: { p50: 300.4, p95: 1100 },
    first_token_ms: null, num_cancelled: 1, num_documents: 2, log_path: "",
  });
  assert.match(text, /daemon pid 42/);
  assert.match(text, /fast mode on/);
  assert.match(text, /p50 300 ms, p95 1100 ms/);
  assert.doesNotMatch(text, /crashed/);
  const crashed = statusReport({
    version: "0.1.0", pid: 43, fast_mode: false, paused: false, engine_state: "ready",
    engine: "llamacpp", num_requests: 0, total_ms: null, first_token_ms: null, num_cancelled: 0,
    num_documents: 0, log_path: "", last_crash: "Segmentation fault in ggml.c:12, 3 min ago",
  });
  assert.match(crashed, / · the previous daemon crashed: Segmentation fault in ggml.c:12, 3 min ago$/);
});

void test("settings are read with defaults and clamped", () => {
  const values: Record<string, unknown> = { deadlineMs: 10_000_000, maxTokens: 0, command: "  ", languages: ["python", ""] };
  const settings = readSettings(<T>(key: string, fallback: T): T =>
    (key in values ? values[key] : fallback) as T);
  assert.equal(settings.deadlineMs, 600000);
  assert.equal(settings.maxTokens, null);
  assert.equal(settings.command, "nospin");
  assert.deepEqual(settings.languages, ["python"]);
});

void test("server command line and initialization options follow the daemon address", () => {
  assert.deepEqual(serverArgs(DEFAULT_SETTINGS), ["lsp"]);
  const remote = { ...DEFAULT_SETTINGS, daemonAddress: "tcp://127.0.0.1:7777", maxTokens: 32 };
  assert.deepEqual(serverArgs(remote), ["lsp", "--endpoint", "tcp://127.0.0.1:7777"]);
  assert.deepEqual(initializationOptions(remote), {
    deadlineMs: 2500, completion: "off", maxTokens: 32, endpoint: "tcp://127.0.0.1:7777",
  });
  assert.deepEqual(documentSelector(DEFAULT_SETTINGS), [{ scheme: "file" }]);
  assert.deepEqual(documentSelector({ ...DEFAULT_SETTINGS, languages: ["go"] }), [{ scheme: "file", language: "go" }]);
  assert.equal(expandHome("~/bin/nospin", "/home/u"), "/home/u/bin/nospin");
  assert.equal(expandHome("/usr/bin/nospin", "/home/u"), "/usr/bin/nospin");
});
