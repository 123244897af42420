/**
 * {@linkcode PermissionRecorder}: a scripted, recording `canUseTool` callback for the
 * Agent SDK's `query()` options.
 *
 * @module
 */

import { AssertionError } from "../session/assertion_error.ts";
import { assertCount, errorText, json, plural, settle, truncate } from "./_shared.ts";
import { show } from "../wire/_show.ts";
import type {
  CanUseToolCallback,
  ToolPermissionContext,
  ToolPermissionResult,
} from "./permission_types.ts";
import { checkPattern, checkResponse, matches, normalize } from "./_permission_checks.ts";

/** What a {@linkcode PermissionResponder} gets besides the input: the context and the tool name. */
export interface PermissionResponderContext extends ToolPermissionContext {
  /** The tool being asked about (useful when the responder answers a `*` pattern). */
  toolName: string;
}

/**
 * Computes the answer for one request. An allow without `updatedInput` is answered with
 * the original input.
 */
export type PermissionResponder = (
  input: Record<string, unknown>,
  context: PermissionResponderContext,
) => ToolPermissionResult | Promise<ToolPermissionResult>;

/** A scripted answer for a tool: a fixed allow or deny, or a {@linkcode PermissionResponder}. */
export type PermissionResponse = ToolPermissionResult | PermissionResponder;

/** One `canUseTool` call the recorder saw. */
export interface PermissionRecord {
  /** The tool name the SDK asked about. */
  tool: string;
  /** The tool input as asked. */
  input: Record<string, unknown>;
  /** The SDK's options argument. */
  context: ToolPermissionContext;
  /** The answer; `undefined` while an async responder is pending or when it failed. */
  result: ToolPermissionResult | undefined;
  /** Why the call failed (the responder threw, or the signal aborted). */
  error?: unknown;
  /** When the call started, by the recorder's clock (ms since the epoch). */
  at: number;
}

/** Options for {@linkcode PermissionRecorder}. */
export interface PermissionRecorderOptions {
  /** The answer for tools without a scripted response (default `"allow"`). */
  default?: "allow" | "deny";
  /**
   * The deny message for tools without a scripted response when `default` is `"deny"`
   * (default: `Tool '<name>' is not allowed by the PermissionRecorder`).
   */
  denyMessage?: string | ((toolName: string) => string);
  /** Where `at` comes from (default: `Date.now`, looked up at call time). */
  clock?: { now(): number };
}

const WHERE = "PermissionRecorder";

/**
 * A scripted, recording `canUseTool` callback. Pass `recorder.canUseTool` to `query()`;
 * script answers per tool (`allow`, `deny`, `respond`); then assert what was asked.
 * Tool names match exactly, or by prefix with a trailing `*` (`mcp__github__*`, or `*`
 * for every tool). An exact name wins over a pattern, a longer pattern over a shorter
 * one; scripting the same name again replaces its answer.
 *
 * @example Deny one tool
 * ```ts
 * import { PermissionRecorder } from "@x/claude-mock";
 *
 * const permissions = new PermissionRecorder().deny("Bash", "No shell in tests");
 * // query({ prompt, options: { spawnClaudeCodeProcess: mock.spawn, canUseTool: permissions.canUseTool } })
 * const signal = new AbortController().signal;
 * const read = await permissions.canUseTool("Read", { file_path: "/a" }, { signal, toolUseID: "t1" });
 * const bash = await permissions.canUseTool("Bash", { command: "ls" }, { signal, toolUseID: "t2" });
 * console.log(read.behavior, bash.behavior); // allow deny
 * permissions.assertAsked("Bash", 1);
 * permissions.assertNotAsked("Write");
 * ```
 *
 * @example Compute the answer from the input
 * ```ts
 * import { PermissionRecorder } from "@x/claude-mock";
 *
 * const permissions = PermissionRecorder.denyAll().respond("Bash", (input) =>
 *   String(input.command).startsWith("git ")
 *     ? { behavior: "allow" }
 *     : { behavior: "deny", message: "Only git commands" });
 * const signal = new AbortController().signal;
 * const answer = await permissions.canUseTool("Bash", { command: "rm -rf /" }, {
 *   signal,
 *   toolUseID: "t1",
 * });
 * console.log(answer); // { behavior: "deny", message: "Only git commands", toolUseID: "t1" }
 * ```
 */
