/**
 * Whether a tool use may run, as the real CLI decides it: PreToolUse hooks, then the permission
 * rules, then (when they say ask) `can_use_tool`; the denials the CLI writes without asking.
 *
 * @module
 */

import {
  type CanUseToolRequest,
  canUseToolRequest,
  type CanUseToolRequestOptions,
  type ControlRequestFrameOut,
  type PermissionSuggestion,
} from "../builders/control.ts";
import {
  decidePermission,
  INTERACTIVE_TOOLS,
  prefixRule,
  type RuleSource,
} from "../scenario/permission_rules.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";
import { isObject } from "../wire/frame.ts";
import { subcommandsNeedingApproval } from "../scenario/read_only_command.ts";
import { builtInTools, ruleSources, unavailableTool } from "./session_tools.ts";
import { checkToolInput } from "./tool_input_check.ts";
import { refusedInput } from "./file_contents.ts";
import { STRUCTURED_OUTPUT } from "./structured_output.ts";
import type { Engine } from "./engine.ts";
import { callHooksTogether, type HookAgent, hookCallbacks, keepContext } from "./hook_runner.ts";
import { mcpServerField, mcpServerOf, sdkMcpServers } from "./mcp_servers.ts";
import { askWith, permissionRequestHooks } from "./permission_request.ts";
import { askedInput, ENTER_PLAN_MODE_META, planModeDecision } from "./plan_mode.ts";
import {
  type PermissionOutcome,
  StreamClosed,
  type ToolDecision,
  type TurnState,
} from "./turn_state.ts";

/**
 * A tool the session does not have is neither hooked nor asked about: `unavailable`, with
 * the real CLI's error. Else PreToolUse hooks, then the permission rules, then (when asked
 * for) `can_use_tool`. `options.mode` is the permission mode the rules decide in (default the
 * session's; a subagent's tool uses are decided in its agent's `permissionMode`).
 */
export async function authorize(
  engine: Engine,
  call: ScriptedToolCall,
  turn: TurnState,
  options: { agent?: HookAgent; mode?: string } = {},
): Promise<ToolDecision> {
  const mode = options.mode ?? engine.ctx.permissionMode;
  const first = failsFirst(engine, call, mode);
  if ("kind" in first) return first;
  call = first;
  const block = call.block;
  if (block.name === STRUCTURED_OUTPUT && engine.jsonSchema !== undefined) {
    // as the real CLI 2.1.328: no hooks, no rules, accepted by the configuration
    return { kind: "allow", input: block.input, meta: { decision: "accept", source: "config" } };
  }
  const hooked = await preToolUseHooks(engine, call, { turn, agent: options.agent });
  if (hooked.denial) return hooked.denial;
  const { input, decision: hookDecision } = hooked;
  if (hookDecision === "allow" && call.permission !== "deny") {
    return { kind: "allow", input, meta: "hookAllowed" };
  }
  const verdict = call.permission
    ? { behavior: call.permission, reason: "rule" as const }
    : hookDecision === "ask"
    ? { behavior: "ask" as const, reason: "rule" as const }
    : decidePermission(block.name, input, {
      mode: mode,
      sources: ruleSources(engine),
      cwd: engine.ctx.cwd,
    });
  if (verdict.behavior === "deny") {
    return verdict.reason === "mode" && mode === "dontAsk"
      ? dontAskDenial(block.name)
      : ruleDenial(block.name, input, verdict);
  }
  if (verdict.behavior === "allow") {
    // EnterPlanMode: accepted by the configuration, no reason (2.1.332)
    if (block.name === "EnterPlanMode") return { kind: "allow", input, meta: ENTER_PLAN_MODE_META };
    return {
      kind: "allow",
      input,
      meta: allowedBy(block.name, verdict, mode),
    };
  }
  const why = noPromptDenial(block, engine.ctx.cwd, verdict.reason);
  if (engine.flags.permissionPrompts === "none") return noApprovalSurface(why.message);
  if (engine.flags.permissionPromptTool !== "stdio") {
    // a PermissionRequest hook decides in the user's place (hooks_permission_request_*)
    if (hookCallbacks(engine, "PermissionRequest").length > 0) {
      const asked = askRequest(engine, { ...block, input }, verdict).request;
      const decided = await permissionRequestHooks(engine, turn, asked);
      if (decided !== undefined) return decided;
    }
    // No one to ask (print mode, or an SDK without canUseTool): the real CLI denies it when
    // the tools run, says so in a permission_denied frame, and goes on
    // (the real CLI 2.1.328, in print mode and under the SDK).
    return {
      kind: "deny",
      message: why.message,
      meta: { decision: "reject", source: "config" },
      nonExecutionKind: "user-rejected",
      deniedFrame: why.reasonType !== undefined
        ? {
          reasonType: why.reasonType,
          ...(why.reason !== null ? { reason: why.reason ?? why.message } : {}),
        }
        : {},
    };
  }
  const asked = { ...block, input };
  const request = askRequest(engine, asked, verdict);
  // a subagent's tool use names the subagent (its `agent_id`)
  if (options.agent) request.request = { ...request.request, agent_id: options.agent.id };
  return await askClient(engine, asked, request, turn);
}

