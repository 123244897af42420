/**
 * Running a command hook of the settings in a session: loading the settings' hooks once, the
 * environment a hook runs with, and its run through the session's `HookCommandRunner`,
 * whose result reads as an SDK hook callback's answer (`commandHookOutput`).
 *
 * @module
 */

import { systemInformational } from "../builders/system.ts";
import { isObject } from "../wire/frame.ts";
import { hookInput } from "../builders/control.ts";
import { realTimeout } from "../timing/real_time.ts";
import {
  type CommandHook,
  commandHookOutput,
  commandHooksOf,
  type HookCommandResult,
  type HookCommandRunner,
  matcherCovers,
} from "./command_hooks.ts";
import type { Engine } from "./engine.ts";
import type { TurnState } from "./turn_state.ts";

/**
 * The events whose command hooks write no `hook_started` / `hook_response` frames even with
 * `--include-hook-events` (the real CLI 2.1.328 and 2.1.332: `/compact`'s hooks, SessionEnd).
 */
const UNFRAMED: ReadonlySet<string> = new Set([
  "PreCompact",
  "PostCompact",
  "SessionEnd",
  "StopFailure",
]);

/** What a hook's run belongs to: a turn, or the session's start-up. */
type HookRun = Pick<TurnState, "abort" | "promptId">;

/**
 * The settings sources the real CLI reads hooks from, by `--setting-sources` name: the
 * project's shared and local files (relative to the project folder). The user's own settings
 * (`~/.claude/settings.json`) are never read: a test must not depend on the machine.
 */
const PROJECT_FILES: ReadonlyArray<[source: string, path: string]> = [
  ["project", ".claude/settings.json"],
  ["local", ".claude/settings.local.json"],
];

/**
 * Reads the command hooks of the session's settings (the project's files the setting sources
 * name, then `--settings`), once, into `engine.commandHooks`. A settings file that is not JSON
 * is skipped with a warning on stderr.
 */
export function loadCommandHooks(engine: Engine): void {
  const runner = engine.runHookCommand;
  if (!runner) return;
  const hooks: CommandHook[] = [];
  const sources = engine.flags.settingSources?.split(",").map((s) => s.trim());
  if (runner.readText) {
    for (const [source, path] of PROJECT_FILES) {
      if (sources !== undefined && !sources.includes(source)) continue;
      let text: string | undefined;
      try {
        text = runner.readText(path);
      } catch {
        text = undefined;
      }
      if (text === undefined) continue;
      try {
        hooks.push(...commandHooksOf(JSON.parse(text)));
      } catch (error) {
        engine.warn(
          `claude-mock: warning: ${path} is not JSON, its hooks are not run (${
            (error as Error).message
          })`,
        );
      }
    }
  }
  const flag = engine.flags.settings?.trim();
  if (flag?.startsWith("{")) {
    try {
      hooks.push(...commandHooksOf(JSON.parse(flag)));
    } catch {
      // a bad --settings fails the start elsewhere
    }
  }
  engine.commandHooks.push(...hooks);
}

/** Reads the settings' command hooks the first time a session that runs them needs them. */
export function commandHooksReady(engine: Engine): void {
  if (!engine.runHookCommand || engine.commandHooksRead) return;
  engine.commandHooksRead = true;
  loadCommandHooks(engine);
}

/**
 * Runs one command hook with `input` on its stdin: how it ended (no runner: `undefined`). As
 * the real CLI 2.1.332, a SessionStart hook's run (always) and any other's but PreCompact's and
 * PostCompact's (with `--include-hook-events`, the SDK's `includeHookEvents`) sit between a `system/hook_started`
 * and a `system/hook_response` frame named `<Event>[:<query>]` (`PreToolUse:Bash`,
 * `SessionStart:startup`, `SubagentStart:<agent type>`); SDK callbacks get none.
 */
