/**
 * `SessionStore`: the transcripts of in-process sessions, kept in memory, so that a later
 * session resumes, continues or forks an earlier one as the real CLI does from its config
 * folder (`--resume`, `--continue`, `--fork-session`, `--session-id`, `--resume-session-at`).
 *
 * @module
 */

import type { ModelUsageEntry } from "../builders/usage.ts";
import { encodeFrame } from "../wire/encode_frame.ts";
import type { Frame } from "../wire/frame.ts";

/**
 * The transcripts of mock sessions, in memory: what the real CLI keeps in its config folder
 * (`projects/<slug of cwd>/<session>.jsonl`) and the fake binary in its own. Sessions given
 * the same store (`MockTransport`'s `sessionStore` option; every query of one `mockClaude()`
 * mock shares the mock's) see each other's transcripts, as runs of the real CLI do: a
 * `resume` of a session the store holds goes on from it (its id kept, or a new one with
 * `forkSession`; its results' `modelUsage` and `total_cost_usd` from the earlier ones'),
 * `continue` takes the project's most recent session, and a `resume` of an id it does not hold
 * fails, as does a `sessionId` it holds already, as the real CLI fails. A session records the
 * prompts it took and the messages, `system/init` frames, results and compact boundaries it
 * wrote, as it writes them (unless the client passed `--no-session-persistence`, the SDK's
 * `persistSession: false`), each as its JSON text, as the real CLI's transcript file keeps it
 * (a few hundred bytes a message, parsed again when `transcript()` asks). Nothing leaves
 * memory until `delete()` or `clear()`: a new store starts empty.
 *
 * @example Two transports sharing one store
 * ```ts
 * import { MockTransport, runQuery, ScenarioBuilder, SessionStore } from "@x/claude-mock";
 * const scenario = new ScenarioBuilder().on("first").respond("One.")
 *   .on("second").respond("Two.").build();
 * const sessionStore = new SessionStore();
 * const first = await runQuery(new MockTransport(scenario, { sessionStore }), "first");
 * const id = first.result!.session_id as string;
 * const second = await runQuery(new MockTransport(scenario, { sessionStore }), "second", {
 *   resume: id,
 * });
 * console.log(second.result!.session_id === id); // true
 * console.log(sessionStore.transcript(id)!.filter((f) => f.type === "result").length); // 2
 * ```
 */
export class SessionStore {
  // by session id, in the order they were last written to (the last is the most recent)
  #sessions: Map<string, StoredSession> = new Map();

