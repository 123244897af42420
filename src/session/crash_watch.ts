/**
 * Where a crash happens, by meaning: the engine shows each frame to a `CrashWatch` before
 * and after writing it, and the watch says when an armed crash point is reached. It counts
 * the main thread's assistant messages (one API response each: its frames, and with
 * partial messages its stream events up to `message_stop`), its tool results, and the
 * stream events of the message being written.
 *
 * @module
 */

import type { CrashPoint } from "../scenario/crash_point.ts";
import type { CrashStep } from "../scenario/step.ts";
import type { Frame, RawLine } from "../wire/frame.ts";
import type { TurnState } from "./turn_state.ts";

/** One crash point waiting to be reached. */
interface Armed {
  /** The exit code. */
  code: number;
  /** What it is, for reports. */
  what: string;
  /** Crash right after this many frames were written in all. */
  frames?: number;
  /** Crash right after this many assistant messages were complete. */
  messages?: number;
  /** Crash just before tool result number `toolResult` (from 1). */
  toolResult?: number;
  /** Crash after `events` stream events of the message after `after` complete ones. */
  midStream?: { after: number; events: number };
  /** A crash step's: it crashes before this turn's result at the latest. */
  turn?: TurnState;
}

/** The message being written. */
interface OpenMessage {
  id: string;
  /** Whether it streams (began with `message_start`). */
  streamed: boolean;
  /** Stream events written so far. */
  events: number;
  /** Its frames, when the engine's message step writes it (its end is then known). */
  frames?: readonly Frame[];
}

/** Watches the frames a session writes for its crash points. */
export class CrashWatch {
  #armed: Armed[] = [];
  #messages = 0;
  #toolResults = 0;
  #open?: OpenMessage;

  /** Starts watching; `point` is the scenario's `crashAfter`, if any. */
  constructor(point?: CrashPoint) {
    if (point) this.#armed.push(armedPoint(point));
  }

  /** Assistant messages complete so far. */
  get messages(): number {
    return this.#messages;
  }

  /** Tool results written so far. */
  get toolResults(): number {
    return this.#toolResults;
  }

  /** The crash points not reached yet, described (`crashAfter {"assistantMessages":2}`). */
  pending(): string[] {
    return this.#armed.map((a) => a.what);
  }

