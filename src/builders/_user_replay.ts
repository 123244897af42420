/**
 * The echo of a user line with `--replay-user-messages` (stream-json input and output): the
 * message as it came, with the session's id, a uuid, a timestamp and `isReplay: true`, in the
 * key order the real CLI 2.1.332 writes it (after the turn's `system/init`). Internal.
 *
 * @internal
 * @module
 */

import type { Frame } from "../wire/frame.ts";
import { timestampOf } from "./_common.ts";
import type { BuildContext } from "./build_context.ts";

/** The replayed user line of `input` (a `user` frame the client wrote). */
export function userReplay(ctx: BuildContext, input: Record<string, unknown>): Frame {
  return {
    type: "user",
    message: input.message,
    session_id: ctx.sessionId,
    parent_tool_use_id: input.parent_tool_use_id ?? null,
    uuid: typeof input.uuid === "string" ? input.uuid : ctx.ids.uuid(),
    timestamp: timestampOf(ctx),
    isReplay: true,
  };
}
