/**
 * Deterministic ids for frames: message, tool use, request and session ids and uuids,
 * all drawn from one seeded generator so the same seed gives the same ids.
 *
 * @module
 */

import { Pcg32, type Prng } from "../random/pcg32.ts";
import type { Uuid } from "../wire/frame.ts";

/** Character codes of the base62 digits, `0-9A-Za-z`. */
const BASE62 = codes("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
/** Character codes of the lowercase hex digits. */
const HEX = codes("0123456789abcdef");
/** Character codes of the base36 digits, as `Number.prototype.toString(36)` writes them. */
const BASE36 = codes("0123456789abcdefghijklmnopqrstuvwxyz");
const DASH = 45;
const FOUR = 52;

/** Options for {@linkcode IdGenerator}. */
export interface IdGeneratorOptions {
  /** Seed for the ids (default 0). Ignored when `prng` is given. */
  seed?: bigint | number;
  /** A float source in `[0, 1)` to draw from instead of a seeded PCG32. */
  prng?: Prng;
}

function codes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * Where ids are spelled: character codes turned into one flat string at once (no chain of
 * concatenated pieces for JSON.stringify to flatten later). Shared: an id is written and
 * read out before the next one starts.
 */
const SPELL = new Uint16Array(36);

function spelled(length: number): string {
  return String.fromCharCode.apply(null, SPELL.subarray(0, length) as unknown as number[]);
}

/** Writes the 8 hex digits of the 32-bit `word` from nibble `from` to nibble `to` (exclusive) at `at`. */
function hexInto(word: number, from: number, to: number, at: number): number {
  for (let i = from; i < to; i++) SPELL[at++] = HEX[(word >>> (28 - 4 * i)) & 15];
  return at;
}

/**
 * Makes ids in the real API's and CLI's formats (`msg_01…`, `toolu_01…`, `req_01…`,
 * UUID v4) from a seeded generator.
 *
 * @example Deterministic ids
 * ```ts
 * import { IdGenerator } from "@x/claude-mock/builders";
 * const a = new IdGenerator({ seed: 7 });
 * const b = new IdGenerator({ seed: 7 });
 * if (a.messageId() !== b.messageId()) throw new Error("ids differ");
 * console.log(a.toolUseId()); // toolu_01…
 * ```
 */
export class IdGenerator {
  #next: () => number;

  /** Creates a generator from a seed or a prng. */
  constructor(options: IdGeneratorOptions = {}) {
    if (options.prng) {
      const prng = options.prng;
      this.#next = () => Math.floor(prng() * 2 ** 32) >>> 0;
    } else {
      const pcg = new Pcg32(options.seed ?? 0);
      this.#next = () => pcg.nextU32();
    }
  }

  /** A UUID v4 string. */
  uuid(): Uuid {
    // 32 hex digits of 4 draws, version 4 at digit 12, the variant (8-b) at digit 16
    const w0 = this.#next(), w1 = this.#next(), w2 = this.#next(), w3 = this.#next();
    let at = hexInto(w0, 0, 8, 0);
    SPELL[at++] = DASH;
    at = hexInto(w1, 0, 4, at);
    SPELL[at++] = DASH;
    SPELL[at++] = FOUR;
    at = hexInto(w1, 5, 8, at);
    SPELL[at++] = DASH;
    SPELL[at++] = HEX[8 + ((w2 >>> 28) & 3)];
    at = hexInto(w2, 1, 4, at);
    SPELL[at++] = DASH;
    at = hexInto(w2, 4, 8, at);
    hexInto(w3, 0, 8, at);
    return spelled(36) as Uuid;
  }

  /** An API message id, `msg_01` and 22 base62 characters. */
  messageId(): string {
    return this.#base62(MSG, 22);
  }

  /** A tool use id, `toolu_01` and 22 base62 characters. */
  toolUseId(): string {
    return this.#base62(TOOLU, 22);
  }

  /** An API request id, `req_01` and 22 base62 characters. */
  requestId(): string {
    return this.#base62(REQ, 22);
  }

  /** A session id (a UUID). */
  sessionId(): string {
    return this.uuid();
  }

  /** A short lowercase id like the SDK's control request ids (11 base36 characters). */
  shortId(): string {
    for (let i = 0; i < 11; i++) SPELL[i] = BASE36[this.#next() % 36];
    return spelled(11);
  }

  #base62(prefix: Uint8Array, length: number): string {
    SPELL.set(prefix);
    const n = prefix.length;
    for (let i = 0; i < length; i++) SPELL[n + i] = BASE62[this.#next() % 62];
    return spelled(n + length);
  }
}

const MSG = codes("msg_01");
const TOOLU = codes("toolu_01");
const REQ = codes("req_01");