  /** Arms a `crash` step placed in the message that follows it (in `turn`). */
  arm(step: CrashStep, turn: TurnState): void {
    const code = step.code ?? 1;
    if (step.midStream !== undefined) {
      this.#armed.push({
        code,
        what: `crash { midStream: ${step.midStream} }`,
        midStream: { after: this.#messages, events: step.midStream },
        turn,
      });
    } else {
      this.#armed.push({
        code,
        what: "crash { beforeToolResult: true }",
        toolResult: this.#toolResults + 1,
        turn,
      });
    }
  }

  /** Before `frame` is written: the exit code to crash with instead, or `undefined`. */
  before(frame: Frame | RawLine, turn: TurnState | undefined): number | undefined {
    if (this.#armed.length === 0 && !this.#open) return undefined;
    const f = frame as Frame;
    // a message the engine did not write itself (emitted frames) ends at the first frame
    // that is not part of it
    if (this.#open && !this.#open.frames && !this.#partOfOpen(f)) {
      this.#open = undefined;
      this.#messages++;
      const code = this.#afterMessage();
      if (code !== undefined) return code;
    }
    for (let i = 0; i < this.#armed.length; i++) {
      const a = this.#armed[i];
      let fire = false;
      if (a.toolResult !== undefined && isToolResult(f)) {
        fire = this.#toolResults + 1 >= a.toolResult;
      }
      if (a.midStream && this.#messages === a.midStream.after && isMain(f)) {
        if (f.type === "stream_event") {
          const events = eventType(f) === "message_start" || !this.#open?.streamed
            ? 1
            : this.#open.events + 1;
          fire ||= events > a.midStream.events;
        } else if (isAssistant(f)) {
          // nothing more of the message once it is cut; one that does not stream is cut
          // before its first frame
          fire = !this.#open?.streamed || this.#open.events >= a.midStream.events;
        }
      }
      if (a.turn && f.type === "result" && turn === a.turn) fire = true;
      if (fire) return this.#fire(i);
    }
    return undefined;
  }

  /** After `frame` was written (`count` frames in all): the exit code to crash with, if any. */
  after(frame: Frame | RawLine, turn: TurnState | undefined, count: number): number | undefined {
    const f = frame as Frame;
    for (let i = 0; i < this.#armed.length; i++) {
      const frames = this.#armed[i].frames;
      if (frames !== undefined && count >= frames) return this.#fire(i);
    }
    if (isToolResult(f)) {
      this.#toolResults++;
      return undefined;
    }
    if (!isMain(f)) return undefined;
    let ended = false;
    if (f.type === "stream_event") {
      const type = eventType(f);
      if (type === "message_start") {
        const id = (f.event as { message?: { id?: unknown } }).message?.id;
        this.#open = {
          id: typeof id === "string" ? id : "",
          streamed: true,
          events: 1,
          frames: turn?.streaming?.frames,
        };
      } else if (this.#open?.streamed) {
        this.#open.events++;
        ended = type === "message_stop";
      }
    } else if (isAssistant(f)) {
      const id = String((f.message as { id?: unknown }).id ?? "");
      if (!this.#open || (!this.#open.streamed && this.#open.id !== id)) {
        this.#open = { id, streamed: false, events: 0, frames: turn?.streaming?.frames };
      }
      const frames = this.#open.frames;
      ended = !this.#open.streamed && frames !== undefined && frames.at(-1) === frame;
    }
    if (!ended) return undefined;
    this.#open = undefined;
    this.#messages++;
    return this.#afterMessage();
  }

  /** A message just ended: a point right after it, or a cut that came too late, fires. */
  #afterMessage(): number | undefined {
    for (let i = 0; i < this.#armed.length; i++) {
      const a = this.#armed[i];
      if (
        (a.messages !== undefined && this.#messages >= a.messages) ||
        (a.midStream && this.#messages > a.midStream.after)
      ) return this.#fire(i);
    }
    return undefined;
  }

  #partOfOpen(f: Frame): boolean {
    const open = this.#open!;
    if (!isMain(f)) return false;
    if (f.type === "stream_event") return open.streamed && eventType(f) !== "message_start";
    return isAssistant(f) && (open.streamed || (f.message as { id?: unknown }).id === open.id);
  }

  #fire(i: number): number {
    const [armed] = this.#armed.splice(i, 1);
    return armed.code;
  }
}

function armedPoint(point: CrashPoint): Armed {
  const code = point.code ?? 1;
  const what = `crashAfter ${JSON.stringify({ ...point, code: undefined })}`;
  if (point.frames !== undefined) return { code, what, frames: point.frames };
  if (point.beforeToolResult !== undefined) {
    return { code, what, toolResult: point.beforeToolResult === true ? 1 : point.beforeToolResult };
  }
  if (point.midStream !== undefined) {
    return {
      code,
      what,
      midStream: { after: point.assistantMessages ?? 0, events: point.midStream },
    };
  }
  return { code, what, messages: point.assistantMessages ?? 1 };
}

/** A frame of the main thread (not a subagent's). */
function isMain(f: Frame): boolean {
  return (f as { parent_tool_use_id?: unknown }).parent_tool_use_id == null;
}

/** An assistant frame of an API response (not the synthetic API-error message). */
function isAssistant(f: Frame): f is Frame & { message: Record<string, unknown> } {
  if (f.type !== "assistant") return false;
  const message = (f as { message?: { model?: unknown } }).message;
  return typeof message === "object" && message !== null && message.model !== "<synthetic>";
}

/** A user frame carrying a tool result of the main thread. */
function isToolResult(f: Frame): boolean {
  if (f.type !== "user" || !isMain(f)) return false;
  const content = (f as { message?: { content?: unknown } }).message?.content;
  return Array.isArray(content) &&
    content.some((block) => (block as { type?: unknown })?.type === "tool_result");
}

function eventType(f: Frame): unknown {
  return (f.event as { type?: unknown } | undefined)?.type;
}