async function execCommandHook(
  engine: Engine,
  hook: CommandHook,
  input: Record<string, unknown>,
  turn: HookRun,
): Promise<HookCommandResult | undefined> {
  const runner = engine.runHookCommand;
  if (!runner) return undefined;
  const framed = hook.event === "SessionStart" ||
    (engine.flags.includeHookEvents === true && !UNFRAMED.has(hook.event));
  const query = typeof input.tool_name === "string"
    ? input.tool_name
    : typeof input.source === "string"
    ? input.source
    // SubagentStart names the agent type, SubagentStop nothing (2.1.332)
    : hook.event === "SubagentStart" && typeof input.agent_type === "string"
    ? input.agent_type
    : undefined;
  const ctx = engine.ctx;
  const named = {
    hook_id: framed ? ctx.ids.uuid() : "",
    hook_name: query !== undefined ? `${hook.event}:${query}` : hook.event,
    hook_event: hook.event,
  };
  if (framed) {
    await engine.send({
      frame: {
        type: "system",
        subtype: "hook_started",
        ...named,
        uuid: ctx.ids.uuid(),
        session_id: ctx.sessionId,
      },
      delay: 0,
    });
  }
  const ran = await spawnCommandHook(engine, runner, hook, input, turn);
  if (framed && !turn.abort.aborted) {
    for (const progress of hookProgress(ran)) {
      await engine.send({
        frame: {
          type: "system",
          subtype: "hook_progress",
          ...named,
          ...progress,
          uuid: ctx.ids.uuid(),
          session_id: ctx.sessionId,
        },
        delay: 0,
      });
    }
    await engine.send({
      frame: {
        type: "system",
        subtype: "hook_response",
        ...named,
        // in the order written, when the runner timed it (as the real CLI interleaves them)
        output: ran.chunks ? ran.chunks.map((c) => c.text).join("") : ran.stdout + ran.stderr,
        stdout: ran.stdout,
        stderr: ran.stderr,
        exit_code: ran.code,
        outcome: ran.code === 0 ? "success" : "error",
        uuid: ctx.ids.uuid(),
        session_id: ctx.sessionId,
      },
      delay: 0,
    });
  }
  return ran;
}

/** How often the real CLI 2.1.332 looks at a running hook's output (`hook_progress`). */
const PROGRESS_EVERY_MS = 1000;

/**
 * The `hook_progress` frames' output fields of a run, as the real CLI 2.1.332 writes them for
 * a hook that runs a second or more: at each whole second it still runs, its output so far
 * (`stdout`, `stderr`, and `output` both in the order written) when that changed since the
 * last one and is not empty (a hook that writes nothing gets none). From the run's timed
 * chunks (none without them).
 */
export function hookProgress(
  ran: Pick<HookCommandResult, "chunks" | "ms">,
): { stdout: string; stderr: string; output: string }[] {
  const { chunks, ms } = ran;
  if (!chunks || ms === undefined) return [];
  const frames: { stdout: string; stderr: string; output: string }[] = [];
  let last = "";
  for (let tick = PROGRESS_EVERY_MS; tick < ms; tick += PROGRESS_EVERY_MS) {
    const so = { stdout: "", stderr: "", output: "" };
    for (const chunk of chunks) {
      if (chunk.ms > tick) continue;
      so[chunk.stream] += chunk.text;
      so.output += chunk.text;
    }
    if (so.output !== "" && so.output !== last) frames.push(so);
    last = so.output;
  }
  return frames;
}

