/**
 * {@linkcode HookRecorder}: scripted, recording hook callbacks for the Agent SDK's
 * `query()` options (`hooks`).
 *
 * @module
 */

import { AssertionError } from "../session/assertion_error.ts";
import { assertCount, errorText, json, plural, settle, truncate } from "./_shared.ts";
import { show } from "../wire/_show.ts";
import { type RecorderEntry, recordingHook, type SpiedHooks, spyEntries } from "./_hook_spy.ts";
import {
  HOOK_EVENT_NAMES,
  type HookCallbackInput,
  type HookContextEvent,
  type HookEventName,
  type HookInvocation,
  type HookOutput,
  type HooksOption,
  type HookSpecificOutput,
  type SyncHookOutput,
} from "./hook_types.ts";

const CONTEXT_EVENTS: ReadonlySet<string> = new Set<HookContextEvent>([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "Notification",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "SessionStart",
  "Setup",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PostModelSwitch",
]);

/** Computes a hook's output from its input; called with the SDK's arguments. */
export type HookOutputResponder = (
  input: HookCallbackInput,
  toolUseID: string | undefined,
  context: { signal: AbortSignal },
) => HookOutput | Promise<HookOutput>;

/** Options for {@linkcode HookRecorder.on}. */
export interface HookOnOptions {
  /** The matcher string the CLI matches (tool names for tool events, e.g. `"Bash"`, `"Edit|Write"`). */
  matcher?: string;
  /** The answer, fixed or computed (default `{ continue: true }`). */
  output?: HookOutput | HookOutputResponder;
  /** Timeout in seconds (passed to the SDK). */
  timeout?: number;
}

/** Options for {@linkcode HookRecorder}. */
export interface HookRecorderOptions {
  /** Where `at` comes from (default: `Date.now`, looked up at call time). */
  clock?: { now(): number };
}

const WHERE = "HookRecorder";

/**
 * Scripted, recording hook callbacks. Register events with {@linkcode HookRecorder.on},
 * pass `recorder.hooks` to `query()`, then assert what was called. Each `on` adds one
 * matcher entry with one callback; the CLI decides which entries match.
 *
 * @example Block a tool with a PreToolUse hook
 * ```ts
 * import { HookRecorder } from "@x/claude-mock";
 *
 * const hooks = new HookRecorder()
 *   .on("PreToolUse", { matcher: "Bash", output: HookRecorder.deny("No shell in tests") })
 *   .on("Stop");
 * // query({ prompt, options: { spawnClaudeCodeProcess: mock.spawn, hooks: hooks.hooks } })
 * const [entry] = hooks.hooks.PreToolUse ?? [];
 * const output = await entry.hooks[0](
 *   { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } },
 *   "toolu_1",
 *   { signal: new AbortController().signal },
 * );
 * console.log(output); // { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", ... } }
 * hooks.assertToolUsed("Bash");
 * hooks.assertCalled("PreToolUse", 1);
 * hooks.assertNotCalled("Stop");
 * ```
 */
export class HookRecorder {
  #clock: { now(): number } | undefined;
  #entries: RecorderEntry[] = [];
  #records: HookInvocation[] = [];

