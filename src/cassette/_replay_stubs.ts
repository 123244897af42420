/**
 * The app's side rebuilt from a tape: `canUseTool`, hooks and in-process MCP servers that
 * give the recorded answers, and the SDK options the CLI's arguments show, for a `stub`
 * replay.
 *
 * @module
 */

import { parseCliFlags } from "../session/cli_args.ts";
import type { Frame } from "../wire/frame.ts";
import type { Tape } from "./tape.ts";

/** A permission callback with the SDK's `canUseTool` shape. */
export type StubCanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: { signal: AbortSignal; toolUseID?: string },
) => Promise<Record<string, unknown>>;

/** A hook callback with the SDK's `HookCallback` shape. */
export type StubHook = (
  input: Record<string, unknown>,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<Record<string, unknown>>;

/** An in-process MCP server instance: what the SDK connects to its transport. */
export interface StubMcpInstance {
  /** Connects the server to the SDK's transport. */
  connect(transport: StubMcpTransport): Promise<void>;
  /** Closes it. */
  close(): Promise<void>;
}

/** The SDK's in-process MCP transport, as the stub server uses it. */
export interface StubMcpTransport {
  /** Set by the server: the SDK delivers each message here. */
  onmessage?: (message: Record<string, unknown>) => void;
  /** Sends a message to the SDK. */
  send(message: Record<string, unknown>): Promise<void>;
  /** Starts the transport, if it needs it. */
  start?(): Promise<void>;
}

/** The SDK options a `stub` replay passes to `query()`: spread them into the app's. */
export interface ReplayStubOptions {
  /** Answers each permission request as the tape did. */
  canUseTool?: StubCanUseTool;
  /** The tape's hook matchers, each callback answering as the tape did. */
  hooks?: Record<string, { matcher?: string; hooks: StubHook[]; timeout?: number }[]>;
  /**
   * The tape's MCP servers: its in-process ones, answering as the tape did, and those the
   * CLI ran (`--mcp-config`, or delivered in `initialize`), as configured.
   */
  mcpServers?: Record<
    string,
    { type: "sdk"; name: string; instance: StubMcpInstance } | Record<string, unknown>
  >;
  /** How the SDK hands the CLI its MCP servers: `initialize` when the tape's request had them. */
  mcpServersDelivery?: "argv" | "initialize";
  /** `--settings` of the recording (or the settings its `initialize` carried). */
  settings?: Record<string, unknown> | string;
  /** `initialize` when the recording's `initialize` carried the settings. */
  settingsDelivery?: "argv" | "initialize";
  /** `initialize` when the recording's `initialize` carried the disallowed tools. */
  disallowedToolsDelivery?: "argv" | "initialize";
  /** `--allowedTools` of the recording. */
  allowedTools?: string[];
  /** `--disallowedTools` of the recording. */
  disallowedTools?: string[];
  /** `--tools` of the recording. */
  tools?: string[];
  /** `--effort` of the recording. */
  effort?: string;
  /** `--max-budget-usd` of the recording. */
  maxBudgetUsd?: number;
  /** `--permission-prompts` of the recording. */
  permissionPrompts?: string;
  /** `--setting-sources` of the recording. */
  settingSources?: string[];
  /** `--allow-dangerously-skip-permissions` of the recording. */
  allowDangerouslySkipPermissions?: boolean;
  /** `--model` of the recording. */
  model?: string;
  /** `--permission-mode` of the recording. */
  permissionMode?: string;
  /** `--max-turns` of the recording. */
  maxTurns?: number;
  /** `--include-partial-messages` of the recording. */
  includePartialMessages?: boolean;
  /** `--json-schema` of the recording, as the SDK's option (the SDK sends it in `initialize`). */
  outputFormat?: { type: "json_schema"; schema: Record<string, unknown> };
}

interface Exchange {
  request: Record<string, unknown>;
  answer?: Record<string, unknown>;
}

/** The CLI's requests of `subtype` in the tape, each with the app's recorded answer. */
function exchanges(tape: Tape, subtype: string): Exchange[] {
  const answers = new Map<string, Record<string, unknown>>();
  for (const entry of tape.entries) {
    if (entry.dir !== "sdk->cli" || !("frame" in entry)) continue;
    const response = (entry.frame as { response?: Record<string, unknown> }).response;
    if (entry.frame.type === "control_response" && typeof response?.request_id === "string") {
      answers.set(response.request_id, response);
    }
  }
  const out: Exchange[] = [];
  for (const entry of tape.entries) {
    if (entry.dir !== "cli->sdk" || !("frame" in entry)) continue;
    const frame = entry.frame as Frame & { request_id?: string; request?: Record<string, unknown> };
    if (frame.type !== "control_request" || frame.request?.subtype !== subtype) continue;
    out.push({ request: frame.request, answer: answers.get(frame.request_id ?? "") });
  }
  return out;
}

/** The answer as the callback returned it, or a throw / an abort as the tape shows. */
async function replayAnswer(
  exchange: Exchange | undefined,
  signal: AbortSignal,
  strip: string[],
  what: string,
): Promise<Record<string, unknown>> {
  const answer = exchange?.answer;
  if (answer === undefined) {
    throw new Error(`Cannot replay ${what}: the tape has no answer for it`);
  }
  if (answer.subtype === "error") {
    const message = String(answer.error ?? "error");
    if (/abort/i.test(message)) {
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener("abort", () => resolve(), { once: true });
      });
    }
    throw new Error(message);
  }
  const body = { ...(answer.response as Record<string, unknown> | undefined ?? {}) };
  for (const key of strip) delete body[key];
  return body;
}

