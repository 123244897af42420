/**
 * The `canUseTool` callback types of the Agent SDK's `query()` options, declared
 * structurally so the mock does not depend on the SDK: the callback, its context argument
 * and its answer.
 *
 * @module
 */

import type { PermissionSuggestion } from "../builders/control.ts";

/**
 * What a `canUseTool` callback answers (structurally the SDK's `PermissionResult`): allow,
 * optionally with a changed input and permission updates, or deny with a message the
 * model sees.
 */
export type ToolPermissionResult =
  | {
    /** Let the tool run. */
    behavior: "allow";
    /** The input the tool runs with (the CLI uses it instead of the model's input). */
    updatedInput?: Record<string, unknown>;
    /** Permission rules to apply, usually the `suggestions` the CLI offered. */
    updatedPermissions?: PermissionSuggestion[];
    /** The tool use this answers (the SDK fills it in from the request). */
    toolUseID?: string;
    /** How the decision was made, for telemetry. */
    decisionClassification?: "user_temporary" | "user_permanent" | "user_reject";
  }
  | {
    /** Refuse the tool; the model gets an error tool result. */
    behavior: "deny";
    /** Why: the text of the error tool result. */
    message: string;
    /** Also stop the turn. */
    interrupt?: boolean;
    /** The tool use this answers (the SDK fills it in from the request). */
    toolUseID?: string;
    /** How the decision was made, for telemetry. */
    decisionClassification?: "user_temporary" | "user_permanent" | "user_reject";
  };

/**
 * The third argument of a `canUseTool` callback (structurally the SDK's options object).
 * `signal` and `toolUseID` are always present when the SDK calls; other fields depend on
 * the request. Unknown fields from newer SDKs pass through.
 */
export interface ToolPermissionContext {
  /** Aborted when the SDK no longer needs the answer. */
  signal: AbortSignal;
  /** The tool use being asked about. */
  toolUseID: string;
  /** Permission updates the CLI suggests ("always allow ..."). */
  suggestions?: PermissionSuggestion[];
  /** The path that triggered the request, if any. */
  blockedPath?: string;
  /** Why the CLI asks. */
  decisionReason?: string;
  /** For `mcp__*` tools: the server serving the tool. */
  mcpServer?: { name: string; source: string };
  /** The subagent asking, if any. */
  agentID?: string;
  /** The control request id. */
  requestId?: string;
  /** Anything else the SDK passes. */
  [key: string]: unknown;
}

/**
 * A `canUseTool` callback: the SDK's `CanUseTool` signature. Assignable to
 * `Options["canUseTool"]`.
 */
export type CanUseToolCallback = (
  toolName: string,
  input: Record<string, unknown>,
  options: ToolPermissionContext,
) => Promise<ToolPermissionResult>;
