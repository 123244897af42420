/**
 * Which session a run plays, from `--session-id`, `--resume` (with `--resume-session-at`,
 * `--fork-session`) and `--continue`, checked against the transcripts a run can see, as the
 * real CLI checks them: the one decision the fake binary (transcripts in files) and the
 * in-process mock (a {@linkcode SessionStore}) both make. Internal.
 *
 * @internal
 * @module
 */

import { startupErrorResult } from "../builders/_startup_result.ts";
import { IdGenerator } from "../builders/ids.ts";
import type { ModelUsageEntry } from "../builders/usage.ts";
import type { CliFlags } from "./cli_args.ts";

/** The session flags of a command line. */
export interface SessionRequest {
  /** `--session-id`. */
  sessionId?: string;
  /** `--resume`. */
  resume?: string;
  /** `--resume-session-at`: the message of the resumed session to go on from. */
  resumeAt?: string;
  /** `--continue`. */
  continue?: boolean;
  /** `--fork-session`. */
  fork?: boolean;
}

/** What a run knows of the project's earlier sessions (its transcripts). */
export interface SessionRecords {
  /** Whether a session has a transcript. */
  has(sessionId: string): boolean;
  /** The project's most recent session, if any. */
  latest(): string | undefined;
  /** Whether a session's transcript has a message with this `uuid`. */
  hasMessage(sessionId: string, uuid: string): boolean;
  /** The `modelUsage` of a session's last result. */
  lastModelUsage(sessionId: string): Record<string, ModelUsageEntry> | undefined;
  /** The context a session's last API call ended with (its tokens), when known. */
  lastContext?(sessionId: string): number | undefined;
}

/** A session a run may play: its id (none for a new one) and what it goes on from. */
export interface SessionStart {
  /** The session id to use; none for a new session. */
  sessionId?: string;
  /** The session resumed or continued (forked or not). */
  resumed?: string;
  /** What the resumed session had used, by model (its last result's `modelUsage`). */
  resumedUsage?: Record<string, ModelUsageEntry>;
  /** The context the resumed session's last API call ended with, when known. */
  resumedContext?: number;
}

/**
 * Why a run cannot start: the line the real CLI writes to stderr (before it exits 1), and,
 * for a session it cannot resume, the `error_during_execution` result it writes in
 * stream-json.
 */
export interface SessionRefusal {
  /** The stderr text (without its newline). */
  refusal: string;
  /** The stream-json result, when the real CLI writes one. */
  result?: Record<string, unknown>;
}

/** What the real CLI takes as a session id (case aside). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The session flags among the engine's parsed flags. */
export function sessionRequestOf(flags: CliFlags): SessionRequest {
  return {
    ...(flags.sessionId !== undefined ? { sessionId: flags.sessionId } : {}),
    ...(flags.resume !== undefined ? { resume: flags.resume } : {}),
    ...(flags.resumeSessionAt !== undefined ? { resumeAt: flags.resumeSessionAt } : {}),
    ...(flags.continue ? { continue: true } : {}),
    ...(flags.forkSession ? { fork: true } : {}),
  };
}

/**
 * The session a run plays, or why it cannot start, as the real CLI (2.1.328 to 2.1.332)
 * decides: a `--session-id` or a `--resume` that is no UUID is refused (the resume with an
 * error result under a fresh id); a `--session-id` with a transcript is in use; a `--resume` without one (or at a
 * message it lacks) finds no conversation (the error result carries the resumed id, or a
 * fresh one drawn from `seed` when forking); `--continue` takes the most recent session, or
 * starts a new one when there is none. A resumed session keeps its id unless forked, and
 * goes on from its last result's usage either way.
 */
export function openSession(
  request: SessionRequest,
  records: SessionRecords,
  { seed }: { seed: bigint | number },
): SessionStart | SessionRefusal {
  const { sessionId, resume, fork } = request;
  if (sessionId !== undefined && !UUID.test(sessionId)) {
    return { refusal: "Error: Invalid session ID. Must be a valid UUID." };
  }
  if (resume !== undefined && !UUID.test(resume)) {
    // a session title would do too; sessions here have none (the real CLI's come from /rename)
    const refusal = `Error: --resume requires a valid session ID or session title when used ` +
      `with --print. Usage: claude -p --resume <session-id|title>. Provided value ` +
      `"${resume}" is not a UUID and does not match any session title.`;
    const ids = new IdGenerator({ seed });
    return {
      refusal,
      result: startupErrorResult(ids.uuid(), { uuid: ids.uuid(), errors: [refusal] }),
    };
  }
  if (sessionId !== undefined) {
    if (records.has(sessionId)) {
      return { refusal: `Error: Session ID ${sessionId} is already in use.` };
    }
    return { sessionId };
  }
  let resumed = resume;
  if (resume !== undefined) {
    const at = request.resumeAt;
    const missing = !records.has(resume)
      ? `No conversation found with session ID: ${resume}`
      : at !== undefined && !records.hasMessage(resume, at)
      ? `No message found with message.uuid of: ${at}`
      : undefined;
    if (missing !== undefined) {
      const ids = new IdGenerator({ seed });
      const id = fork ? ids.uuid() : resume;
      return {
        refusal: missing,
        result: startupErrorResult(id, { uuid: ids.uuid(), errors: [missing] }),
      };
    }
  } else if (request.continue) resumed = records.latest();
  if (resumed === undefined) return {};
  const usage = records.lastModelUsage(resumed);
  const context = records.lastContext?.(resumed);
  return {
    ...(fork ? {} : { sessionId: resumed }),
    resumed,
    ...(usage !== undefined ? { resumedUsage: usage } : {}),
    ...(context !== undefined ? { resumedContext: context } : {}),
  };
}
