import assert from "node:assert/strict";
import { inspect } from "node:util";
import { AssertionError } from "./assertion_error.ts";
import { diffValues, formatValue } from "./_diff.ts";

Deno.test("AssertionError: node:assert's fields, with a message of its own", () => {
  const cause = new Error("underneath");
  const error = new AssertionError("Expected the client to write 'hello'", { cause });
  assert.ok(error instanceof Error);
  assert.equal(error.name, "AssertionError");
  assert.equal(error.message, "Expected the client to write 'hello'");
  assert.equal(error.code, "ERR_ASSERTION");
  assert.equal(error.operator, "fail");
  assert.equal(error.generatedMessage, false);
  assert.equal(error.actual, undefined);
  assert.equal(error.expected, undefined);
  assert.equal(error.cause, cause);
  assert.match(String(error.stack), /^AssertionError: Expected the client/);
  // the same own keys, in the same order, as node:assert's
  let native: unknown;
  try {
    assert.deepStrictEqual({ a: 1 }, { a: 2 });
  } catch (e) {
    native = e;
  }
  const keys = Object.keys(native as object).filter((k) => k !== "diff");
  assert.deepEqual(Object.keys(error), keys);
  assert.equal(new AssertionError().message, "Assertion failed");
  assert.equal(new AssertionError().generatedMessage, true);
});

Deno.test("AssertionError: actual and expected give a diff, or a message written for them", () => {
  const error = new AssertionError("The app's answers differ", {
    actual: { behavior: "deny", message: "no", toolUseID: "t1" },
    expected: { behavior: "allow", toolUseID: "t1" },
  });
  assert.equal(error.operator, "deepStrictEqual");
  assert.deepEqual(error.actual, { behavior: "deny", message: "no", toolUseID: "t1" });
  assert.equal(
    error.message,
    [
      "The app's answers differ",
      "",
      "+ actual - expected",
      "",
      "  {",
      '+   behavior: "deny",',
      '+   message: "no",',
      '-   behavior: "allow",',
      '    toolUseID: "t1",',
      "  }",
    ].join("\n"),
  );
  const generated = new AssertionError(undefined, {
    actual: 2,
    expected: 1,
    operator: "strictEqual",
  });
  assert.equal(generated.generatedMessage, true);
  assert.equal(
    generated.message,
    "Expected values to be strictly equal:\n\n+ actual - expected\n\n+ 2\n- 1",
  );
  const negated = new AssertionError("", { actual: 1, expected: 1, operator: "notStrictEqual" });
  assert.equal(
    negated.message,
    "Expected the values to pass 'notStrictEqual', but they did not:\n\nactual: 1\nexpected: 1",
  );
  const same = new AssertionError("Not the same object", { actual: {}, expected: {} });
  assert.match(same.message, /^Not the same object\n\nactual: \{\}\nexpected: \{\}$/);
});

Deno.test("AssertionError: node's util.inspect prints the message, the diff and the fields", () => {
  const printed = inspect(
    new AssertionError("Wrong answer", { actual: { a: 1 }, expected: { a: 2 } }),
  );
  assert.match(
    printed,
    /^AssertionError: Wrong answer\n\n\+ actual - expected\n\n {2}\{\n\+ {3}a: 1,\n- {3}a: 2,\n {2}\}\n/,
  );
  assert.match(printed, /code: 'ERR_ASSERTION'/);
  assert.match(printed, /operator: 'deepStrictEqual'/);
  assert.match(printed, /generatedMessage: false/);
});

Deno.test("formatValue: one entry a line, sorted keys, every kind of value", () => {
  const cycle: Record<string, unknown> = { name: "loop" };
  cycle.self = cycle;
  class Point {
    x = 1;
  }
  assert.equal(
    formatValue({
      z: [1, "two", null, undefined],
      a: { "needs quotes": true, empty: {}, list: [] },
      big: 10n,
      neg: -0,
      when: new Date(0),
      re: /x+/g,
      err: new RangeError("bad"),
      fn: function named() {},
      anon: (() => () => {})(),
      sym: Symbol("s"),
      map: new Map([["k", 1]]),
      set: new Set(["v"]),
      bytes: new Uint8Array([1, 2]),
      point: new Point(),
      bare: Object.create(null),
      cycle,
    }),
    [
      "{",
      "  a: {",
      "    empty: {},",
      "    list: [],",
      '    "needs quotes": true,',
      "  },",
      "  anon: [Function (anonymous)],",
      "  bare: [Object: null prototype] {},",
      "  big: 10n,",
      "  bytes: Uint8Array(2) [",
      "    1,",
      "    2,",
      "  ],",
      "  cycle: {",
      '    name: "loop",',
      "    self: [Circular],",
      "  },",
      "  err: [RangeError: bad],",
      "  fn: [Function: named],",
      "  map: Map(1) {",
      '    "k" => 1,',
      "  },",
      "  neg: -0,",
      "  point: Point {",
      "    x: 1,",
      "  },",
      "  re: /x+/g,",
      "  set: Set(1) {",
      '    "v",',
      "  },",
      "  sym: Symbol(s),",
      "  when: 1970-01-01T00:00:00.000Z,",
      "  z: [",
      "    1,",
      '    "two",',
      "    null,",
      "    undefined,",
      "  ],",
      "}",
    ].join("\n"),
  );
  assert.equal(formatValue(new Date(NaN)), "Invalid Date");
  const shared = { n: 1 };
  assert.equal(formatValue([shared, shared]), "[\n  {\n    n: 1,\n  },\n  {\n    n: 1,\n  },\n]");
});

Deno.test("diffValues: lines, unchanged runs folded, texts by line, no diff when equal", () => {
  const list = (last: number) => Array.from({ length: 12 }, (_, i) => (i === 11 ? last : i));
  assert.deepEqual(diffValues(list(99), list(11)), [
    "  ...",
    "    8,",
    "    9,",
    "    10,",
    "+   99,",
    "-   11,",
    "  ]",
  ]);
  assert.deepEqual(diffValues("a\nb\nc", "a\nB\nc"), ["  a", "+ b", "- B", "  c"]);
  assert.deepEqual(diffValues("abc", "abd"), ['+ "abc"', '- "abd"']);
  assert.equal(diffValues({ a: [1] }, { a: [1] }), undefined);
  // large inputs beyond the LCS budget still diff (as blocks), quickly
  const big = (n: number) => Array.from({ length: 3000 }, (_, i) => `${i}:${i % n}`).join("\n");
  const lines = diffValues(big(7), big(11))!;
  assert.ok(lines.includes("+ 7:0") && lines.includes("- 7:7"));
});