  /**
   * Creates an empty recorder.
   *
   * @example With a fixed clock
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const hooks = new HookRecorder({ clock: { now: () => 1_000 } }).on("Stop");
   * await hooks.hooks.Stop?.[0].hooks[0]({ hook_event_name: "Stop" }, undefined, {
   *   signal: new AbortController().signal,
   * });
   * console.log(hooks.invocations()[0].at); // 1000
   * ```
   */
  constructor(options: HookRecorderOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError(`new ${WHERE}(options): options must be an object, got ${show(options)}`);
    }
    if (options.clock !== undefined && typeof options.clock?.now !== "function") {
      throw new TypeError(
        `new ${WHERE}(options): options.clock must have a now() method, got ${show(options.clock)}`,
      );
    }
    this.#clock = options.clock;
  }

  /**
   * Registers a recording callback for `event`, as a new matcher entry (calling `on`
   * again for the same event adds another entry). The callback answers
   * `options.output` (default `{ continue: true }`), or what a function of the input
   * returns.
   *
   * @example Add context after a tool and compute an answer
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const hooks = new HookRecorder()
   *   .on("PostToolUse", {
   *     matcher: "Read",
   *     output: HookRecorder.addContext("PostToolUse", "The file is generated; do not edit it."),
   *   })
   *   .on("UserPromptSubmit", {
   *     output: (input) =>
   *       String(input.prompt).includes("secret") ? HookRecorder.stop("No secrets") : {},
   *     timeout: 5,
   *   });
   * console.log(Object.keys(hooks.hooks)); // [ "PostToolUse", "UserPromptSubmit" ]
   * ```
   */
  on(event: HookEventName, options: HookOnOptions = {}): this {
    checkEvent(event, `${WHERE}.on(${show(event)})`);
    const where = `${WHERE}.on("${event}")`;
    if (typeof options !== "object" || options === null) {
      throw new TypeError(`${where}: options must be an object, got ${show(options)}`);
    }
    const { matcher, output, timeout } = options;
    if (matcher !== undefined && typeof matcher !== "string") {
      throw new TypeError(`${where}: options.matcher must be a string, got ${show(matcher)}`);
    }
    if (
      output !== undefined && typeof output !== "function" &&
      (typeof output !== "object" || output === null || Array.isArray(output))
    ) {
      throw new TypeError(
        `${where}: options.output must be a hook output object or a function, got ${show(output)}`,
      );
    }
    if (
      timeout !== undefined &&
      (typeof timeout !== "number" || !(timeout > 0) || timeout === Infinity)
    ) {
      throw new RangeError(
        `${where}: options.timeout must be a positive number of seconds, got ${show(timeout)}`,
      );
    }
    const callback = recordingHook(this.#target(event, matcher, where), async (input, id, call) => {
      if (typeof output !== "function") {
        return output === undefined ? { continue: true } : { ...output };
      }
      const answer = await settle(output(input, id, call), call?.signal);
      if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
        throw new TypeError(
          `${where}: the output function returned ${
            show(answer)
          }; expected a hook output object such as { continue: true }`,
        );
      }
      return answer;
    });
    this.#entries.push({ event, matcher, timeout, callbacks: [callback] });
    return this;
  }

  /**
   * A spy on the app's own `hooks` option: the same events, matcher entries and fields,
   * each callback wrapped so that the app's hook runs, its output (or error) reaches the
   * SDK unchanged, and the call is recorded. Pass `spy.hooks` to `query()`; `on()` adds
   * scripted hooks after the app's.
   *
   * @example Record what the app's own hooks answered
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const log: string[] = [];
   * const appHooks = {
   *   PreToolUse: [{
   *     matcher: "Bash",
   *     hooks: [async (input: { tool_input?: unknown }) => {
   *       log.push(JSON.stringify(input.tool_input));
   *       return { continue: true };
   *     }],
   *   }],
   * };
   * const hooks = HookRecorder.spy(appHooks);
   * // query({ prompt, options: { spawnClaudeCodeProcess: mock.spawn, hooks: hooks.hooks } })
   * const [entry] = hooks.hooks.PreToolUse ?? [];
   * console.log(entry.matcher); // Bash
   * await entry.hooks[0](
   *   { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } },
   *   "toolu_1",
   *   { signal: new AbortController().signal },
   * );
   * console.log(log, hooks.invocations()[0].output); // [ '{"command":"ls"}' ] { continue: true }
   * hooks.assertToolUsed("Bash");
   * ```
   */
  static spy(hooks: SpiedHooks, options: HookRecorderOptions = {}): HookRecorder {
    const recorder = new HookRecorder(options);
    const where = `${WHERE}.spy(hooks)`;
    recorder.#entries = spyEntries(hooks, where, (event, matcher, callback) =>
      recordingHook(
        recorder.#target(event, matcher, where),
        (input, id, call) => callback(input, id, call),
      ));
    return recorder;
  }

  #target(event: HookEventName, matcher: string | undefined, where: string) {
    return {
      event,
      matcher,
      where,
      now: () => this.#clock ? this.#clock.now() : Date.now(),
      push: (record: HookInvocation) => void this.#records.push(record),
    };
  }

  /**
   * The `hooks` option for `query()`: for each registered event, its matcher entries in
   * registration order. A fresh object on every read; the callbacks stay the same.
   *
   * @example Passing the hooks
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const hooks = new HookRecorder().on("PreToolUse", { matcher: "Bash", timeout: 10 });
   * const entry = hooks.hooks.PreToolUse?.[0];
   * console.log(entry?.matcher, entry?.timeout, entry?.hooks.length); // Bash 10 1
   * ```
   */
  get hooks(): HooksOption {
    const hooks: HooksOption = {};
    for (const { event, matcher, timeout, callbacks, rest } of this.#entries) {
      (hooks[event] ??= []).push({
        ...rest,
        ...(matcher !== undefined ? { matcher } : {}),
        hooks: [...callbacks],
        ...(timeout !== undefined ? { timeout } : {}),
      });
    }
    return hooks;
  }

  /**
   * Every hook call so far, in call order (a snapshot), optionally only those for
   * `event`.
   *
   * @example What the hooks saw
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const hooks = new HookRecorder().on("PreToolUse");
   * await hooks.hooks.PreToolUse?.[0].hooks[0](
   *   { hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: "/a" } },
   *   "toolu_1",
   *   { signal: new AbortController().signal },
   * );
   * const [call] = hooks.invocations("PreToolUse");
   * console.log(call.toolName, call.toolUseId, call.output); // Read toolu_1 { continue: true }
   * ```
   */
  invocations(event?: HookEventName): HookInvocation[] {
    if (event !== undefined) checkEvent(event, `${WHERE}.invocations(${show(event)})`);
    return this.#records
      .filter((record) => event === undefined || record.event === event)
      .map((record) => ({ ...record }));
  }

  /**
   * How many hook calls there were: all, for `event`, or for `event` with the matcher
   * `options.matcher` (compared with the registered matcher string).
   *
   * @example Counting calls
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const hooks = new HookRecorder().on("Stop");
   * console.log(hooks.called("Stop")); // 0
   * ```
   */
  called(event?: HookEventName, options: { matcher?: string } = {}): number {
    if (event === undefined) return this.#records.length;
    checkEvent(event, `${WHERE}.called(${show(event)})`);
    return this.#matching(event, options.matcher).length;
  }

  /**
   * Throws an `AssertionError` unless the hooks for `event` (with `options.matcher`, if
   * given) were called exactly `times` times, or at least once when `times` is omitted.
   * The message lists every call.
   *
   * @example Asserting a hook ran
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const hooks = new HookRecorder().on("UserPromptSubmit");
   * await hooks.hooks.UserPromptSubmit?.[0].hooks[0](
   *   { hook_event_name: "UserPromptSubmit", prompt: "hello" },
   *   undefined,
   *   { signal: new AbortController().signal },
   * );
   * hooks.assertCalled("UserPromptSubmit");
   * hooks.assertCalled("UserPromptSubmit", 1);
   * ```
   */
  assertCalled(event: HookEventName, times?: number, options: { matcher?: string } = {}): void {
    const where = `${WHERE}.assertCalled(${show(event)})`;
    checkEvent(event, where);
    assertCount({
      where,
      count: this.#matching(event, options.matcher).length,
      times,
      expected: `the ${describeTarget(event, options.matcher)} to be called`,
      verb: "called",
      calls: () => this.#describe(),
    });
  }

  /**
   * Throws an `AssertionError` if the hooks for `event` (with `options.matcher`, if
   * given) were called. The message lists every call.
   *
   * @example No Stop hook yet
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * new HookRecorder().on("Stop").assertNotCalled("Stop");
   * ```
   */
  assertNotCalled(event: HookEventName, options: { matcher?: string } = {}): void {
    const where = `${WHERE}.assertNotCalled(${show(event)})`;
    checkEvent(event, where);
    const count = this.#matching(event, options.matcher).length;
    if (count === 0) return;
    throw new AssertionError(
      `Expected the ${describeTarget(event, options.matcher)} not to be called, but it was called ${
        plural(count, "time")
      }.\n${this.#describe()}`,
    );
  }

  /**
   * Throws an `AssertionError` unless some PreToolUse, PostToolUse or PostToolUseFailure
   * call had `tool_name` equal to `tool` (or starting with it, for a `prefix*` pattern).
   *
   * @example The agent used Read
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const hooks = new HookRecorder().on("PostToolUse");
   * await hooks.hooks.PostToolUse?.[0].hooks[0](
   *   { hook_event_name: "PostToolUse", tool_name: "mcp__notes__list", tool_response: [] },
   *   "toolu_1",
   *   { signal: new AbortController().signal },
   * );
   * hooks.assertToolUsed("mcp__notes__*");
   * ```
   */
  assertToolUsed(tool: string): void {
    const where = `${WHERE}.assertToolUsed(${show(tool)})`;
    if (typeof tool !== "string" || tool === "") {
      throw new TypeError(`${where}: the tool name must be a non-empty string, got ${show(tool)}`);
    }
    const star = tool.indexOf("*");
    if (star !== -1 && star !== tool.length - 1) {
      throw new TypeError(
        `${where}: '*' may only end a tool pattern (as in "mcp__server__*"), got ${show(tool)}`,
      );
    }
    const found = this.#records.some((record) =>
      TOOL_EVENTS.has(record.event) && record.toolName !== undefined &&
      (tool.endsWith("*")
        ? record.toolName.startsWith(tool.slice(0, -1))
        : record.toolName === tool)
    );
    if (found) return;
    throw new AssertionError(
      `Expected a PreToolUse, PostToolUse or PostToolUseFailure hook call for tool '${tool}', but there was none.\n${this.#describe()}`,
    );
  }

  /**
   * Forgets every recorded call; registered hooks stay.
   *
   * @example Between phases
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const hooks = new HookRecorder().on("Stop");
   * hooks.clear();
   * console.log(hooks.invocations().length); // 0
   * ```
   */
  clear(): void {
    this.#records = [];
  }

  /**
   * A PreToolUse output that denies the tool with `reason` (the model sees
   * `PreToolUse:<Tool> hook error: <reason>`).
   *
   * @example Deny writes
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const hooks = new HookRecorder()
   *   .on("PreToolUse", { matcher: "Write|Edit", output: HookRecorder.deny("Read-only test") });
   * console.log(HookRecorder.deny("Read-only test").hookSpecificOutput);
   * // { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "Read-only test" }
   * ```
   */
  static deny(reason: string): SyncHookOutput {
    checkText(reason, `${WHERE}.deny(reason)`, "reason");
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: reason,
      },
    };
  }

  /**
   * A PreToolUse output that allows the tool without asking `canUseTool`, with an
   * optional `reason`.
   *
   * @example Allow reads without a prompt
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const hooks = new HookRecorder().on("PreToolUse", { matcher: "Read", output: HookRecorder.allow() });
   * console.log(HookRecorder.allow("safe").hookSpecificOutput);
   * // { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "safe" }
   * ```
   */
  static allow(reason?: string): SyncHookOutput {
    if (reason !== undefined) checkText(reason, `${WHERE}.allow(reason)`, "reason");
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        ...(reason !== undefined ? { permissionDecisionReason: reason } : {}),
      },
    };
  }

  /**
   * An output that stops the session: `{ continue: false, stopReason: reason }`.
   *
   * @example Stop on a prompt
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * console.log(HookRecorder.stop("Budget reached")); // { continue: false, stopReason: "Budget reached" }
   * ```
   */
  static stop(reason: string): SyncHookOutput {
    checkText(reason, `${WHERE}.stop(reason)`, "reason");
    return { continue: false, stopReason: reason };
  }

  /**
   * An output that adds `text` to what the model sees next:
   * `{ hookSpecificOutput: { hookEventName: event, additionalContext: text } }`.
   *
   * @example Context on every prompt
   * ```ts
   * import { HookRecorder } from "@x/claude-mock";
   * const output = HookRecorder.addContext("UserPromptSubmit", "Today is 2025-01-01.");
   * console.log(output.hookSpecificOutput);
   * // { hookEventName: "UserPromptSubmit", additionalContext: "Today is 2025-01-01." }
   * ```
   */
  static addContext(event: HookContextEvent, text: string): SyncHookOutput {
    const where = `${WHERE}.addContext(${show(event)})`;
    if (typeof event !== "string" || !CONTEXT_EVENTS.has(event)) {
      throw new RangeError(
        `${where}: the event's output cannot carry additionalContext; expected one of ${
          [...CONTEXT_EVENTS].join(", ")
        }`,
      );
    }
    checkText(text, where, "text");
    return {
      hookSpecificOutput: { hookEventName: event, additionalContext: text } as HookSpecificOutput,
    };
  }

  #matching(event: HookEventName, matcher: string | undefined): HookInvocation[] {
    return this.#records.filter((record) =>
      record.event === event && (matcher === undefined || record.matcher === matcher)
    );
  }

  #describe(): string {
    if (this.#records.length === 0) {
      const events = [...new Set(this.#entries.map((entry) => entry.event))];
      return `Invocations (0): no hook was called${
        events.length ? ` (registered: ${events.join(", ")})` : " (none registered)"
      }.`;
    }
    return [
      `Invocations (${this.#records.length}):`,
      ...this.#records.map((record, i) => `  ${i + 1}. ${describeInvocation(record)}`),
    ].join("\n");
  }
}

