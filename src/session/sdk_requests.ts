/**
 * The client's requests to the CLI, answered as the real CLI answers them: `initialize`,
 * `interrupt`, `set_model`, `set_permission_mode`, `set_max_thinking_tokens`, and the
 * read-only queries (`sdk_queries.ts`).
 *
 * @module
 */

import { checkFlagSettings } from "./flag_settings_check.ts";
import { DEFAULT_MODEL } from "../builders/build_context.ts";
import { initializeResponse } from "../builders/control.ts";
import { commandsOf } from "../builders/slash_commands.ts";
import { commandInfo, customCommandsOf } from "./custom_commands.ts";
import { resolveModel } from "../builders/inventory.ts";
import { modelCatalogOf, resolveSessionModel } from "../builders/model_catalog.ts";
import { PERMISSION_MODES, type PermissionMode, systemStatus } from "../builders/system.ts";
import { userText } from "../builders/user.ts";
import { isObject } from "../wire/frame.ts";
import { AnswerThen, ControlError, type ControlHandler, EncodedAnswer } from "./control_channel.ts";
import type { Engine } from "./engine.ts";
import { sdkMcpServers } from "./mcp_servers.ts";
import { installSdkQueries } from "./sdk_queries.ts";
import { installMcpCall } from "./mcp_call.ts";
import { installMcpControls } from "./mcp_controls.ts";
import { startupHooks } from "./command_hook_run.ts";
import { Interrupted } from "./turn_state.ts";
import { canonicalJson } from "../wire/_canonical_json.ts";

const INITIALIZE_ANSWERS = new Map<string, EncodedAnswer>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Settings the SDK sent in `initialize` (`settingsDelivery: "initialize"`): they count as
 * `--settings` would (rules, model). Whether there were any.
 */
function applyDeliveredSettings(engine: Engine, request: Record<string, unknown>): boolean {
  const sent = request.settings;
  if (!isObject(sent)) return false;
  // as --settings: entries the CLI cannot use skipped, or none of it in effect
  const check = checkFlagSettings(JSON.stringify(sent));
  if (engine.settingsCheck.lines.length === 0) engine.settingsCheck = check;
  const usable = check.settings;
  if (usable === undefined) return true;
  const settings = JSON.parse(usable) as Record<string, unknown>;
  if (engine.flags.settings === undefined) engine.flags.settings = usable;
  const model = settings.model;
  if (
    typeof model === "string" && model !== "" && engine.flags.model === undefined &&
    engine.scenario.model === undefined
  ) {
    const chosen = resolveSessionModel(model, modelCatalogOf(engine.ctx.cli), engine.env);
    engine.ctx.model = chosen.model;
    if (chosen.model !== model) engine.ctx.requestedModel = model;
  }
  return true;
}

/** Registers the built-in answers on the engine's control channel. */
export function installSdkRequests(engine: Engine): void {
  const control = engine.control;
  interceptRecordedAnswers(engine);
  control.handle(
    "initialize",
    // an EncodedAnswer: the channel knows it, the public type not
    ((request: Record<string, unknown>) => {
      const answer = answerInitialize(engine, request);
      // as the real CLI: the start-up's SessionStart command hooks run before the answer (a
      // failure among them fails the first turn, not the handshake)
      const starting = startupHooks(engine);
      if (!starting) return answer;
      engine.initializeAnswer = starting.then(() => answer, () => answer);
      return engine.initializeAnswer;
    }) as unknown as ControlHandler,
  );
  control.handle("interrupt", async () => {
    await interruptTurn(engine);
    return { still_queued: [] };
  });
  control.handle("set_permission_mode", (request) => setPermissionMode(engine, request));
  control.handle("set_model", (request) => setModel(engine, request));
  control.handle("set_max_thinking_tokens", (request) => setMaxThinkingTokens(engine, request));
  installSdkQueries(engine);
  installMcpCall(engine);
  installMcpControls(engine);
}

