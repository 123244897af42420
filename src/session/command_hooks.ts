/**
 * Command hooks: the `{"type": "command"}` hooks of the settings (`--settings`, the SDK's
 * `settings` option, the project's `.claude/settings.json` and `.claude/settings.local.json`),
 * run as the real CLI 2.1.332 runs them, and what their exit code and output mean. The engine
 * stays host-agnostic: a host that can start processes gives it a {@linkcode HookCommandRunner}
 * (the fake binary and `MockTransport` on Deno and Node do, unless told not to); without one,
 * command hooks are not run. What a hook decides then takes the same path as the answer of an
 * SDK hook callback (`hook_runner.ts`).
 *
 * @module
 */

import { isObject } from "../wire/frame.ts";

/** One command hook of the settings, with the event and matcher it is registered under. */
export interface CommandHook {
  /** The hook event (`PreToolUse`, `Stop`, ...). */
  event: string;
  /** The matcher (`Bash`, `Edit|Write`, `*`; absent: every tool). */
  matcher?: string;
  /** The shell command (run with `sh -c`). */
  command: string;
  /** How long it may run, in seconds (default {@linkcode DEFAULT_HOOK_TIMEOUT_S}). */
  timeout: number;
}

/** The default time a command hook may run, in seconds (the real CLI's ten minutes). */
export const DEFAULT_HOOK_TIMEOUT_S = 600;

/** One run of a command hook, as the engine asks a host for it. */
export interface HookCommand {
  /** The shell command. */
  command: string;
  /** What the command reads on stdin: the hook input as JSON. */
  stdin: string;
  /** Variables added to the host's environment (`CLAUDE_PROJECT_DIR`, ...). */
  env: Record<string, string>;
  /** How long it may run, in real milliseconds (the session aborts `signal` then). */
  timeoutMs: number;
  /**
   * Aborted when the hook's time is up (on the host's real clock, whatever fake timers run)
   * or the turn is interrupted: the runner kills the command and what it started, and resolves.
   */
  signal?: AbortSignal;
}

/** How a command hook's run ended. */
export interface HookCommandResult {
  /** The exit code (`null` when killed: a timeout or an abort). */
  code: number | null;
  /** What it wrote on stdout. */
  stdout: string;
  /** What it wrote on stderr. */
  stderr: string;
  /** Whether it was killed for running past its timeout (the session says so; default false). */
  timedOut?: boolean;
  /**
   * What it wrote, chunk by chunk, with when (milliseconds since it started), and `ms` how
   * long it ran: with both, a hook that runs a second or more gets the real CLI's
   * `system/hook_progress` frames (with `includeHookEvents`): each whole second it runs, its
   * output so far when that changed. The host's runner gives them; a runner of your own may,
   * to play a slow hook without waiting for one.
   */
  chunks?: readonly { ms: number; stream: "stdout" | "stderr"; text: string }[];
  /** How long it ran, in milliseconds (see `chunks`). */
  ms?: number;
}

/**
 * Runs command hooks for a session: the folder they run in and a way to run one. The fake
 * binary and `MockTransport` give the host's (Deno or Node) unless command hooks are off
 * (`commandHooks: false`, `CLAUDE_MOCK_COMMAND_HOOKS=0`); give your own to answer for the
 * commands without running them (or in a runtime that cannot start processes).
 *
 * @example A runner that blocks every `rm` without starting a process
 * ```ts
 * import { type HookCommandRunner, MockTransport, ScenarioBuilder } from "@x/claude-mock";
 * const runHookCommand: HookCommandRunner = {
 *   cwd: "/home/user/project",
 *   run: ({ stdin }) =>
 *     Promise.resolve(
 *       JSON.parse(stdin).tool_input?.command?.startsWith("rm ")
 *         ? { code: 2, stdout: "", stderr: "no rm" }
 *         : { code: 0, stdout: "", stderr: "" },
 *     ),
 * };
 * const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hi!").build(), {
 *   runHookCommand,
 * });
 * console.log(typeof mock.spawn); // function
 * ```
 */
export interface HookCommandRunner {
  /** The project folder: the hooks' working directory and `CLAUDE_PROJECT_DIR`. */
  readonly cwd: string;
  /** Runs one command hook (`sh -c`), resolving however it ends; never rejects for its code. */
  run(command: HookCommand): Promise<HookCommandResult>;
  /**
   * Reads a settings file of the project (a path relative to `cwd`) at once (synchronously: a
   * session's first turn then waits on no I/O, whatever clock runs it): its text, or
   * `undefined` when there is none. Without it, only `--settings` declares command hooks.
   */
  readText?(path: string): string | undefined;
  /**
   * Lists the files under a folder of the project (a path relative to `cwd`, or absolute), its
   * subfolders' too, as paths relative to it, at once (synchronously, as `readText`); `undefined`
   * when there is none. The session reads the custom slash commands of `.claude/commands/` (and
   * of `configDir`'s `commands/`) with it and `readText`; without it, there are none.
   */
  listFiles?(dir: string): string[] | undefined;
  /**
   * The config folder (`CLAUDE_CONFIG_DIR`) whose `commands/` hold the user's own slash
   * commands; none when absent (the user's real `~/.claude` is never read).
   */
  readonly configDir?: string;
}

/**
 * The command hooks that a settings object declares, in order (`hooks.<Event>[].hooks[]` of
 * type `command`). Other hook types and malformed entries are skipped, as the real CLI skips
 * what it cannot run.
 */