export class PermissionRecorder {
  #default: "allow" | "deny";
  #denyMessage: (toolName: string) => string;
  #clock: { now(): number } | undefined;
  #exact = new Map<string, PermissionResponse>();
  #prefixes = new Map<string, PermissionResponse>();
  #records: PermissionRecord[] = [];
  #app?: CanUseToolCallback;

  /**
   * Creates a recorder that answers unscripted tools with `options.default` (allow).
   *
   * @example A recorder that denies by default
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = new PermissionRecorder({ default: "deny", denyMessage: "Not in tests" })
   *   .allow("Read");
   * const signal = new AbortController().signal;
   * const answer = await permissions.canUseTool("Write", {}, { signal, toolUseID: "t1" });
   * console.log(answer); // { behavior: "deny", message: "Not in tests", toolUseID: "t1" }
   * ```
   */
  constructor(options: PermissionRecorderOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError(`new ${WHERE}(options): options must be an object, got ${show(options)}`);
    }
    const fallback = options.default ?? "allow";
    if (fallback !== "allow" && fallback !== "deny") {
      throw new TypeError(
        `new ${WHERE}(options): options.default must be "allow" or "deny", got ${show(fallback)}`,
      );
    }
    const message = options.denyMessage;
    if (message !== undefined && typeof message !== "string" && typeof message !== "function") {
      throw new TypeError(
        `new ${WHERE}(options): options.denyMessage must be a string or a function, got ${
          show(message)
        }`,
      );
    }
    if (options.clock !== undefined && typeof options.clock?.now !== "function") {
      throw new TypeError(
        `new ${WHERE}(options): options.clock must have a now() method, got ${show(options.clock)}`,
      );
    }
    this.#default = fallback;
    this.#denyMessage = typeof message === "function"
      ? message
      : typeof message === "string"
      ? () => message
      : (toolName) => `Tool '${toolName}' is not allowed by the PermissionRecorder`;
    this.#clock = options.clock;
  }

  /**
   * A spy on the app's own `canUseTool` (any function of the SDK's `CanUseTool` type):
   * every call goes to it, and its answer (or error) reaches the SDK unchanged and is
   * recorded. Tools scripted on the spy
   * (`deny`, `allow`, `respond`) are answered by the script instead.
   *
   * @example Record what the app's own callback decided
   * ```ts
   * import { PermissionRecorder, type ToolPermissionResult } from "@x/claude-mock";
   * const appCanUseTool = (tool: string, input: Record<string, unknown>): Promise<ToolPermissionResult> =>
   *   Promise.resolve(
   *     tool === "Bash" && String(input.command).startsWith("rm ")
   *       ? { behavior: "deny", message: "No rm." }
   *       : { behavior: "allow", updatedInput: input },
   *   );
   * const permissions = PermissionRecorder.spy(appCanUseTool);
   * // query({ prompt, options: { spawnClaudeCodeProcess: mock.spawn, canUseTool: permissions.canUseTool } })
   * const signal = new AbortController().signal;
   * const answer = await permissions.canUseTool("Bash", { command: "rm -rf /" }, { signal, toolUseID: "t1" });
   * console.log(answer); // { behavior: "deny", message: "No rm." } (as the app answered)
   * permissions.assertAsked("Bash", 1);
   * ```
   */
  static spy(
    canUseTool: (
      toolName: string,
      input: Record<string, unknown>,
      options: never,
    ) => Promise<unknown>,
    options: Pick<PermissionRecorderOptions, "clock"> = {},
  ): PermissionRecorder {
    if (typeof canUseTool !== "function") {
      throw new TypeError(
        `${WHERE}.spy(canUseTool): canUseTool must be the app's canUseTool function, got ${
          show(canUseTool)
        }`,
      );
    }
    const recorder = new PermissionRecorder(options);
    recorder.#app = canUseTool as CanUseToolCallback;
    return recorder;
  }

  /**
   * A recorder that allows every tool (unless scripted otherwise) and records each call.
   *
   * @example Allow everything, then check what was asked
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = PermissionRecorder.allowAll();
   * const signal = new AbortController().signal;
   * await permissions.canUseTool("Read", { file_path: "/a" }, { signal, toolUseID: "t1" });
   * console.log(permissions.asked("Read")); // 1
   * ```
   */
  static allowAll(options: Omit<PermissionRecorderOptions, "default"> = {}): PermissionRecorder {
    return new PermissionRecorder({ ...options, default: "allow" });
  }

  /**
   * A recorder that denies every tool (unless scripted otherwise) with `message`
   * (default: `Tool '<name>' is not allowed by the PermissionRecorder`).
   *
   * @example Deny everything
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = PermissionRecorder.denyAll("Read-only test");
   * const signal = new AbortController().signal;
   * const answer = await permissions.canUseTool("Write", {}, { signal, toolUseID: "t1" });
   * console.log(answer.behavior); // deny
   * ```
   */
  static denyAll(
    message?: string,
    options: Omit<PermissionRecorderOptions, "default" | "denyMessage"> = {},
  ): PermissionRecorder {
    if (message !== undefined && typeof message !== "string") {
      throw new TypeError(
        `${WHERE}.denyAll(message): message must be a string, got ${show(message)}`,
      );
    }
    return new PermissionRecorder({ ...options, default: "deny", denyMessage: message });
  }

  /**
   * A recorder that allows the listed tools (exact names or `prefix*` patterns) and denies
   * every other with `Tool '<name>' is not allowed by the PermissionRecorder`.
   *
   * @example Allow reads and one MCP server
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = PermissionRecorder.allowTools(["Read", "mcp__notes__*"]);
   * const signal = new AbortController().signal;
   * const mcp = await permissions.canUseTool("mcp__notes__list", {}, { signal, toolUseID: "t1" });
   * const bash = await permissions.canUseTool("Bash", {}, { signal, toolUseID: "t2" });
   * console.log(mcp.behavior, bash.behavior); // allow deny
   * ```
   */
  static allowTools(
    tools: readonly string[],
    options: Omit<PermissionRecorderOptions, "default"> = {},
  ): PermissionRecorder {
    if (!Array.isArray(tools)) {
      throw new TypeError(
        `${WHERE}.allowTools(tools): tools must be an array of tool names, got ${show(tools)}`,
      );
    }
    const recorder = new PermissionRecorder({ ...options, default: "deny" });
    tools.forEach((tool, i) => {
      checkPattern(tool, `${WHERE}.allowTools(tools): tools[${i}]`);
      recorder.allow(tool);
    });
    return recorder;
  }

  /**
   * Scripts the answer for `tool` (an exact name, or a `prefix*` pattern): a fixed allow
   * or deny, or a function of the input. Replaces an earlier answer for the same name.
   *
   * @example Rewrite a tool's input
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = new PermissionRecorder()
   *   .respond("Bash", (input) => ({
   *     behavior: "allow",
   *     updatedInput: { ...input, command: `timeout 10 ${input.command}` },
   *   }))
   *   .respond("mcp__github__*", { behavior: "deny", message: "No GitHub in tests" });
   * const signal = new AbortController().signal;
   * const answer = await permissions.canUseTool("Bash", { command: "ls" }, { signal, toolUseID: "t1" });
   * console.log(answer.behavior === "allow" && answer.updatedInput); // { command: "timeout 10 ls" }
   * ```
   */
  respond(tool: string, response: PermissionResponse): this {
    const where = `${WHERE}.respond(${show(tool)})`;
    checkPattern(tool, where);
    checkResponse(response, where);
    if (tool.endsWith("*")) this.#prefixes.set(tool.slice(0, -1), response);
    else this.#exact.set(tool, response);
    return this;
  }

  /**
   * Allows `tool` (an exact name or a `prefix*` pattern), optionally running it with
   * `options.updatedInput` instead of the model's input.
   *
   * @example Allow one tool, deny the rest
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = PermissionRecorder.denyAll()
   *   .allow("Read", { updatedInput: { file_path: "/sandbox/notes.txt" } });
   * const signal = new AbortController().signal;
   * const answer = await permissions.canUseTool("Read", { file_path: "/etc/passwd" }, {
   *   signal,
   *   toolUseID: "t1",
   * });
   * console.log(answer.behavior === "allow" && answer.updatedInput); // { file_path: "/sandbox/notes.txt" }
   * ```
   */
  allow(tool: string, options: { updatedInput?: Record<string, unknown> } = {}): this {
    const where = `${WHERE}.allow(${show(tool)})`;
    checkPattern(tool, where);
    if (typeof options !== "object" || options === null) {
      throw new TypeError(`${where}: options must be an object, got ${show(options)}`);
    }
    return this.respond(
      tool,
      options.updatedInput === undefined
        ? { behavior: "allow" }
        : { behavior: "allow", updatedInput: options.updatedInput },
    );
  }

  /**
   * Denies `tool` (an exact name or a `prefix*` pattern) with `message`; with
   * `options.interrupt` the turn stops too.
   *
   * @example Deny and interrupt
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = new PermissionRecorder()
   *   .deny("Write", "Read-only test")
   *   .deny("Bash", "Stop here", { interrupt: true });
   * const signal = new AbortController().signal;
   * const answer = await permissions.canUseTool("Bash", {}, { signal, toolUseID: "t1" });
   * console.log(answer); // { behavior: "deny", message: "Stop here", interrupt: true, toolUseID: "t1" }
   * ```
   */
  deny(tool: string, message: string, options: { interrupt?: boolean } = {}): this {
    const where = `${WHERE}.deny(${show(tool)})`;
    checkPattern(tool, where);
    if (typeof message !== "string") {
      throw new TypeError(`${where}: message must be a string, got ${show(message)}`);
    }
    if (typeof options !== "object" || options === null) {
      throw new TypeError(`${where}: options must be an object, got ${show(options)}`);
    }
    return this.respond(
      tool,
      options.interrupt === undefined
        ? { behavior: "deny", message }
        : { behavior: "deny", message, interrupt: options.interrupt },
    );
  }

  /**
   * The `canUseTool` callback for `query()` options (bound: pass it as is). Records the
   * call when it starts, answers with the scripted response (an allow carries the original
   * input as `updatedInput` unless the response changed it, and every answer carries the
   * request's `toolUseID`), and records the answer. Rejects with the signal's reason if
   * the signal aborts before a pending responder answers.
   *
   * @example Called as the SDK calls it
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const { canUseTool } = new PermissionRecorder(); // bound: safe to destructure
   * const answer = await canUseTool("Read", { file_path: "/a" }, {
   *   signal: new AbortController().signal,
   *   toolUseID: "toolu_1",
   * });
   * console.log(answer); // { behavior: "allow", updatedInput: { file_path: "/a" }, toolUseID: "toolu_1" }
   * ```
   */
  readonly canUseTool: CanUseToolCallback = async (toolName, input, options) => {
    if (typeof toolName !== "string") {
      throw new TypeError(
        `${WHERE}.canUseTool(toolName): toolName must be a string, got ${show(toolName)}`,
      );
    }
    if (typeof input !== "object" || input === null) {
      throw new TypeError(
        `${WHERE}.canUseTool(${show(toolName)}): input must be an object, got ${show(input)}`,
      );
    }
    if (typeof options !== "object" || options === null) {
      throw new TypeError(
        `${WHERE}.canUseTool(${
          show(toolName)
        }): options must be the SDK's options object ({ signal, toolUseID, ... }), got ${
          show(options)
        }`,
      );
    }
    const record: PermissionRecord = {
      tool: toolName,
      input,
      context: options,
      result: undefined,
      at: this.#clock ? this.#clock.now() : Date.now(),
    };
    this.#records.push(record);
    try {
      if (this.#app && this.#responseFor(toolName) === undefined) {
        const answer = await this.#app(toolName, input, options);
        record.result = answer;
        return answer;
      }
      const raw = await settle(this.#answer(toolName, input, options), options.signal);
      const result = normalize(raw, toolName, input, options.toolUseID);
      record.result = result;
      return result;
    } catch (error) {
      record.error = error;
      throw error;
    }
  };

  #answer(
    toolName: string,
    input: Record<string, unknown>,
    options: ToolPermissionContext,
  ): ToolPermissionResult | Promise<ToolPermissionResult> {
    const response = this.#responseFor(toolName);
    if (response === undefined) {
      return this.#default === "allow"
        ? { behavior: "allow" }
        : { behavior: "deny", message: this.#denyMessage(toolName) };
    }
    if (typeof response === "function") return response(input, { ...options, toolName });
    return response;
  }

  #responseFor(toolName: string): PermissionResponse | undefined {
    const exact = this.#exact.get(toolName);
    if (exact !== undefined) return exact;
    let best: string | undefined;
    for (const prefix of this.#prefixes.keys()) {
      if (toolName.startsWith(prefix) && (best === undefined || prefix.length > best.length)) {
        best = prefix;
      }
    }
    return best === undefined ? undefined : this.#prefixes.get(best);
  }

  /**
   * Every call so far, in call order (a snapshot: later answers do not change it).
   *
   * @example What the agent asked and what it got
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = new PermissionRecorder({ clock: { now: () => 0 } }).deny("Bash", "no");
   * const signal = new AbortController().signal;
   * await permissions.canUseTool("Bash", { command: "ls" }, { signal, toolUseID: "t1" });
   * const [first] = permissions.decisions();
   * console.log(first.tool, first.input, first.result?.behavior, first.at); // Bash { command: "ls" } deny 0
   * ```
   */
  decisions(): PermissionRecord[] {
    return this.#records.map((record) => ({ ...record }));
  }

  /**
   * How many calls asked about `tool` (an exact name or a `prefix*` pattern), or about
   * any tool when `tool` is omitted.
   *
   * @example Counting calls
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = new PermissionRecorder();
   * const signal = new AbortController().signal;
   * await permissions.canUseTool("mcp__notes__add", {}, { signal, toolUseID: "t1" });
   * await permissions.canUseTool("Read", {}, { signal, toolUseID: "t2" });
   * console.log(permissions.asked(), permissions.asked("mcp__notes__*")); // 2 1
   * ```
   */
  asked(tool?: string): number {
    if (tool === undefined) return this.#records.length;
    checkPattern(tool, `${WHERE}.asked(${show(tool)})`);
    return this.#records.filter((record) => matches(tool, record.tool)).length;
  }

  /**
   * Throws an `AssertionError` unless `tool` (an exact name or a `prefix*` pattern) was
   * asked about exactly `times` times, or at least once when `times` is omitted. The
   * message lists every call.
   *
   * @example Asserting on calls
   * ```ts
   * import { AssertionError, PermissionRecorder } from "@x/claude-mock";
   * const permissions = new PermissionRecorder();
   * const signal = new AbortController().signal;
   * await permissions.canUseTool("Read", { file_path: "/a" }, { signal, toolUseID: "t1" });
   * permissions.assertAsked("Read");
   * permissions.assertAsked("Read", 1);
   * try {
   *   permissions.assertAsked("Bash");
   * } catch (error) {
   *   console.log(error instanceof AssertionError); // true
   * }
   * ```
   */
  assertAsked(tool: string, times?: number): void {
    const where = `${WHERE}.assertAsked(${show(tool)})`;
    checkPattern(tool, where);
    assertCount({
      where,
      count: this.asked(tool),
      times,
      expected: `canUseTool to be asked about '${tool}'`,
      verb: "asked",
      calls: () => this.#describe(),
    });
  }

  /**
   * Throws an `AssertionError` if `tool` (an exact name or a `prefix*` pattern) was asked
   * about. The message lists every call.
   *
   * @example Nothing asked about writes
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = new PermissionRecorder();
   * permissions.assertNotAsked("Write");
   * ```
   */
  assertNotAsked(tool: string): void {
    const where = `${WHERE}.assertNotAsked(${show(tool)})`;
    checkPattern(tool, where);
    const count = this.asked(tool);
    if (count === 0) return;
    throw new AssertionError(
      `Expected canUseTool not to be asked about '${tool}', but it was asked ${
        plural(count, "time")
      }.\n${this.#describe()}`,
    );
  }

  /**
   * Forgets every recorded call; scripted answers stay.
   *
   * @example Reusing a recorder between phases
   * ```ts
   * import { PermissionRecorder } from "@x/claude-mock";
   * const permissions = new PermissionRecorder();
   * const signal = new AbortController().signal;
   * await permissions.canUseTool("Read", {}, { signal, toolUseID: "t1" });
   * permissions.clear();
   * console.log(permissions.asked()); // 0
   * ```
   */
  clear(): void {
    this.#records = [];
  }

  #describe(): string {
    if (this.#records.length === 0) return "Decisions (0): canUseTool was never called.";
    return [
      `Decisions (${this.#records.length}):`,
      ...this.#records.map((record, i) => `  ${i + 1}. ${describeRecord(record)}`),
    ].join("\n");
  }
}

function describeRecord(record: PermissionRecord): string {
  const head = `${record.tool} ${truncate(json(record.input), 120)}`;
  if (record.error !== undefined) return `${head} → error: ${errorText(record.error)}`;
  const result = record.result;
  if (result === undefined) return `${head} → pending`;
  if (result.behavior === "deny") {
    return `${head} → deny${result.interrupt ? " (interrupt)" : ""}: ${result.message}`;
  }
  return result.updatedInput !== undefined && result.updatedInput !== record.input
    ? `${head} → allow with ${truncate(json(result.updatedInput), 120)}`
    : `${head} → allow`;
}