/**
 * What fails before the hooks and the rules, unasked (2.1.328 to 2.1.332): a tool the session
 * does not have, input its schema refuses, input the tool refuses, ExitPlanMode outside plan
 * mode. Else the call, its input as the CLI parsed it.
 */
function failsFirst(
  engine: Engine,
  call: ScriptedToolCall,
  mode: string,
): ToolDecision | ScriptedToolCall {
  const missing = unavailableTool(engine, call.block.name);
  if (missing !== undefined) return { kind: "unavailable", message: missing };
  const checked = checkedInput(engine, call);
  if ("kind" in checked) return checked;
  const refused = refusedInput(engine.fileContents, checked, engine.ctx);
  if (refused !== undefined) return { kind: "invalid", result: refused };
  return planModeDecision(mode, checked.block) ?? checked;
}

/**
 * A tool use's input checked against its tool's schema: the `invalid` decision with the
 * CLI's `InputValidationError`, or the call with its input as the CLI parsed it.
 */
function checkedInput(engine: Engine, call: ScriptedToolCall): ToolDecision | ScriptedToolCall {
  const block = call.block;
  const checked = checkToolInput(block.name, block.input, {
    deferred: builtInTools(engine).includes("ToolSearch"),
    schemaTexts: engine.ctx.cli.facts.toolInputSchemas,
  });
  if (checked === undefined) return call;
  if (!checked.ok) {
    return {
      kind: "invalid",
      result: {
        content: `<tool_use_error>${checked.content}</tool_use_error>`,
        isError: true,
        toolUseResult: checked.toolUseResult,
        permissionDecision: null,
      },
    };
  }
  if (JSON.stringify(checked.input) === JSON.stringify(block.input)) return call;
  return { ...call, block: { ...block, input: checked.input } };
}

/** The permission metadata of a use the rules or the mode allowed, as the real CLI writes it. */
function allowedBy(
  tool: string,
  verdict: ReturnType<typeof decidePermission> | { behavior: string; reason: string },
  mode: string,
): "readOnlyAllowed" | "modeAllowed" | "ruleAllowed" | "configAllowed" {
  // as the real CLI: a read-only tool is allowed by the mode; a read-only command by its
  // subcommands, and so is a Bash command a content rule (`Bash(touch:*)`) allowed; the
  // whole-tool rule `Bash` allows it as a rule
  const wholeTool = "rule" in verdict && typeof verdict.rule === "string" &&
    !verdict.rule.includes("(");
  return verdict.reason === "readOnly" ||
      (tool === "Bash" &&
        ((verdict.reason === "rule" && !wholeTool) ||
          (verdict.reason === "mode" && mode === "acceptEdits")))
    ? tool === "Bash" ? "readOnlyAllowed" : "modeAllowed"
    : verdict.reason === "mode"
    ? "modeAllowed"
    // an allow rule (allowedTools, settings)
    : "rule" in verdict && verdict.rule !== undefined
    ? "ruleAllowed"
    : "configAllowed";
}