export function commandHooksOf(settings: unknown): CommandHook[] {
  if (!isObject(settings) || !isObject(settings.hooks)) return [];
  const found: CommandHook[] = [];
  for (const [event, matchers] of Object.entries(settings.hooks)) {
    if (!Array.isArray(matchers)) continue;
    for (const m of matchers) {
      if (!isObject(m) || !Array.isArray(m.hooks)) continue;
      for (const h of m.hooks) {
        if (!isObject(h) || h.type !== "command" || typeof h.command !== "string") continue;
        const timeout = typeof h.timeout === "number" && Number.isFinite(h.timeout) &&
            h.timeout > 0
          ? h.timeout
          : DEFAULT_HOOK_TIMEOUT_S;
        found.push({
          event,
          ...(typeof m.matcher === "string" ? { matcher: m.matcher } : {}),
          command: h.command,
          timeout,
        });
      }
    }
  }
  return found;
}

/** Whether a hook registered under `matcher` runs for `tool` (no tool: every hook runs). */
export function matcherCovers(matcher: unknown, tool: string | undefined): boolean {
  if (tool === undefined || typeof matcher !== "string" || matcher === "" || matcher === "*") {
    return true;
  }
  try {
    return new RegExp(`^(?:${matcher})$`).test(tool);
  } catch {
    return false;
  }
}

/**
 * What a command hook's run means, as the answer an SDK hook callback would give (the same
 * fields, so both take one path), as the real CLI 2.1.332 reads it:
 *
 * - exit 0: stdout that is a JSON object is the hook's output (`decision`, `continue`,
 *   `hookSpecificOutput`, ...); other stdout is context for UserPromptSubmit and SessionStart,
 *   what `/compact`'s output lists for PreCompact and PostCompact (`hookOutputText`), else
 *   nothing.
 * - exit 2: a blocking error, `[<command>]: <stderr>`: PreToolUse denies the tool use with it,
 *   Stop and SubagentStop keep the turn going with it, UserPromptSubmit and UserPromptExpansion
 *   block the prompt,
 *   PostToolUse gives it to the model as context.
 * - any other code, a timeout, a kill: a non-blocking error; the session goes on.
 */
export function commandHookOutput(
  hook: Pick<CommandHook, "event" | "command">,
  ran: HookCommandResult,
  options: { tool?: string } = {},
): Record<string, unknown> {
  if (ran.timedOut || ran.code === null) return {};
  if (ran.code === 0) {
    const text = ran.stdout.trim();
    const compaction = hook.event === "PreCompact" || hook.event === "PostCompact";
    if (text.startsWith("{")) {
      try {
        const parsed = JSON.parse(text);
        // `/compact`'s output lists the hook with its stdout (its reason, if it gives one)
        if (isObject(parsed)) return compaction ? { ...parsed, hookOutputText: text } : parsed;
      } catch {
        // not JSON: plain output
      }
    }
    if (text !== "" && (hook.event === "UserPromptSubmit" || hook.event === "SessionStart")) {
      return { hookSpecificOutput: { hookEventName: hook.event, additionalContext: text } };
    }
    // what `/compact`'s output lists after the hook (`PreCompact [<command>] completed
    // successfully: <stdout>`); internal, no SDK callback gives it
    if (text !== "" && compaction) return { hookOutputText: text };
    return {};
  }
  if (hook.event === "PreCompact" || hook.event === "PostCompact") {
    // `/compact`'s output says the hook failed; a PreCompact hook's exit 2 blocks the
    // compaction (its stderr the reason, the compaction names the command)
    const failed = { hookFailedText: ran.stderr.trim() };
    return ran.code === 2 && hook.event === "PreCompact"
      ? { ...failed, decision: "block", reason: ran.stderr.trim() }
      : failed;
  }
  if (ran.code !== 2) return {};
  const reason = `[${hook.command}]: ${ran.stderr || "No stderr output"}`;
  switch (hook.event) {
    case "PreToolUse":
    case "Stop":
    case "SubagentStop":
    case "UserPromptExpansion":
      return { decision: "block", reason };
    case "UserPromptSubmit":
      // the notice names the command; the prompt's outcome keeps the hook's own words
      return { decision: "block", reason, outcomeReason: ran.stderr.trim() };
    case "PostToolUse":
    case "PostToolUseFailure":
      return {
        hookSpecificOutput: {
          hookEventName: hook.event,
          additionalContext: `${hook.event}:${
            options.tool ?? ""
          } hook blocking error from command: ${JSON.stringify(hook.command)}: ${reason}`,
        },
      };
    default:
      return {};
  }
}

/**
 * Whether `CLAUDE_MOCK_COMMAND_HOOKS` of `env` lets command hooks run: unset or empty, `1` or
 * `true` (case-insensitive) let them; `0` or `false` turn them off.
 *
 * @throws {TypeError} For any other value, naming the variable and what it accepts.
 */
export function commandHooksAllowed(env: Record<string, string | undefined>): boolean {
  const value = env.CLAUDE_MOCK_COMMAND_HOOKS;
  if (value === undefined || value === "") return true;
  if (/^(1|true)$/i.test(value)) return true;
  if (/^(0|false)$/i.test(value)) return false;
  throw new TypeError(
    `claude-mock: CLAUDE_MOCK_COMMAND_HOOKS must be 1 or 0 (true or false), got ${
      JSON.stringify(value)
    }`,
  );
}
