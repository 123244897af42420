/**
 * The session a print run plays: `--session-id`, `--resume` (with `--resume-session-at`,
 * `--fork-session`) and `-c` checked and resolved against the transcripts, as the real CLI
 * does. Internal.
 *
 * @internal
 * @module
 */

import { startupErrorResult } from "../builders/_startup_result.ts";
import { IdGenerator } from "../builders/ids.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { hasMessage, hasTranscript, latestSession } from "./cli_state.ts";
import { CliUsageError, type ParsedArgv } from "./parse_argv.ts";

/**
 * `--session-id`, `--resume`, `-c`: the session id to use (none for a new one), and the
 * session resumed or continued (whose usage the run goes on from, forked or not).
 */
export async function resolveSession(
  parsed: ParsedArgv,
  { projects, outputFormat, scenario }: {
    projects: string;
    outputFormat: string;
    scenario: Scenario;
  },
): Promise<{ sessionId?: string; resumed?: string }> {
  const fork = parsed.options.has("--fork-session");
  const id = parsed.options.get("--session-id");
  if (typeof id === "string") {
    if (await hasTranscript(projects, id)) {
      throw new CliUsageError(`Error: Session ID ${id} is already in use.`);
    }
    return { sessionId: id };
  }
  const resume = parsed.options.get("--resume");
  if (typeof resume === "string") {
    const at = parsed.options.get("--resume-session-at");
    const missing = !(await hasTranscript(projects, resume))
      ? `No conversation found with session ID: ${resume}`
      : typeof at === "string" && !(await hasMessage(projects, resume, at))
      ? `No message found with message.uuid of: ${at}`
      : undefined;
    if (missing !== undefined) {
      if (outputFormat !== "stream-json") throw new CliUsageError(missing);
      // as the real CLI: in stream-json, also an error result (the resumed id, or a forked one)
      const ids = new IdGenerator({ seed: scenario.seed ?? 0 });
      const sessionId = fork ? ids.uuid() : resume;
      const frame = startupErrorResult(sessionId, { uuid: ids.uuid(), errors: [missing] });
      throw new CliUsageError(missing, 1, `${JSON.stringify(frame)}\n`);
    }
    return fork ? { resumed: resume } : { sessionId: resume, resumed: resume };
  }
  if (parsed.options.has("--continue")) {
    const latest = await latestSession(projects);
    if (latest === undefined) return {};
    return fork ? { resumed: latest } : { sessionId: latest, resumed: latest };
  }
  return {};
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Refuses a `--session-id` or `--resume` that is not a UUID, as the real CLI does. */
export function checkSessionFlags(parsed: ParsedArgv): void {
  const id = parsed.options.get("--session-id");
  if (typeof id === "string" && !UUID.test(id)) {
    throw new CliUsageError("Error: Invalid session ID. Must be a valid UUID.");
  }
  const resume = parsed.options.get("--resume");
  if (typeof resume === "string" && !UUID.test(resume)) {
    throw new CliUsageError(
      `Error: --resume requires a valid session ID or session title ` +
        `when used with --print. Usage: claude -p --resume <session-id|title>. ` +
        `Provided value "${resume}" is not a UUID and does not match ` +
        `any session title.`,
    );
  }
}