const TOOL_EVENTS: ReadonlySet<string> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
]);

const BASE_FIELDS: ReadonlySet<string> = new Set([
  "hook_event_name",
  "session_id",
  "transcript_path",
  "cwd",
  "prompt_id",
  "permission_mode",
  "effort",
  "agent_id",
  "agent_type",
  "tool_name",
  "tool_use_id",
]);

function describeTarget(event: HookEventName, matcher: string | undefined): string {
  return matcher === undefined ? `${event} hook` : `${event} hook with matcher ${show(matcher)}`;
}

function describeInvocation(record: HookInvocation): string {
  let head = record.event;
  if (record.matcher !== undefined) head += ` [matcher ${show(record.matcher)}]`;
  if (record.toolName !== undefined) head += ` ${record.toolName}`;
  if (record.toolUseId !== undefined) head += ` (${record.toolUseId})`;
  const fields = Object.fromEntries(
    Object.entries(record.input).filter(([key]) => !BASE_FIELDS.has(key)),
  );
  if (Object.keys(fields).length > 0) head += ` ${truncate(json(fields), 100)}`;
  if (record.error !== undefined) return `${head} → error: ${errorText(record.error)}`;
  if (record.output === undefined) return `${head} → pending`;
  return `${head} → ${truncate(json(record.output), 160)}`;
}

function checkEvent(event: unknown, where: string): asserts event is HookEventName {
  if (typeof event === "string" && (HOOK_EVENT_NAMES as readonly string[]).includes(event)) return;
  const near = typeof event === "string"
    ? HOOK_EVENT_NAMES.find((name) => name.toLowerCase() === event.toLowerCase())
    : undefined;
  throw new RangeError(
    `${where}: unknown hook event ${show(event)}${
      near ? ` (did you mean "${near}"?)` : ""
    }; expected one of ${HOOK_EVENT_NAMES.join(", ")}`,
  );
}

function checkText(value: unknown, where: string, what: string): asserts value is string {
  if (typeof value !== "string") {
    throw new TypeError(`${where}: ${what} must be a string, got ${show(value)}`);
  }
}
