/**
 * Builder for the `system/permission_denied` frame: in print mode with no one to ask (no
 * `--permission-prompt-tool`), the real CLI denies a tool use that needs a prompt at once and
 * says so before the tool's error result (as the real CLI 2.1.328 does in print mode).
 *
 * @module
 */

import type { SystemFrame, Uuid } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { checkString } from "./_common.ts";

/** A `system/permission_denied` frame. */
export interface PermissionDeniedFrame extends SystemFrame {
  /** Always `permission_denied`. */
  subtype: "permission_denied";
  /** The denied tool. */
  tool_name: string;
  /** The denied tool use. */
  tool_use_id: string;
  /** What decided it (`subcommandResults` for a Bash command a deny rule matched). */
  decision_reason_type?: string;
  /** A code for the reason (`auto_mode_no_check_in_session`), when the CLI gives one. */
  decision_reason_code?: string;
  /** Why, in the CLI's words, when it says (`This command requires approval`). */
  decision_reason?: string;
  /** Why (also the tool result's text). */
  message: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/**
 * The `system/permission_denied` frame, in the recorded key order.
 *
 * @example A denied Bash command
 * ```ts
 * import { createBuildContext, permissionDenied } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = permissionDenied(ctx, { toolName: "Bash", toolUseId: "toolu_01A", message: "no" });
 * console.log(frame.subtype); // permission_denied
 * ```
 */
export function permissionDenied(
  ctx: BuildContext,
  options: {
    toolName: string;
    toolUseId: string;
    message: string;
    decisionReasonType?: string;
    decisionReasonCode?: string;
    decisionReason?: string;
  },
): PermissionDeniedFrame {
  checkString(options?.toolName, "permissionDenied()", "options.toolName");
  checkString(options.toolUseId, "permissionDenied()", "options.toolUseId");
  checkString(options.message, "permissionDenied()", "options.message");
  return {
    type: "system",
    subtype: "permission_denied",
    tool_name: options.toolName,
    tool_use_id: options.toolUseId,
    ...(options.decisionReasonType !== undefined
      ? { decision_reason_type: options.decisionReasonType }
      : {}),
    ...(options.decisionReasonCode !== undefined
      ? { decision_reason_code: options.decisionReasonCode }
      : {}),
    ...(options.decisionReason !== undefined ? { decision_reason: options.decisionReason } : {}),
    message: options.message,
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}