const CANCELLED_TOOL_USE = "The user doesn't want to take this action right now. STOP what " +
  "you are doing and wait for the user to tell you how to proceed.";

/**
 * A PreToolUse hook callback no one can answer (stdin closed before or while it was asked):
 * the real CLI (2.1.328 to 2.1.332) cancels the tool use, not a permission denial, and the
 * turn goes on.
 */
const CANCELLED_BY_CLOSED_STDIN: ToolDecision = {
  kind: "deny",
  message: CANCELLED_TOOL_USE,
  toolUseResult: CANCELLED_TOOL_USE,
  meta: null,
  nonExecutionKind: "cancelled",
  cancelled: true,
};

/**
 * PreToolUse hooks that failed (an output whose `hookSpecificOutput` names another event): the
 * real CLI (2.1.328) does not run the tool, a tool error it does not count as a permission
 * denial, and the turn goes on.
 */
const FAILED_HOOK_MESSAGE = "PreToolUse hook failed with an unexpected error. The tool call " +
  "was not executed; other configured hooks may not have completed.";
const FAILED_HOOK: ToolDecision = {
  kind: "deny",
  message: FAILED_HOOK_MESSAGE,
  meta: null,
  cancelled: true,
};

/**
 * The PreToolUse hooks of a tool use, run together as the real CLI (2.1.332) runs them, each
 * with the use's input, their outputs read in the order they finished: the input the last
 * `updatedInput` leaves; a denial if any denies (the reason of the last to finish), else `ask`
 * if any asks, else `allow` if any allows.
 */
async function preToolUseHooks(
  engine: Engine,
  call: ScriptedToolCall,
  options: { turn: TurnState; agent?: HookAgent },
): Promise<{ input: Record<string, unknown>; decision?: "allow" | "ask"; denial?: ToolDecision }> {
  const { turn } = options;
  const agent = options.agent ? { agent: options.agent } : {};
  const block = call.block;
  let input = block.input;
  let outputs: Record<string, unknown>[];
  try {
    outputs = await callHooksTogether(engine, hookCallbacks(engine, "PreToolUse", block.name), {
      hook_event_name: "PreToolUse",
      tool_name: block.name,
      tool_input: input,
      tool_use_id: block.id,
      ...mcpServerField(engine, block.name),
    }, { turn, toolUseId: block.id, ...agent });
  } catch (error) {
    if (!(error instanceof StreamClosed)) throw error;
    return { input, denial: CANCELLED_BY_CLOSED_STDIN };
  }
  // an output about another event fails the hooks (2.1.328): the tool use is not run
  const misplaced = outputs.some((output) =>
    isObject(output.hookSpecificOutput) &&
    output.hookSpecificOutput.hookEventName !== "PreToolUse"
  );
  if (misplaced) return { input, denial: FAILED_HOOK };
  let decided: "allow" | "ask" | undefined;
  let denial: ToolDecision | undefined;
  for (const output of outputs) {
    // As the real CLI: `continue: false` lets this tool use go on (asked and run as usual)
    // and ends the turn after the message's tools, with no further API call.
    if (output.continue === false) turn.hookStop = true;
    const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
    const decision = specific.permissionDecision ??
      (output.decision === "block" ? "deny" : undefined);
    if (isObject(specific.updatedInput)) input = specific.updatedInput;
    keepContext(engine, output);
    if (decision === "deny") {
      const reason = String(
        specific.permissionDecisionReason ?? output.reason ?? "blocked by hook",
      );
      denial = {
        kind: "deny",
        message: `PreToolUse:${block.name} hook error: ${reason}`,
        meta: { decision: "reject", source: "hook", reason_type: "hook" },
        nonExecutionKind: "permission-rule",
      };
    } else if (decision === "ask") decided = "ask";
    else if (decision === "allow" && decided === undefined) decided = "allow";
  }
  if (denial) return { input, denial };
  return { input, ...(decided ? { decision: decided } : {}) };
}

/**
 * A use a deny rule matched, as the real CLI 2.1.328 denies it: a
 * Bash command at once, with a `permission_denied` frame; a file tool's path as a tool error
 * when the tools run; anything else (a scenario's own `permission: "deny"`) plainly.
 */
