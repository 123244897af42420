/**
 * Encoded lines that differ from one use to the next in a single string value (a uuid, a
 * request id): the rest is encoded once, and each use costs two copies and the value.
 *
 * @module
 */

import type { BuildContext } from "../builders/build_context.ts";
import { type SessionState, sessionStateChanged } from "../builders/system.ts";
import type { IdGenerator } from "../builders/ids.ts";
import type { Frame } from "../wire/frame.ts";
import type { Outgoing } from "./outbox.ts";
import { lineBytes } from "./_line_slab.ts";

const ENCODER = new TextEncoder();
/** Put where the varying value goes when building a template's frame. */
const SLOT = "\u0000claude-mock-slot\u0000";
const SLOT_JSON = JSON.stringify(SLOT);

const QUOTE = 0x22;

/** Whether `value` is printable ASCII with nothing JSON escapes (no `"`, no `\\`). */
function plainAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === QUOTE || c === 0x5c) return false;
  }
  return true;
}

interface Template {
  before: Uint8Array;
  after: Uint8Array;
}

/** A bounded cache of line templates by key. */
class LineTemplates {
  #cache = new Map<string, Template>();

  /** Whether a template for `key` is cached. */
  has(key: string): boolean {
    return this.#cache.has(key);
  }

  /**
   * The encoded line (with its newline) of the frame `build` returns when given `value`:
   * `build(SLOT)` is encoded once per `key` and split at the slot.
   */
  line(key: string, value: string, build: (slot: string) => unknown): Uint8Array {
    let template = this.#cache.get(key);
    if (!template) {
      const json = JSON.stringify(build(SLOT)) + "\n";
      const at = json.indexOf(SLOT_JSON);
      if (at < 0 || json.indexOf(SLOT_JSON, at + 1) >= 0) {
        throw new TypeError("claude-mock: a line template must hold its slot exactly once");
      }
      template = {
        before: ENCODER.encode(json.slice(0, at)),
        after: ENCODER.encode(json.slice(at + SLOT_JSON.length)),
      };
      if (this.#cache.size >= 256) this.#cache.clear();
      this.#cache.set(key, template);
    }
    const { before, after } = template;
    if (plainAscii(value)) {
      // an id: its JSON is itself in quotes, one byte a character (no encoder call)
      const n = value.length;
      const out = lineBytes(before.length + n + 2 + after.length);
      out.set(before, 0);
      let at = before.length;
      out[at++] = QUOTE;
      for (let i = 0; i < n; i++) out[at++] = value.charCodeAt(i);
      out[at++] = QUOTE;
      out.set(after, at);
      return out;
    }
    const middle = ENCODER.encode(JSON.stringify(value));
    const out = lineBytes(before.length + middle.length + after.length);
    out.set(before, 0);
    out.set(middle, before.length);
    out.set(after, before.length + middle.length);
    return out;
  }
}

/** The templates every session shares. */
export const LINE_TEMPLATES: LineTemplates = new LineTemplates();

/** What the output needs of a state frame it is handed already encoded. */
const STATE_FRAMES: Readonly<Record<SessionState, Frame>> = Object.freeze({
  running: Object.freeze({ type: "system", subtype: "session_state_changed", state: "running" }),
  idle: Object.freeze({ type: "system", subtype: "session_state_changed", state: "idle" }),
  requires_action: Object.freeze({
    type: "system",
    subtype: "session_state_changed",
    state: "requires_action",
  }),
});

/** Ids that hand out the slot: a template's frame is built without drawing an id. */
const SLOT_IDS = { uuid: () => SLOT } as unknown as IdGenerator;

/**
 * A `session_state_changed` frame to send (`delay: 0`): only its uuid changes from one to the
 * next, so the rest is encoded once per session id and state, and unless the session keeps
 * what it sends (`keepFrames`) the frame is not even built. The same uuid is drawn either way.
 */
export function stateChange(
  ctx: BuildContext,
  state: SessionState,
  keepFrames: boolean,
): Outgoing {
  if (keepFrames) return { frame: sessionStateChanged(ctx, state), delay: 0 };
  const bytes = LINE_TEMPLATES.line(
    `state|${state}|${ctx.sessionId}`,
    ctx.ids.uuid(),
    () => sessionStateChanged({ ...ctx, ids: SLOT_IDS }, state),
  );
  return { frame: STATE_FRAMES[state], bytes, delay: 0 };
}
