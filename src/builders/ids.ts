/**
 * Deterministic ids for frames: message, tool use, request and session ids and uuids,
 * all drawn from one seeded generator so the same seed gives the same ids.
 *
 * @module
 */

import { Pcg32, type Prng } from "../random/pcg32.ts";
import type { Uuid } from "../wire/frame.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const HEX = "0123456789abcdef";

/** Options for {@linkcode IdGenerator}. */
export interface IdGeneratorOptions {
  /** Seed for the ids (default 0). Ignored when `prng` is given. */
  seed?: bigint | number;
  /** A float source in `[0, 1)` to draw from instead of a seeded PCG32. */
  prng?: Prng;
}

/** Two hex digits for each byte value. */
const BYTE_HEX: readonly string[] = Array.from(
  { length: 256 },
  (_, i) => i.toString(16).padStart(2, "0"),
);

/** A 32-bit unsigned integer as 8 hex digits. */
function hex8(n: number): string {
  return BYTE_HEX[n >>> 24] + BYTE_HEX[(n >>> 16) & 255] + BYTE_HEX[(n >>> 8) & 255] +
    BYTE_HEX[n & 255];
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
    const hex = hex8(this.#next()) + hex8(this.#next()) + hex8(this.#next()) +
      hex8(this.#next());
    const variant = HEX[8 + (parseInt(hex[16], 16) & 3)];
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${
      hex.slice(17, 20)
    }-${hex.slice(20, 32)}` as Uuid;
  }

  /** An API message id, `msg_01` and 22 base62 characters. */
  messageId(): string {
    return `msg_01${this.#base62(22)}`;
  }

  /** A tool use id, `toolu_01` and 22 base62 characters. */
  toolUseId(): string {
    return `toolu_01${this.#base62(22)}`;
  }

  /** An API request id, `req_01` and 22 base62 characters. */
  requestId(): string {
    return `req_01${this.#base62(22)}`;
  }

  /** A session id (a UUID). */
  sessionId(): string {
    return this.uuid();
  }

  /** A short lowercase id like the SDK's control request ids (11 base36 characters). */
  shortId(): string {
    let out = "";
    for (let i = 0; i < 11; i++) out += (this.#next() % 36).toString(36);
    return out;
  }

  #base62(length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += BASE62[this.#next() % 62];
    return out;
  }
}
