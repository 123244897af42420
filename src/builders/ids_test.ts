import assert from "node:assert/strict";
import { Pcg32 } from "../random/pcg32.ts";
import { IdGenerator } from "./ids.ts";

// The ids as they were spelled before they were built from character codes: every id the
// faster spelling writes must be the same string, draw for draw.
class ReferenceIds {
  #next: () => number;
  constructor(seed: number) {
    const pcg = new Pcg32(seed);
    this.#next = () => pcg.nextU32();
  }
  uuid(): string {
    const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
    const hex = hex8(this.#next()) + hex8(this.#next()) + hex8(this.#next()) + hex8(this.#next());
    const variant = "0123456789abcdef"[8 + (parseInt(hex[16], 16) & 3)];
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${
      hex.slice(17, 20)
    }-${hex.slice(20, 32)}`;
  }
  base62(prefix: string): string {
    const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let out = prefix;
    for (let i = 0; i < 22; i++) out += digits[this.#next() % 62];
    return out;
  }
  shortId(): string {
    let out = "";
    for (let i = 0; i < 11; i++) out += (this.#next() % 36).toString(36);
    return out;
  }
}

Deno.test("IdGenerator: every kind of id is the reference spelling, draw for draw", () => {
  for (const seed of [0, 1, 7, 42, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
    const ids = new IdGenerator({ seed });
    const ref = new ReferenceIds(seed);
    for (let i = 0; i < 200; i++) {
      assert.equal(ids.uuid(), ref.uuid());
      assert.equal(ids.messageId(), ref.base62("msg_01"));
      assert.equal(ids.toolUseId(), ref.base62("toolu_01"));
      assert.equal(ids.requestId(), ref.base62("req_01"));
      assert.equal(ids.shortId(), ref.shortId());
      assert.equal(ids.sessionId(), ref.uuid());
    }
  }
});

Deno.test("IdGenerator: ids keep their formats, and one id never leaks into the next", () => {
  const ids = new IdGenerator({ prng: () => 0.999999 });
  const uuid = ids.uuid();
  assert.match(uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(ids.messageId(), /^msg_01[0-9A-Za-z]{22}$/);
  assert.match(ids.toolUseId(), /^toolu_01[0-9A-Za-z]{22}$/);
  assert.match(ids.requestId(), /^req_01[0-9A-Za-z]{22}$/);
  const short = ids.shortId();
  assert.match(short, /^[0-9a-z]{11}$/);
  // the strings made earlier are unchanged by the ids made since (a shared spelling buffer)
  assert.match(uuid, /^[0-9a-f]{8}-/);
  assert.equal(short.length, 11);
});