/** A converted recording: the app's requests get the recorded answers, each once. */
function interceptRecordedAnswers(engine: Engine): void {
  const answers = engine.scenario.answers;
  if (!answers || answers.length === 0) return;
  const used = new Set<number>();
  engine.control.interceptWith((request) => {
    if (request.subtype === "initialize") return undefined;
    const { request_id: _id, ...body } = request;
    const wanted = canonicalJson(body);
    let index = answers.findIndex((a, i) => !used.has(i) && canonicalJson(a.request) === wanted);
    if (index < 0) {
      index = answers.findIndex((a, i) => !used.has(i) && a.request.subtype === body.subtype);
    }
    if (index < 0) return undefined;
    used.add(index);
    const { response, error } = answers[index];
    return error !== undefined ? { error } : { response };
  });
}

/** The answer to `initialize`, after applying what the SDK delivered in it. */
function answerInitialize(engine: Engine, request: Record<string, unknown>): EncodedAnswer {
  const ctx = engine.ctx;
  engine.initializeRequest = request;
  const settingsApplied = applyDeliveredSettings(engine, request);
  const disallowedApplied = Array.isArray(request.disallowedTools);
  if (disallowedApplied) {
    engine.flags.disallowedTools.push(
      ...(request.disallowedTools as unknown[]).filter((t): t is string => typeof t === "string"),
    );
  }
  const own = customCommandsOf(engine);
  // as the real CLI 2.1.328: `hooks_applied` with hooks, the SDK's MCP servers parked
  const options = {
    hooksApplied: isObject(request.hooks),
    sdkMcpServers: sdkMcpServers(request),
    // what the SDK delivered here instead of the command line (its *Delivery: "initialize")
    // is applied and said so (2.1.328 to 2.1.332)
    settingsApplied,
    disallowedToolsApplied: disallowedApplied,
    mcpServersApplied: isObject(request.mcpServers),
    // the custom agents (`agents`, `--agents`) among the built-in ones (2.1.328, 2.1.332)
    agents: [...engine.agents],
    // the custom slash commands first, by name, in their built-ins' place (2.1.328 to 2.1.332)
    ...(own.length > 0
      ? {
        commands: [
          ...own.map(commandInfo),
          // a built-in of the same name is replaced (2.1.332: a project's /fast)
          ...commandsOf(ctx.cli, ctx.model).filter((c) =>
            !own.some((command) => command.name === c.name)
          ),
        ],
      }
      : {}),
  };
  const extra = engine.scenario.initialize;
  if (extra !== undefined) {
    return new EncodedAnswer({ ...initializeResponse(ctx, options), ...extra });
  }
  // the same answer every session with this session id, model, mode, hooks and servers:
  // encode it once
  const key = JSON.stringify([
    ctx.cli.version,
    ctx.sessionId,
    ctx.model,
    ctx.requestedModel,
    ctx.permissionMode,
    options,
  ]);
  let answer = INITIALIZE_ANSWERS.get(key);
  if (!answer) {
    if (INITIALIZE_ANSWERS.size >= 256) INITIALIZE_ANSWERS.clear();
    answer = new EncodedAnswer(deepFreeze(initializeResponse(ctx, options)), key);
    INITIALIZE_ANSWERS.set(key, answer);
  }
  return answer;
}

/** `set_permission_mode`: the mode now in effect, a status frame when it changed. */
function setPermissionMode(engine: Engine, request: Record<string, unknown>): AnswerThen {
  const ctx = engine.ctx;
  // as the real CLI (2.1.328 to 2.1.332): "manual" is the default mode, the answer
  // names the mode now in effect, and a status frame follows only when the mode changed
  const asked = request.mode === "manual" ? "default" : request.mode;
  if (typeof asked !== "string" || !PERMISSION_MODES.includes(asked as PermissionMode)) {
    throw new ControlError(
      `Cannot set permission mode: must be one of ${[...PERMISSION_MODES].sort().join(", ")}`,
      { error_code: "invalid_mode" },
    );
  }
  const bypassLaunched = engine.flags.bypassAvailable ||
    engine.flags.permissionMode === "bypassPermissions";
  if (asked === "bypassPermissions" && !bypassLaunched) {
    throw new ControlError(
      "Cannot set permission mode to bypassPermissions because the session was not launched with --dangerously-skip-permissions",
      { error_code: "bypass_not_launched" },
    );
  }
  const changed = ctx.permissionMode !== asked;
  ctx.permissionMode = asked;
  return new AnswerThen(
    { mode: asked },
    () => changed ? [systemStatus(ctx, null, { permissionMode: asked as PermissionMode })] : [],
  );
}