  /** An empty store. */
  constructor() {
    stored.set(this, this.#sessions);
  }

  /** How many sessions it holds. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Whether it holds a transcript for `sessionId`. */
  has(sessionId: string): boolean {
    return this.#sessions.has(sessionId);
  }

  /** The ids of the sessions it holds, the least recently written first. */
  sessionIds(): string[] {
    return [...this.#sessions.keys()];
  }

  /**
   * The most recently written session of the project in `cwd` (what `continue` resumes), or
   * `undefined` when it holds none there.
   */
  latest(cwd: string): string | undefined {
    let found: string | undefined;
    for (const [id, session] of this.#sessions) if (session.cwd === cwd) found = id;
    return found;
  }

  /**
   * A session's transcript: the prompts it took and what it wrote that the real CLI keeps
   * (copies), or `undefined` when it holds no such session.
   */
  transcript(sessionId: string): Frame[] | undefined {
    const session = this.#sessions.get(sessionId);
    return session ? session.lines.map((line) => JSON.parse(textOf(line))) : undefined;
  }

  /** Forgets a session; whether it held one. */
  delete(sessionId: string): boolean {
    return this.#sessions.delete(sessionId);
  }

  /** Forgets every session. */
  clear(): void {
    this.#sessions.clear();
  }
}

/**
 * A line that is the session's last full `system/init` line but for its uuid: each turn writes
 * one, the same but for that (about 3 KB a turn, kept as a few dozen bytes).
 */
interface SameInit {
  prefix: string;
  uuid: string;
  suffix: string;
}

/** A transcript line, or one like an earlier one. */
type Line = string | SameInit;

function textOf(line: Line): string {
  return typeof line === "string" ? line : line.prefix + line.uuid + line.suffix;
}

/** A session's transcript and the project it belongs to. */
interface StoredSession {
  cwd: string;
  /** Its frames, each as its JSON text (shared with a fork's copy: strings do not change). */
  lines: Line[];
  /** Its last full `system/init` line, split around its uuid. */
  init?: { prefix: string; suffix: string };
  /** The index in `lines` of its last result with a `modelUsage` (-1: none yet). */
  lastUsage: number;
  /** The context its last API call ended with, as of its last result. */
  lastContext?: number;
}

const DECODER = new TextDecoder();

const stored = new WeakMap<SessionStore, Map<string, StoredSession>>();

/**
 * Adds a frame to a session's transcript in the project `cwd`, if the real CLI keeps such a
 * frame (a user or assistant message, a result, `system/init`, a compact boundary); the
 * session becomes the most recent. Sessions call it as they run. Internal.
 *
 * @internal
 */
export function recordFrame(
  store: SessionStore,
  { sessionId, cwd, lastContext }: { sessionId: string; cwd: string; lastContext?: number },
  frame: Frame,
  bytes?: Uint8Array,
): void {
  if (!transcribed(frame)) return;
  let line: string;
  try {
    // its text now: what the session goes on to do with the object is not the transcript's
    // (a frame written as bytes made before, a later system/init, is its line)
    line = bytes ? DECODER.decode(bytes).trimEnd() : encodeFrame(frame).trimEnd();
  } catch {
    // a frame that cannot be encoded is not written either (its send fails): nothing to keep
    return;
  }
  const usage = frame.modelUsage;
  const withUsage = frame.type === "result" && typeof usage === "object" && usage !== null;
  const session = sessionOf(store, { sessionId, cwd });
  const entry = frame.type === "system" && frame.subtype === "init"
    ? initLine(session, line)
    : line;
  addLine(session, entry, withUsage);
  if (frame.type === "result" && lastContext !== undefined) {
    stored.get(store)!.get(sessionId)!.lastContext = lastContext;
  }
}

/**
 * Starts `sessionId`'s transcript (in the project `cwd`) with a copy of `from`'s, as a fork
 * begins: the lines are shared, not copied. Internal.
 *
 * @internal
 */
export function copyTranscript(
  store: SessionStore,
  { sessionId, cwd }: { sessionId: string; cwd: string },
  from: string,
): void {
  const source = stored.get(store)!.get(from);
  if (!source) return;
  const copy = sessionOf(store, { sessionId, cwd });
  for (const [i, line] of source.lines.entries()) addLine(copy, line, i === source.lastUsage);
  if (source.lastContext !== undefined) copy.lastContext ??= source.lastContext;
  if (source.init) copy.init ??= source.init;
}

/** A session's record (made when new), now the most recently written. */
function sessionOf(
  store: SessionStore,
  { sessionId, cwd }: { sessionId: string; cwd: string },
): StoredSession {
  const sessions = stored.get(store)!;
  let session = sessions.get(sessionId);
  if (session) sessions.delete(sessionId);
  else session = { cwd, lines: [], lastUsage: -1 };
  sessions.set(sessionId, session);
  return session;
}

function addLine(session: StoredSession, line: Line, usage: boolean): void {
  if (usage) session.lastUsage = session.lines.length;
  session.lines.push(line);
}

/**
 * A `system/init` line as kept: the session's last one but for its uuid when it is that (checked
 * in full), else the line itself, which becomes the one later ones are compared with.
 */
function initLine(session: StoredSession, line: string): Line {
  const at = line.lastIndexOf('"uuid":"');
  const end = at < 0 ? -1 : line.indexOf('"', at + 8);
  if (end < 0) return line;
  const start = at + 8;
  const base = session.init;
  if (
    base && line.length === base.prefix.length + (end - start) + base.suffix.length &&
    line.startsWith(base.prefix) && line.endsWith(base.suffix)
  ) {
    // parsed out: a slice of the line would keep the whole line alive
    return {
      prefix: base.prefix,
      uuid: JSON.parse(line.slice(start - 1, end + 1)),
      suffix: base.suffix,
    };
  }
  session.init = { prefix: line.slice(0, start), suffix: line.slice(end) };
  return line;
}

/** The context a session's last API call ended with, as of its last result. Internal. @internal */
export function lastContext(store: SessionStore, sessionId: string): number | undefined {
  return stored.get(store)!.get(sessionId)?.lastContext;
}

/** Whether a session's transcript has a message whose `uuid` is `uuid`. Internal. @internal */
export function hasMessage(store: SessionStore, sessionId: string, uuid: string): boolean {
  const lines = stored.get(store)!.get(sessionId)?.lines ?? [];
  const needle = JSON.stringify(uuid);
  // only a line that holds the text can be the message: those are parsed
  return lines.some((line) =>
    typeof line === "string"
      ? line.includes(needle) && JSON.parse(line).uuid === uuid
      : line.uuid === uuid
  );
}

/**
 * The `modelUsage` of a session's last result: what it had used by model when it last ended
 * (`undefined` without the session or a result in it). Internal.
 *
 * @internal
 */
export function lastModelUsage(
  store: SessionStore,
  sessionId: string,
): Record<string, ModelUsageEntry> | undefined {
  const session = stored.get(store)!.get(sessionId);
  if (!session || session.lastUsage < 0) return undefined;
  return JSON.parse(textOf(session.lines[session.lastUsage])).modelUsage;
}

const runs = new WeakMap<SessionStore, number>();

/**
 * Counts a run of a session on `store` (as the fake binary counts its runs in its state
 * folder): 1 for the first. Hosts that start sessions without an `invocation` of their own
 * (`MockTransport`) make the n-th the scenario's invocation n with the seed moved by n - 1, so
 * that sessions sharing a store never draw the same ids. Internal.
 *
 * @internal
 */
export function claimRun(store: SessionStore): number {
  const n = (runs.get(store) ?? 0) + 1;
  runs.set(store, n);
  return n;
}

/**
 * Whether a transcript keeps a frame, as the real CLI's (and the fake binary's, which tests
 * the lines): user and assistant messages, results, `system/init` and compact boundaries.
 */
function transcribed(frame: Frame): boolean {
  return frame.type === "user" || frame.type === "assistant" || frame.type === "result" ||
    (frame.type === "system" && (frame.subtype === "init" || frame.subtype === "compact_boundary"));
}