function ruleDenial(
  tool: string,
  input: Record<string, unknown>,
  verdict: { rule?: unknown },
): ToolDecision {
  const scoped = typeof verdict.rule === "string" && verdict.rule.includes("(");
  if (scoped && tool === "Bash" && typeof input.command === "string") {
    return {
      kind: "deny",
      message: `Permission to use Bash with command ${input.command} has been denied.`,
      meta: { decision: "reject", source: "config", reason_type: "subcommandResults" },
      nonExecutionKind: "permission-rule",
      deniedFrame: { reasonType: "subcommandResults" },
      immediate: true,
    };
  }
  if (scoped && FILE_RULE_TOOLS.has(tool)) {
    const message = "File is in a directory that is denied by your permission settings.";
    return {
      kind: "deny",
      message: `<tool_use_error>${message}</tool_use_error>`,
      toolUseResult: `Error: ${message}`,
      meta: { decision: "reject", source: "config", reason_type: "rule" },
    };
  }
  return {
    kind: "deny",
    message: `Permission to use ${tool} has been denied.`,
    meta: { decision: "reject", source: "config" },
  };
}

/**
 * A use `dontAsk` refuses (it would have been asked), as the real CLI refuses it when the tool
 * would run, with its `permission_denied` frame (2.1.328).
 */
function dontAskDenial(tool: string): Extract<ToolDecision, { kind: "deny" }> {
  return {
    kind: "deny",
    message: `Permission to use ${tool} has been denied because Claude Code ` +
      `is running in don't ask mode. IMPORTANT: You *may* attempt to ` +
      `accomplish this action using other tools that might naturally ` +
      `be used to accomplish this goal, e.g. using head instead of ` +
      `cat. But you *should not* attempt to work around this denial ` +
      `in malicious ways, e.g. do not use your ability to run tests ` +
      `to execute non-test actions. You should only try to work around ` +
      `this restriction in reasonable ways that do not attempt to bypass ` +
      `the intent behind this denial. If you believe this capability ` +
      `is essential to complete the user's request, STOP and explain ` +
      `to the user what you were trying to do and why you need this ` +
      `permission. Let the user decide how to proceed.`,
    meta: { decision: "reject", source: "config", reason_type: "mode" },
    nonExecutionKind: "permission-rule",
    deniedFrame: { reasonType: "mode" },
  };
}

/**
 * `--permission-prompts none`: no one may answer, not even the SDK; denied at once, the
 * model told not to retry (as the real CLI 2.1.328 does).
 */
function noApprovalSurface(why: string): Extract<ToolDecision, { kind: "deny" }> {
  return {
    kind: "deny",
    message: `${NO_APPROVAL_SURFACE}${why}`,
    meta: { decision: "reject", source: "config", reason_type: "asyncAgent" },
    nonExecutionKind: "permission-rule",
    deniedFrame: {
      reasonType: "asyncAgent",
      reason: "no approval surface in this session; permission request denied automatically",
    },
    immediate: true,
  };
}

/**
 * A denial the real CLI (2.1.328) knows from the rules alone, which it writes at once, right
 * after the tool's block (a Bash command a deny rule matched; a prompt no one may answer).
 * Anything else (hooks, asks, the modes) is decided when the tool runs: `undefined`.
 */
export function immediateDenial(
  engine: Engine,
  call: ScriptedToolCall,
): Extract<ToolDecision, { kind: "deny" }> | undefined {
  const block = call.block;
  if (call.permission !== undefined) return undefined;
  // input its schema refuses fails before any rule
  if (checkToolInput(block.name, block.input)?.ok === false) return undefined;
  if (hookCallbacks(engine, "PreToolUse", block.name).length > 0) return undefined;
  const verdict = decidePermission(block.name, block.input, {
    mode: engine.ctx.permissionMode,
    sources: ruleSources(engine),
    cwd: engine.ctx.cwd,
  });
  if (verdict.behavior === "deny") {
    const denial = ruleDenial(block.name, block.input, verdict);
    return denial.kind === "deny" && denial.immediate ? denial : undefined;
  }
  if (verdict.behavior === "ask" && engine.flags.permissionPrompts === "none") {
    return noApprovalSurface(noPromptDenial(block, engine.ctx.cwd).message);
  }
  return undefined;
}