/** `set_model`: the model resolved, a replayed `/model` output for it. */
async function setModel(
  engine: Engine,
  request: Record<string, unknown>,
): Promise<{ model: string }> {
  const ctx = engine.ctx;
  const wanted = request.model;
  if (wanted === undefined || wanted === null) {
    ctx.model = DEFAULT_MODEL;
    return { model: DEFAULT_MODEL };
  }
  const model = wanted === "default"
    ? DEFAULT_MODEL
    : typeof wanted === "string" && wanted !== ""
    ? resolveModel(wanted) ?? (engine.scenario.models?.includes(wanted) ? wanted : undefined)
    : undefined;
  if (model === undefined) {
    throw new ControlError(
      wanted === ""
        ? 'Model "(unrecognized model name)" is not a recognized model id. Run /model to see available models.'
        : `Model '${String(wanted)}' not found`,
      { error_code: wanted === "" ? "catalog_unknown" : "not_found", model: ctx.model },
    );
  }
  ctx.model = model;
  const shown = typeof wanted === "string" && wanted !== model && wanted !== "default"
    ? `${wanted} (${model})`
    : model;
  await engine.send({
    frame: userText(
      ctx,
      `<local-command-stdout>Set model to \`${shown}\`</local-command-stdout>`,
      { isReplay: true },
    ),
    delay: 0,
  });
  return { model };
}

/** `set_max_thinking_tokens`: a non-negative integer, or null. */
function setMaxThinkingTokens(engine: Engine, request: Record<string, unknown>): undefined {
  const tokens = request.max_thinking_tokens;
  const display = request.thinking_display;
  // as the real CLI (2.1.328, 2.1.332): any integer (a negative one is a budget, not off),
  // and a display among its three or null; else this error and no change
  if (
    (tokens !== null && !Number.isInteger(tokens)) ||
    (display !== undefined && display !== null && !THINKING_DISPLAYS.has(display as string))
  ) {
    throw new Error(
      "set_max_thinking_tokens: max_thinking_tokens must be an integer or null and " +
        'thinking_display must be "summarized", "omitted", "highlights", or null',
    );
  }
  engine.maxThinkingTokens = tokens as number | null;
  // `summarized` (and `highlights`) become the display the API is asked for; `omitted` left
  // it `updates` in the real CLI 2.1.332, and null leaves it as it was
  if (display === "summarized" || display === "highlights") engine.thinkingDisplay = display;
  return undefined;
}

/** The displays `set_max_thinking_tokens` takes. */
const THINKING_DISPLAYS: ReadonlySet<string> = new Set(["summarized", "omitted", "highlights"]);

/**
 * Interrupts the running turn as the client's `interrupt` does (an open permission question
 * is withdrawn first); resolves with whether there was a turn to interrupt. A turn whose
 * result is written, or that is already ending, is left alone.
 */
export async function interruptTurn(engine: Engine): Promise<boolean> {
  const turn = engine.turn;
  if (!turn || turn.resultSent || turn.abort.aborted) return false;
  const pending = turn.pendingPermission;
  if (pending) {
    // the real CLI withdraws the open permission question first
    await engine.send({
      frame: { type: "control_cancel_request", request_id: pending.requestId },
      delay: 0,
    });
  }
  turn.abort.abort(new Interrupted());
  return true;
}
