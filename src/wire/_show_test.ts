import assert from "node:assert/strict";
import { show } from "./_show.ts";
import { frameKind, kindOf } from "./_kind_of.ts";

Deno.test("show quotes strings, writes numbers as written and names functions", () => {
  assert.equal(show("a"), '"a"');
  assert.equal(show({ a: [1, null] }), '{"a":[1,null]}');
  assert.equal(show(NaN), "NaN");
  assert.equal(show(-Infinity), "-Infinity");
  assert.equal(show(2n), "2");
  assert.equal(show(undefined), "undefined");
  assert.equal(show(() => 1), "a function");
  assert.equal(show(Symbol("s")), "Symbol(s)");
});

Deno.test("show cuts at max characters, the ellipsis included", () => {
  const long = "x".repeat(200);
  assert.equal(show(long), `"${"x".repeat(78)}…`);
  assert.equal(show(long).length, 80);
  assert.equal(show(long, { max: 10 }), `"xxxxxxxx…`);
  assert.equal(show("x".repeat(78)).length, 80); // fits exactly: not cut
  assert.ok(!show("x".repeat(78)).endsWith("…"));
});

Deno.test("show survives values JSON cannot write", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(show(cyclic), "[object Object]");
});

Deno.test("kindOf names a value's kind with its article", () => {
  const cases: Array<[unknown, string]> = [
    [null, "null"],
    [undefined, "undefined"],
    [[], "an array"],
    [/a/, "a RegExp"],
    [{}, "an object"],
    ["s", "a string"],
    [1, "a number"],
    [true, "a boolean"],
    [() => 1, "a function"],
  ];
  for (const [value, kind] of cases) assert.equal(kindOf(value), kind);
});

Deno.test("kindOf with values names a scalar's value too", () => {
  const cases: Array<[unknown, string]> = [
    [[], "an empty array"],
    [[1], "an array"],
    ["s", 'the string "s"'],
    [3, "the number 3"],
    [false, "false"],
    [{}, "an object"],
  ];
  for (const [value, kind] of cases) assert.equal(kindOf(value, { values: true }), kind);
});

Deno.test("frameKind: type, or type/subtype; nested names control and stream frames by their inner kind", () => {
  assert.equal(frameKind({ type: "assistant" }), "assistant");
  assert.equal(frameKind({ type: "system", subtype: "init" }), "system/init");
  assert.equal(frameKind({ type: "result", subtype: "" }), "result");
  const request = { type: "control_request", request: { subtype: "can_use_tool" } };
  assert.equal(frameKind(request), "control_request");
  assert.equal(frameKind(request, { nested: true }), "control_request/can_use_tool");
  const response = { type: "control_response", response: { subtype: "success" } };
  assert.equal(frameKind(response, { nested: true }), "control_response/success");
  const event = { type: "stream_event", event: { type: "message_start" } };
  assert.equal(frameKind(event, { nested: true }), "stream_event/message_start");
  assert.equal(frameKind({ type: "system", subtype: "init" }, { nested: true }), "system/init");
});
