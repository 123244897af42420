import assert from "node:assert/strict";
import { mask } from "./_mask.ts";

const frame = {
  type: "result",
  session_id: "s-1",
  uuid: "0529b01a-e4b0-4d3a-b0aa-0724087337b2",
  message: { id: "msg_01AbC", content: [{ id: "toolu_01X" }] },
  request_id: "abc",
  timestamp: "2026-11-26T04:46:10.123Z",
  duration_ms: 1234,
  text: "see req_011 and msg_02",
};

Deno.test("mask replaces ids, session ids, uuids, timestamps and measured durations", () => {
  assert.deepEqual(mask(frame), {
    type: "result",
    session_id: "SESSION",
    uuid: "UUID",
    message: { id: "MSG", content: [{ id: "TOOLU" }] },
    request_id: "REQUEST",
    timestamp: "TIME",
    duration_ms: 0,
    text: "see REQ and MSG",
  });
});

Deno.test("mask with measured: false keeps durations and other measured values", () => {
  const masked = mask({ ...frame, agent: "a0123456789abcdef" }, { measured: false }) as
    & typeof frame
    & { agent: string };
  assert.equal(masked.duration_ms, 1234);
  assert.equal(masked.agent, "a0123456789abcdef");
  assert.equal(masked.uuid, "UUID");
});

Deno.test("mask leaves an empty session id, other values and undefined alone", () => {
  assert.deepEqual(mask({ session_id: "", n: 1, s: "plain" }), {
    session_id: "",
    n: 1,
    s: "plain",
  });
  assert.equal(mask(undefined), undefined);
  assert.equal(mask("hello"), "hello");
});