/** Tools whose deny rules name paths (`Edit(./notes.txt)`). */
const FILE_RULE_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
]);

/** Suggests allowing `rules` from now on, in the local settings. */
function allowRules(rules: string[]): PermissionSuggestion {
  return {
    type: "addRules",
    rules: rules.map((ruleContent) => ({ toolName: "Bash", ruleContent })),
    behavior: "allow",
    destination: "localSettings",
  };
}

/**
 * What a `can_use_tool` for a Bash command no rule decided says: a compound command's parts that
 * are not read-only (a rule each, `subcommandResults`, 2.1.328 to 2.1.332); a command that changes
 * files in the cwd (its `blockedPath`); else one prefix rule (2.1.328).
 */
function bashAsk(command: string, cwd: string): CanUseToolRequestOptions {
  const parts = subcommandsNeedingApproval(command, cwd);
  if (parts !== undefined) {
    return {
      decisionReasonType: "subcommandResults",
      permissionSuggestions: [allowRules([...new Set(parts.map(prefixRule))])],
    };
  }
  const blockedPath = blockedPathOf(command, cwd);
  if (blockedPath === undefined) {
    return {
      decisionReason: "This command requires approval",
      decisionReasonType: "other",
      permissionSuggestions: [allowRules([prefixRule(command)])],
    };
  }
  return {
    blockedPath,
    permissionSuggestions: [
      allowRules([command]),
      { type: "addDirectories", directories: [cwd], destination: "session" },
      { type: "setMode", mode: "acceptEdits", destination: "session" },
    ],
  };
}

/** The `can_use_tool` request the rules' `verdict` makes for a tool use, as the real CLI 2.1.328 makes it. */
function askRequest(
  engine: Engine,
  block: ScriptedToolCall["block"],
  verdict: { rule?: unknown; source?: unknown; reason?: string },
): ControlRequestFrameOut<CanUseToolRequest> {
  // ExitPlanMode is asked about without its plan (2.1.332)
  const input = askedInput(block.name, block.input);
  block = input === block.input ? block : { ...block, input };
  const rule = "rule" in verdict ? verdict.rule : undefined;
  const source = "source" in verdict ? verdict.source as RuleSource["source"] : undefined;
  const server = mcpServerOf(block.name);
  return canUseToolRequest(engine.ctx, block, {
    // a server the CLI runs itself is `dynamic` (2.1.328 to 2.1.332)
    ...(server !== undefined && !sdkMcpServers(engine.initializeRequest).includes(server)
      ? { mcpServerSource: "dynamic" }
      : {}),
    ...(rule !== undefined ? { decisionReasonType: "rule" as const } : {}),
    ...(source !== undefined ? { decisionReasonRuleSource: source } : {}),
    ...(verdict.reason === "workingDir"
      ? {
        decisionReason: "Path is outside allowed working directories",
        decisionReasonType: "workingDir" as const,
      }
      : {}),
    // the mode asks (plan, before an edit; the real CLI 2.1.328): no suggestion
    ...(verdict.reason === "mode"
      ? { decisionReasonType: "mode" as const, permissionSuggestions: null }
      : {}),
    ...(INTERACTIVE_TOOLS.has(block.name) ? { requiresUserInteraction: true } : {}),
    ...(block.name === "Bash" && rule === undefined && typeof input.command === "string"
      ? bashAsk(input.command, engine.ctx.cwd)
      : {}),
  });
}