/** Stubs that answer as the tape did, and the options its arguments show. */
export function replayStubs(tape: Tape): ReplayStubOptions {
  const options: ReplayStubOptions = {};
  const init = initializeRequest(tape);
  const canUseTool = permissionStub(tape);
  if (canUseTool) options.canUseTool = canUseTool;
  const hooks = hookStubs(tape, init);
  if (hooks) options.hooks = hooks;
  const servers = sdkServerStubs(tape, init);
  if (servers) options.mcpServers = servers;
  const args = tape.header.args ?? [];
  const external = externalServers(args, init);
  if (external.servers) {
    options.mcpServers = { ...external.servers, ...options.mcpServers };
    options.mcpServersDelivery = external.delivery;
  }
  // the SDK passes --permission-prompt-tool stdio only with a canUseTool: one that answers as
  // the tape did (a tape with the flag and no request never calls it)
  if (!options.canUseTool && parseCliFlags(args).permissionPromptTool === "stdio") {
    options.canUseTool = (toolName, _input, { signal }) =>
      replayAnswer(undefined, signal, [], `the permission request for ${toolName}`);
  }
  Object.assign(options, argOptions(args));
  // what the SDK delivered in initialize instead of the command line
  if (init?.settings && typeof init.settings === "object") {
    options.settings = init.settings as Record<string, unknown>;
    options.settingsDelivery = "initialize";
  }
  if (Array.isArray(init?.disallowedTools)) {
    options.disallowedTools = init.disallowedTools as string[];
    options.disallowedToolsDelivery = "initialize";
  }
  return options;
}

/** A `canUseTool` that answers each permission request as the tape did, if it has any. */
function permissionStub(tape: Tape): ReplayStubOptions["canUseTool"] {
  const permissions = exchanges(tape, "can_use_tool");
  if (permissions.length === 0) return undefined;
  const used = new Set<Exchange>();
  return (toolName, input, { signal, toolUseID }) => {
    const exchange = permissions.find((e) =>
      !used.has(e) &&
      (toolUseID !== undefined
        ? e.request.tool_use_id === toolUseID
        : e.request.tool_name === toolName)
    ) ?? permissions.find((e) => !used.has(e) && e.request.tool_name === toolName);
    if (exchange) used.add(exchange);
    void input;
    return replayAnswer(
      exchange,
      signal,
      ["toolUseID"],
      `the permission request for ${toolName}`,
    );
  };
}

