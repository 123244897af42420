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
 * Where ids are spelled, one array of character codes per length (prefixes written once),
 * turned into one flat string at once: no chain of concatenated pieces for JSON.stringify to
 * flatten later. Shared: an id is written and read out before the next one starts.
 */
const UUID = new Array<number>(36).fill(DASH);
const SHORT = new Array<number>(11).fill(0);

/** The codes of `prefix`, then room for `length` more. */
function spelling(prefix: string, length: number): number[] {
  return [...codes(prefix), ...new Array<number>(length).fill(0)];
}

/** Writes the hex digits of the 32-bit `word` from nibble `from` to nibble `to` (exclusive) at `at`. */
function hexInto(word: number, from: number, to: number, at: number): void {
  for (let i = from; i < to; i++) UUID[at++] = HEX[(word >>> (28 - 4 * i)) & 15];
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
    // (the dashes at 8, 13, 18 and 23 stay where they were written once)
    const w0 = this.#next(), w1 = this.#next(), w2 = this.#next(), w3 = this.#next();
    hexInto(w0, 0, 8, 0);
    hexInto(w1, 0, 4, 9);
    UUID[14] = FOUR;
    hexInto(w1, 5, 8, 15);
    UUID[19] = HEX[8 + ((w2 >>> 28) & 3)];
    hexInto(w2, 1, 4, 20);
    hexInto(w2, 4, 8, 24);
    hexInto(w3, 0, 8, 28);
    return String.fromCharCode(...UUID) as Uuid;
  }

  /** An API message id, `msg_01` and 22 base62 characters. */
  messageId(): string {
    return this.#base62(MSG);
  }

  /** A tool use id, `toolu_01` and 22 base62 characters. */
  toolUseId(): string {
    return this.#base62(TOOLU);
  }

  /** An API request id, `req_01` and 22 base62 characters. */
  requestId(): string {
    return this.#base62(REQ);
  }

  /** A session id (a UUID). */
  sessionId(): string {
    return this.uuid();
  }

  /** A short lowercase id like the SDK's control request ids (11 base36 characters). */
  shortId(): string {
    for (let i = 0; i < 11; i++) SHORT[i] = BASE36[this.#next() % 36];
    return String.fromCharCode(...SHORT);
  }

  /** The prefix written in `spelling`, then 22 base62 digits. */
  #base62(spelling: number[]): string {
    for (let i = spelling.length - 22; i < spelling.length; i++) {
      spelling[i] = BASE62[this.#next() % 62];
    }
    return String.fromCharCode(...spelling);
  }
}

const MSG = spelling("msg_01", 22);
const TOOLU = spelling("toolu_01", 22);
const REQ = spelling("req_01", 22);