/** The run itself: the environment, the real-time deadline, the turn's abort. */
async function spawnCommandHook(
  engine: Engine,
  runner: HookCommandRunner,
  hook: CommandHook,
  input: Record<string, unknown>,
  turn: HookRun,
): Promise<HookCommandResult> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(engine.env)) {
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, {
    CLAUDECODE: "1",
    CLAUDE_CODE_ENTRYPOINT: engine.env.CLAUDE_CODE_ENTRYPOINT ?? "sdk-cli",
    CLAUDE_CODE_SESSION_ID: engine.ctx.sessionId,
    CLAUDE_PROJECT_DIR: runner.cwd,
    CLAUDE_EFFORT: engine.flags.effort ?? "medium",
  });
  // the hook's time is real time (a process runs on the host's clock, not a fake one)
  const timeoutMs = Math.ceil(hook.timeout * 1000);
  const stop = new AbortController();
  let timedOut = false;
  const cancel = realTimeout(() => {
    timedOut = true;
    stop.abort();
  }, timeoutMs);
  const onAbort = () => stop.abort();
  const signal = turn.abort.signal;
  if (signal.aborted) stop.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const ran = await runner.run({
      command: hook.command,
      stdin: JSON.stringify(input),
      env,
      timeoutMs,
      signal: stop.signal,
    });
    return { ...ran, code: stop.signal.aborted ? null : ran.code, timedOut };
  } finally {
    cancel();
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * The session's start-up: its SessionStart command hooks (source `startup`), run once, the
 * first time something waits for them. As the real CLI (2.1.328 to 2.1.332) they run before it
 * answers `initialize` (which waits for them) and before the first turn (which fails if they
 * did); in print mode, with no `initialize`, before the first turn's frames. They end with the
 * process, not with a turn. `undefined` when there are none to run.
 */
export function startupHooks(engine: Engine): Promise<void> | undefined {
  if (engine.startupHooks !== undefined) return engine.startupHooks ?? undefined;
  commandHooksReady(engine);
  const wanted = engine.scenario.verbatim !== true &&
    engine.commandHooks.some((h) => h.event === "SessionStart");
  engine.startupHooks = wanted
    ? sessionStartHooks(engine, { abort: engine.ended, promptId: "" })
    : null;
  return engine.startupHooks ?? undefined;
}

/**
 * The SessionStart command hooks of a new session (source `startup`, matchers matching it),
 * run together as the real CLI 2.1.332 runs them (every `system/hook_started` frame at once,
 * each `system/hook_response` as its hook ends; the real CLI writes them for SessionStart
 * hooks whether or not the SDK asked for hook events), their plain stdout or
 * `additionalContext` kept as context in the order they finished.
 */
async function sessionStartHooks(engine: Engine, run: HookRun): Promise<void> {
  const ctx = engine.ctx;
  const hooks = engine.commandHooks.filter((hook) =>
    hook.event === "SessionStart" && matcherCovers(hook.matcher, "startup")
  );
  await Promise.all(hooks.map(async (hook) => {
    const { prompt_id: _p, permission_mode: _m, effort: _e, ...input } = hookInput(ctx, {
      hook_event_name: "SessionStart",
      source: "startup",
    }, { promptId: run.promptId });
    const ran = await execCommandHook(engine, hook, input, run);
    if (run.abort.aborted) throw run.abort.reason;
    if (ran === undefined) return;
    const output = commandHookOutput(hook, ran);
    const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
    if (typeof specific.additionalContext === "string") {
      engine.hookContext.push(specific.additionalContext);
    }
  }));
}

/**
 * The session's end: once stdin closed and the last turn ended, its SessionEnd command hooks
 * (reason `other`, the last turn's prompt id, no permission mode or effort) run together
 * before the process exits, as the real CLI 2.1.328 and 2.1.332 run them (through the SDK and
 * in print mode, and when SIGTERM or SIGINT ends a print-mode run), writing no frames; a hook
 * that fails (exit 1, 2, ...) is reported on stderr (`SessionEnd hook [<command>] failed:
 * <stderr>`), its JSON output ignored. `undefined` when there are none to run. The SDK's
 * SessionEnd callbacks are not asked: no one can answer once stdin closed (the real CLI asks
 * none).
 */
export function sessionEndHooks(engine: Engine): Promise<void> | undefined {
  commandHooksReady(engine);
  if (engine.scenario.verbatim === true) return undefined;
  const hooks = engine.commandHooks.filter((hook) =>
    hook.event === "SessionEnd" && matcherCovers(hook.matcher, "other")
  );
  if (hooks.length === 0) return undefined;
  const run = { abort: engine.ended, promptId: engine.lastPromptId };
  const { permission_mode: _m, effort: _e, ...input } = hookInput(engine.ctx, {
    hook_event_name: "SessionEnd",
    reason: "other",
  }, { promptId: run.promptId });
  return Promise.all(hooks.map(async (hook) => {
    const ran = await execCommandHook(engine, hook, input, run);
    // as the real CLI 2.1.332: what it makes of a hook that failed (any code but 0; exit 2
    // blocks nothing here, and JSON on stdout changes nothing) goes to stderr
    if (ran && ran.code !== null && ran.code !== 0) {
      engine.stderr(`SessionEnd hook [${hook.command}] failed: ${ran.stderr}\n`);
    }
  })).then(() => {});
}

/**
 * Runs one command hook with `input` on its stdin, in the project folder, with the variables
 * the real CLI sets (`CLAUDE_PROJECT_DIR`, `CLAUDECODE`, `CLAUDE_CODE_ENTRYPOINT`,
 * `CLAUDE_CODE_SESSION_ID`, `CLAUDE_EFFORT`), bounded by its timeout and killed when the turn
 * is interrupted. Resolves with what it means, in an SDK hook callback's terms. A PreToolUse
 * hook that runs past its timeout is reported as the real CLI reports it
 * (`system/informational`, tag `hook_no_verdict`); the tool use goes on.
 */
export async function runCommandHook(
  engine: Engine,
  hook: CommandHook,
  input: Record<string, unknown>,
  options: { turn: TurnState; toolUseId?: string; abort?: TurnState["abort"] },
): Promise<Record<string, unknown>> {
  const run = { abort: options.abort ?? options.turn.abort, promptId: options.turn.promptId };
  const ran = await execCommandHook(engine, hook, input, run);
  if (ran === undefined) return {};
  if (run.abort.aborted) throw run.abort.reason;
  if (ran.timedOut && hook.event === "PreToolUse" && options.toolUseId !== undefined) {
    const frame = systemInformational(
      engine.ctx,
      "A hook didn't answer in time, so it didn't check this action.",
      { level: "warning", tag: "hook_no_verdict" },
    );
    const { uuid, session_id, ...head } = frame;
    const hookNoVerdict = {
      hook_event: "PreToolUse",
      tool_use_id: options.toolUseId,
      timed_out: true,
    };
    await engine.send({
      frame: { ...head, hook_no_verdict: hookNoVerdict, uuid, session_id },
      delay: 0,
    });
  }
  return commandHookOutput(hook, ran, {
    ...(typeof input.tool_name === "string" ? { tool: input.tool_name } : {}),
  });
}