/** Asks the client about a tool use (`can_use_tool`), and the PermissionRequest hooks. */
async function askClient(
  engine: Engine,
  block: ScriptedToolCall["block"],
  request: ControlRequestFrameOut<CanUseToolRequest>,
  turn: TurnState,
): Promise<PermissionOutcome> {
  if (hookCallbacks(engine, "PermissionRequest").length === 0) {
    return await askWith(engine, turn, { request, block });
  }
  // As the real CLI: with a PermissionRequest hook the request is not the server policy's
  // alone (a `server_policy_ask_only` it carries turns false; the CLIs that leave the field out
  // for file tools leave it out here too), and the hook is asked right after canUseTool;
  // canUseTool's answer decides.
  if (request.request.server_policy_ask_only !== undefined) {
    request.request.server_policy_ask_only = false;
  }
  return await askWith(engine, turn, {
    request,
    block,
    beside: () => permissionRequestHooks(engine, turn, request.request),
  });
}

function noPromptDenial(
  block: ScriptedToolCall["block"],
  cwd: string,
  why?: string,
): { message: string; reasonType?: string; reason?: string | null } {
  if (block.name === "Bash") {
    // a compound command names the parts that need approval, as typed (2.1.328 to 2.1.332)
    const parts = typeof block.input.command === "string"
      ? subcommandsNeedingApproval(block.input.command, cwd)
      : undefined;
    if (parts !== undefined && parts.length > 0) {
      const one = parts.length === 1;
      return {
        message: `This Bash command contains multiple operations. The following ${
          one ? "part requires" : "parts require"
        } approval: ${parts.join(", ")}`,
        reasonType: "subcommandResults",
        reason: null,
      };
    }
    const path = blockedPathOf(block.input.command, cwd);
    if (path !== undefined && path.startsWith(`${cwd.replace(/\/$/, "")}/`)) {
      const command = String(block.input.command).trim().split(/\s+/)[0];
      return {
        message: `${command} in '${path}' needs approval. The path is inside the ` +
          `working directories for this session ('${cwd}'), and Claude ` +
          `Code asks before a shell command creates, changes or removes files there.`,
      };
    }
    return { message: "This command requires approval", reasonType: "other" };
  }
  const file = block.input.file_path ?? block.input.notebook_path;
  // a read outside the working directories (the real CLI 2.1.328 to 2.1.332)
  if (why === "workingDir" && typeof file === "string" && !WRITE_TOOLS.has(block.name)) {
    return {
      message: `Claude requested permissions to read from ${file}, but you haven't granted it yet.`,
      reasonType: "workingDir",
      reason: "Path is outside allowed working directories",
    };
  }
  if (WRITE_TOOLS.has(block.name) && typeof file === "string") {
    return {
      message: `Claude requested permissions to write to ${file}, but you haven't granted it yet.`,
    };
  }
  return {
    message: `Claude requested permissions to use ${block.name}, but you haven't granted it yet.`,
  };
}

/** Tools that write a file: their denial names it (the real CLI 2.1.328). */
const WRITE_TOOLS: ReadonlySet<string> = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** What `--permission-prompts none` tells the model before the reason (the real CLI 2.1.328). */
const NO_APPROVAL_SURFACE = "Permission for this tool use was denied. It requires approval, " +
  "and this session has no approval surface \u2014 nobody can answer " +
  "a permission prompt here \u2014 so it was denied automatically. " +
  "The action was NOT performed; do not claim it succeeded, and " +
  "do not retry it: this action, and anything else that requires " +
  "approval, will be denied the same way for the rest of this session. " +
  "Tell the user what was blocked and why you needed it, then continue " +
  "with the parts of the task that do not require approval. What " +
  "required approval: ";

const PATH_COMMANDS = new Set([
  "rm",
  "rmdir",
  "touch",
  "mkdir",
  "mv",
  "cp",
  "chmod",
  "chown",
  "ln",
  "truncate",
]);

/** The path a file-changing shell command works on, as the real CLI reports `blocked_path`. */
function blockedPathOf(command: unknown, cwd: string): string | undefined {
  if (typeof command !== "string" || /[;&|><`]|\$\(/.test(command)) return undefined;
  const words = command.trim().split(/\s+/);
  if (!PATH_COMMANDS.has(words[0])) return undefined;
  const target = words.slice(1).filter((w) => !w.startsWith("-")).at(-1);
  if (target === undefined) return undefined;
  if (target.startsWith("/")) return target;
  return `${cwd.replace(/\/$/, "")}/${target.replace(/^\.\//, "").replace(/\/$/, "")}`;
}
