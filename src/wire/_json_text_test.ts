import assert from "node:assert/strict";
import { jsonText } from "./_json_text.ts";

Deno.test("jsonText: the text JSON.stringify gives, for every kind of value", () => {
  const date = new Date(Date.UTC(2026, 0, 1));
  const values: unknown[] = [
    null,
    true,
    0,
    -1.5,
    NaN,
    Infinity,
    'a "quoted" \n line ✓',
    [],
    {},
    [1, undefined, () => 1, Symbol("s"), null, "x"],
    { a: 1, b: undefined, c: () => 1, d: Symbol("s"), e: [{ f: {} }], g: null },
    { date, nested: { toJSON: (key: string) => `key ${key}` } },
    [new Number(3), new String("s"), new Boolean(false)],
    { "": 1, 'key with "quotes"': 2, 3: "three" },
    undefined,
    () => 1,
  ];
  for (const value of values) assert.equal(jsonText(value), JSON.stringify(value));
});

Deno.test("jsonText: any depth, where JSON.stringify runs out of stack", () => {
  let deep: Record<string, unknown> = { leaf: [1, 2] };
  for (let i = 0; i < 200_000; i++) deep = { a: deep };
  const text = jsonText(deep)!;
  assert.ok(text.startsWith('{"a":{"a":'));
  assert.ok(text.endsWith('{"leaf":[1,2]}' + "}".repeat(200_000)));
});

Deno.test("jsonText: a cycle or a BigInt is a TypeError, as for JSON.stringify", () => {
  const cyclic: Record<string, unknown> = { a: { b: {} } };
  (cyclic.a as { b: Record<string, unknown> }).b.back = cyclic;
  assert.throws(() => jsonText(cyclic), /circular structure to JSON: a\.b\.back refers back/);
  assert.throws(() => jsonText({ n: 1n }), /serialize a BigInt/);
  const shared = { x: 1 };
  assert.equal(jsonText([shared, shared]), JSON.stringify([shared, shared]), "not a cycle");
});
