/**
 * Encoded lines that differ from one use to the next in a single string value (a uuid, a
 * request id): the rest is encoded once, and each use costs two copies and the value.
 *
 * @module
 */

const ENCODER = new TextEncoder();
/** Put where the varying value goes when building a template's frame. */
const SLOT = "\u0000claude-mock-slot\u0000";
const SLOT_JSON = JSON.stringify(SLOT);

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
    const middle = ENCODER.encode(JSON.stringify(value));
    const out = new Uint8Array(template.before.length + middle.length + template.after.length);
    out.set(template.before, 0);
    out.set(middle, template.before.length);
    out.set(template.after, template.before.length + middle.length);
    return out;
  }
}

/** The templates every session shares. */
export const LINE_TEMPLATES: LineTemplates = new LineTemplates();
