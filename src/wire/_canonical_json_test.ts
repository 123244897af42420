import assert from "node:assert/strict";
import { canonicalJson, jsonEqual } from "./_canonical_json.ts";

Deno.test("canonicalJson sorts keys at every depth; jsonEqual ignores key order only", () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: 3 } }),
    '{"a":{"c":3,"d":[2,{"e":0,"f":1}]},"b":1}',
  );
  assert.ok(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }));
  assert.ok(jsonEqual({ a: 1, x: undefined }, { a: 1 }));
  assert.ok(!jsonEqual({ a: [1, 2] }, { a: [2, 1] }));
  assert.ok(!jsonEqual({ a: 1 }, { a: "1" }));
});