/** Hooks as `initialize` registered them, each answering its callbacks as the tape did. */
function hookStubs(
  tape: Tape,
  init: Record<string, unknown> | undefined,
): ReplayStubOptions["hooks"] {
  const hookConfig = init?.hooks as
    | Record<string, { matcher?: string; hookCallbackIds: string[]; timeout?: number }[]>
    | undefined;
  if (!hookConfig || Object.keys(hookConfig).length === 0) return undefined;
  const calls = exchanges(tape, "hook_callback");
  const used = new Set<Exchange>();
  const hook = (id: string): StubHook => (_input, _toolUseID, { signal }) => {
    const exchange = calls.find((e) => !used.has(e) && e.request.callback_id === id);
    if (exchange) used.add(exchange);
    return replayAnswer(exchange, signal, [], `hook ${id}`);
  };
  const hooks: NonNullable<ReplayStubOptions["hooks"]> = {};
  for (const [event, matchers] of Object.entries(hookConfig)) {
    hooks[event] = matchers.map((m) => ({
      ...(m.matcher !== undefined && m.matcher !== null ? { matcher: m.matcher } : {}),
      hooks: m.hookCallbackIds.map(hook),
      ...(m.timeout !== undefined ? { timeout: m.timeout } : {}),
    }));
  }
  return hooks;
}

/** The SDK's in-process MCP servers `initialize` named, each answering as the tape did. */
function sdkServerStubs(
  tape: Tape,
  init: Record<string, unknown> | undefined,
): ReplayStubOptions["mcpServers"] {
  const servers = init?.sdkMcpServers as string[] | undefined;
  if (!servers || servers.length === 0) return undefined;
  const manifests = (init?.sdkMcpServerManifests ?? {}) as Record<
    string,
    { initializeResult?: unknown; toolsListResult?: unknown }
  >;
  const calls = exchanges(tape, "mcp_message");
  const stubs: NonNullable<ReplayStubOptions["mcpServers"]> = {};
  for (const name of servers) {
    stubs[name] = { type: "sdk", name, instance: stubServer(name, manifests[name] ?? {}, calls) };
  }
  return stubs;
}

/** The MCP servers the CLI ran: `--mcp-config`'s, or those the SDK sent in `initialize`. */
function externalServers(
  args: readonly string[],
  init: Record<string, unknown> | undefined,
): { servers?: Record<string, Record<string, unknown>>; delivery?: "argv" | "initialize" } {
  const delivered = init?.mcpServers;
  if (delivered && typeof delivered === "object" && !Array.isArray(delivered)) {
    return {
      servers: delivered as Record<string, Record<string, unknown>>,
      delivery: "initialize",
    };
  }
  const servers: Record<string, Record<string, unknown>> = {};
  for (const config of parseCliFlags(args).mcpConfig ?? []) {
    try {
      Object.assign(servers, (JSON.parse(config) as { mcpServers?: object }).mcpServers ?? {});
    } catch {
      // a file path: the SDK never writes one
    }
  }
  return Object.keys(servers).length > 0 ? { servers, delivery: "argv" } : {};
}

function initializeRequest(tape: Tape): Record<string, unknown> | undefined {
  for (const entry of tape.entries) {
    if (entry.dir !== "sdk->cli" || !("frame" in entry)) continue;
    const request = (entry.frame as { request?: Record<string, unknown> }).request;
    if (entry.frame.type === "control_request" && request?.subtype === "initialize") {
      return request;
    }
  }
  return undefined;
}

