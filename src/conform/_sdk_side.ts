/**
 * The app's side of a conformance case, made from its data for a given Agent SDK module: the
 * query's options (permission answers as `canUseTool`, hook callbacks, in-process MCP servers),
 * its prompt (a string, or a stream that sends each prompt after the previous result), and the
 * interrupt. Internal.
 *
 * @internal
 * @module
 */

import { frameKind } from "../wire/_kind_of.ts";
import type {
  AppRequest,
  ConformCase,
  HookAnswer,
  McpToolData,
  PermissionAnswer,
} from "./conform_case.ts";

/** The parts of an Agent SDK module conformance uses. */
export interface SdkModule {
  /** `query()`. */
  query: (
    args: { prompt: unknown; options?: Record<string, unknown> },
  ) => AsyncIterable<unknown> & {
    interrupt(): Promise<void>;
    close?(): void;
  };
  /** `createSdkMcpServer()`. */
  createSdkMcpServer?: (options: Record<string, unknown>) => unknown;
  /** `tool()`. */
  tool?: (...args: unknown[]) => unknown;
  /** The hook events the SDK types. */
  HOOK_EVENTS?: readonly string[];
}

/** Zod, for MCP tool input shapes (only cases with MCP servers need it). */
export interface ZodLike {
  /** A string schema. */
  string(): unknown;
  /** A number schema. */
  number(): unknown;
  /** A boolean schema. */
  boolean(): unknown;
}

/** What a run of the app drives. */
export interface AppSide {
  /** The options (without spawn, cwd, env). */
  options: Record<string, unknown>;
  /** The prompt argument of `query()`. */
  prompt: () => unknown;
  /** Called with each message; returns once the app is done reacting (interrupts, next prompt). */
  onMessage: (
    message: Record<string, unknown>,
    query: { interrupt(): Promise<void> },
  ) => Promise<void>;
  /** Ends a prompt stream (after an error, or when the run stops early). */
  finish: () => void;
}

/** Builds the app's side of `c` for `sdk` (`zod` when the case has MCP servers). */
export function appSide(c: ConformCase, sdk: SdkModule, zod?: ZodLike): AppSide {
  const options: Record<string, unknown> = { ...c.options };
  if (c.canUseTool) options.canUseTool = canUseTool(c.canUseTool);
  if (c.hooks) options.hooks = hooks(c.hooks, sdk);
  if (c.mcpServers) {
    // the in-process servers beside those the options configure (stdio, …)
    const configured = (c.options.mcpServers ?? {}) as Record<string, unknown>;
    options.mcpServers = { ...configured, ...mcpServers(c.mcpServers, sdk, zod) };
  }
  const prompts = typeof c.prompt === "string" ? undefined : c.prompt;
  let results = 0;
  let seen = 0;
  let interrupted = false;
  const waiting: Array<() => void> = [];
  let finished = false;
  const wake = () => {
    for (const w of waiting.splice(0)) w();
  };
  async function* stream() {
    for (let i = 0; i < prompts!.length; i++) {
      if (finished) return;
      yield {
        type: "user",
        message: { role: "user", content: prompts![i] },
        parent_tool_use_id: null,
        session_id: "",
      };
      // the next prompt once this one's result came
      while (results <= i && !finished) await new Promise<void>((r) => waiting.push(r));
    }
  }
  return {
    options,
    prompt: () => (prompts ? stream() : c.prompt),
    async onMessage(message, query) {
      if (c.interrupt && !interrupted && frameKind(message) === c.interrupt.after) {
        seen++;
        if (seen >= (c.interrupt.count ?? 1)) {
          interrupted = true;
          await query.interrupt();
        }
      }
      if (message.type === "result") {
        // the app's own requests, after the first result, before the next prompt
        if (results === 0 && c.requests) await appRequests(c.requests, query);
        results++;
        wake();
      }
    },
    finish() {
      finished = true;
      wake();
    },
  };
}

/** Makes the case's requests through the query's methods; an error answer is the app's to see. */
async function appRequests(
  requests: readonly AppRequest[],
  query: { interrupt(): Promise<void> },
): Promise<void> {
  const methods = query as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const { method, args = [] } of requests) {
    if (typeof methods[method] !== "function") {
      throw new TypeError(`The Agent SDK's query has no method ${method} (in 'requests')`);
    }
    await methods[method](...args).catch(() => undefined);
  }
}

function canUseTool(rules: PermissionAnswer[]) {
  return (tool: string, input: Record<string, unknown>) => {
    const rule = rules.find((r) => r.tool === undefined || r.tool === "*" || r.tool === tool);
    if (!rule || rule.behavior === "deny") {
      return Promise.resolve({
        behavior: "deny",
        message: rule?.message ?? "Denied by the conformance case.",
        ...(rule?.interrupt ? { interrupt: true } : {}),
      });
    }
    const updated = { ...input, ...rule.updatedInput };
    if (rule.answers) updated.answers = rule.answers;
    return Promise.resolve({
      behavior: "allow",
      updatedInput: updated,
      ...(rule.updatedPermissions ? { updatedPermissions: rule.updatedPermissions } : {}),
    });
  };
}

function hooks(data: ConformCase["hooks"], sdk: SdkModule) {
  const byEvent: Record<string, HookAnswer[]> = data === "all"
    ? Object.fromEntries((sdk.HOOK_EVENTS ?? []).map((event) => [event, [{}]]))
    : data as Record<string, HookAnswer[]>;
  return Object.fromEntries(
    Object.entries(byEvent).map(([event, answers]) => [
      event,
      answers.map((answer) => ({
        ...(answer.matcher !== undefined ? { matcher: answer.matcher } : {}),
        hooks: [
          answer.throws !== undefined
            ? () => Promise.reject(new Error(answer.throws))
            : () => Promise.resolve(structuredClone(answer.output ?? {})),
        ],
      })),
    ]),
  );
}

function mcpServers(data: NonNullable<ConformCase["mcpServers"]>, sdk: SdkModule, zod?: ZodLike) {
  if (!sdk.createSdkMcpServer || !sdk.tool) {
    throw new TypeError(
      "Cannot make the case's MCP servers: this SDK has no createSdkMcpServer()/tool()",
    );
  }
  if (!zod) {
    throw new TypeError("Cannot make the case's MCP servers: zod is not installed beside the SDK");
  }
  return Object.fromEntries(
    Object.entries(data).map(([name, server]) => [
      name,
      sdk.createSdkMcpServer!({
        name,
        version: "1.0.0",
        tools: server.tools.map((t) => mcpTool(t, sdk, zod)),
      }),
    ]),
  );
}

function mcpTool(t: McpToolData, sdk: SdkModule, zod: ZodLike): unknown {
  const shape = Object.fromEntries(
    Object.entries(t.input ?? {}).map(([key, type]) => [
      key,
      type === "number" ? zod.number() : type === "boolean" ? zod.boolean() : zod.string(),
    ]),
  );
  return sdk.tool!(t.name, t.description ?? t.name, shape, () => {
    if (t.throws !== undefined) return Promise.reject(new Error(t.throws));
    return Promise.resolve(
      structuredClone(t.result ?? { content: [{ type: "text", text: "ok" }] }),
    );
  });
}
