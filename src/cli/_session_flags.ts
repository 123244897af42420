/**
 * The session a print run plays: `--session-id`, `--resume` (with `--resume-session-at`,
 * `--fork-session`) and `-c` checked and resolved against the transcripts, as the real CLI
 * does. Internal.
 *
 * @internal
 * @module
 */

import type { Scenario } from "../scenario/scenario.ts";
import {
  openSession,
  type SessionRecords,
  type SessionRequest,
  type SessionStart,
} from "../session/_session_opening.ts";
import {
  hasMessage,
  hasTranscript,
  lastContext,
  lastModelUsage,
  latestSession,
} from "./cli_state.ts";
import { CliUsageError, type ParsedArgv } from "./parse_argv.ts";

/**
 * `--session-id`, `--resume`, `-c`: the session id to use (none for a new one), the session
 * resumed or continued and what it had used (its last result's `modelUsage`, which the run
 * goes on from, forked or not), decided as the in-process mock decides against its
 * `SessionStore` (`openSession`), from what the project's transcript files say. A refusal
 * throws a `CliUsageError` (with the error result on stdout in stream-json).
 */
export async function resolveSession(
  parsed: ParsedArgv,
  { projects, outputFormat, scenario }: {
    projects: string;
    outputFormat: string;
    scenario: Scenario;
  },
): Promise<SessionStart> {
  const text = (name: string) => {
    const value = parsed.options.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const request: SessionRequest = {
    ...(text("--session-id") !== undefined ? { sessionId: text("--session-id") } : {}),
    ...(text("--resume") !== undefined ? { resume: text("--resume") } : {}),
    ...(text("--resume-session-at") !== undefined ? { resumeAt: text("--resume-session-at") } : {}),
    ...(parsed.options.has("--continue") ? { continue: true } : {}),
    ...(parsed.options.has("--fork-session") ? { fork: true } : {}),
  };
  const opening = openSession(request, await fileRecords(projects, request), {
    seed: scenario.seed ?? 0,
  });
  if (!("refusal" in opening)) return opening;
  // as the real CLI: in stream-json, also an error result (the resumed id, or a forked one)
  const stdout = outputFormat === "stream-json" && opening.result !== undefined
    ? `${JSON.stringify(opening.result)}\n`
    : undefined;
  throw new CliUsageError(opening.refusal, 1, stdout);
}

/**
 * What the transcript files say about the sessions `request` names (each looked up once,
 * before the decision): whether each has a transcript, the project's latest for `-c`, the
 * message of `--resume-session-at`, the last usage of a session it may go on from.
 */
async function fileRecords(projects: string, request: SessionRequest): Promise<SessionRecords> {
  const named = [request.sessionId, request.resume].filter((id) => id !== undefined);
  const exists = new Map<string, boolean>();
  for (const id of named) exists.set(id, await hasTranscript(projects, id));
  const latest = request.sessionId === undefined && request.resume === undefined &&
      request.continue
    ? await latestSession(projects)
    : undefined;
  if (latest !== undefined) exists.set(latest, true);
  const at = request.resume !== undefined && request.resumeAt !== undefined &&
      exists.get(request.resume)
    ? await hasMessage(projects, request.resume, request.resumeAt)
    : false;
  const usage = new Map<string, Awaited<ReturnType<typeof lastModelUsage>>>();
  const context = new Map<string, number | undefined>();
  for (const id of [request.resume, latest]) {
    if (id === undefined || !exists.get(id)) continue;
    usage.set(id, await lastModelUsage(projects, id));
    context.set(id, await lastContext(projects, id));
  }
  return {
    has: (id) => exists.get(id) ?? false,
    latest: () => latest,
    hasMessage: (id, uuid) => id === request.resume && uuid === request.resumeAt && at,
    lastModelUsage: (id) => usage.get(id),
    lastContext: (id) => context.get(id),
  };
}