/** An MCP server that answers the SDK's manifest capture and each call as the tape did. */
function stubServer(
  name: string,
  manifest: { initializeResult?: unknown; toolsListResult?: unknown },
  calls: Exchange[],
): StubMcpInstance {
  const used = new Set<Exchange>();
  let transport: StubMcpTransport | undefined;
  return {
    connect(t) {
      transport = t;
      t.onmessage = (message) => {
        if (!("id" in message)) return; // a notification
        const reply = (body: Record<string, unknown>) =>
          void transport?.send({ ...body, jsonrpc: "2.0", id: message.id });
        if (message.method === "initialize" && manifest.initializeResult !== undefined) {
          return reply({ result: manifest.initializeResult });
        }
        if (message.method === "tools/list" && manifest.toolsListResult !== undefined) {
          return reply({ result: manifest.toolsListResult });
        }
        const wanted = JSON.stringify([message.method, stripMeta(message.params)]);
        const exchange = calls.find((e) => {
          const m = e.request.message as Record<string, unknown> | undefined;
          return !used.has(e) && e.request.server_name === name &&
            JSON.stringify([m?.method, stripMeta(m?.params)]) === wanted;
        });
        if (exchange) used.add(exchange);
        const response = (exchange?.answer?.response as { mcp_response?: Record<string, unknown> })
          ?.mcp_response;
        if (response === undefined) {
          return reply({
            error: {
              code: -32603,
              message: `Cannot replay ${String(message.method)} on MCP server '${name}': ` +
                "the tape has no such call",
            },
          });
        }
        const { id: _id, jsonrpc: _j, ...body } = response;
        reply(body);
      };
      return t.start ? t.start() : Promise.resolve();
    },
    close() {
      transport = undefined;
      return Promise.resolve();
    },
  };
}

function stripMeta(params: unknown): unknown {
  if (typeof params !== "object" || params === null) return params;
  const { _meta: _m, ...rest } = params as Record<string, unknown>;
  return rest;
}

/** The SDK options the CLI's arguments show (read as the engine reads the SDK's flags). */
function argOptions(args: readonly string[]): Partial<ReplayStubOptions> {
  const flags = parseCliFlags(args);
  const value = (name: string): string | undefined => {
    for (let i = 0; i < args.length; i++) {
      if (args[i] === name) return args[i + 1];
      if (args[i].startsWith(`${name}=`)) return args[i].slice(name.length + 1);
    }
    return undefined;
  };
  let settings: Record<string, unknown> | string | undefined = flags.settings;
  if (settings?.trim().startsWith("{")) {
    try {
      settings = JSON.parse(settings) as Record<string, unknown>;
    } catch {
      // kept as given
    }
  }
  const sources = value("--setting-sources");
  return {
    ...(settings !== undefined ? { settings } : {}),
    ...(flags.allowedTools.length > 0 ? { allowedTools: flags.allowedTools } : {}),
    ...(flags.disallowedTools.length > 0 ? { disallowedTools: flags.disallowedTools } : {}),
    ...(flags.tools !== undefined ? { tools: flags.tools } : {}),
    ...(flags.effort !== undefined ? { effort: flags.effort } : {}),
    ...(flags.maxBudgetUsd !== undefined ? { maxBudgetUsd: flags.maxBudgetUsd } : {}),
    ...(flags.permissionPrompts !== undefined
      ? { permissionPrompts: flags.permissionPrompts }
      : {}),
    ...(sources !== undefined ? { settingSources: sources.split(",").filter((s) => s) } : {}),
    ...(args.includes("--allow-dangerously-skip-permissions")
      ? { allowDangerouslySkipPermissions: true }
      : {}),
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.permissionMode !== undefined ? { permissionMode: flags.permissionMode } : {}),
    ...(flags.maxTurns !== undefined ? { maxTurns: flags.maxTurns } : {}),
    ...(flags.includePartialMessages ? { includePartialMessages: true } : {}),
    ...(typeof flags.jsonSchema === "object" && flags.jsonSchema !== null
      ? {
        outputFormat: {
          type: "json_schema" as const,
          schema: flags.jsonSchema as Record<string, unknown>,
        },
      }
      : {}),
  };
}
