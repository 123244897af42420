import assert from "node:assert/strict";
import { createBuildContext } from "../builders/build_context.ts";
import { sessionStateChanged } from "../builders/system.ts";
import { encodeFrame } from "../wire/encode_frame.ts";
import { LINE_TEMPLATES, stateChange } from "./line_templates.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("line templates: each value's line is the frame's JSON line, escapes and all", () => {
  const build = (slot: string) => ({ type: "x", before: "é", id: slot, after: [1, "\u2028"] });
  for (
    const value of [
      "0b2c6ad5-3c57-4f7a-9d54-2f0b6f8bd4b1",
      "",
      'say "hi"',
      "back\\slash",
      "caf\u00e9 \u{1f600}",
      "tab\there\nnewline",
      "\u007f del",
      "~ tilde",
    ]
  ) {
    const line = decode(LINE_TEMPLATES.line("test|escapes", value, build));
    assert.equal(line, JSON.stringify(build(value)) + "\n", `for ${JSON.stringify(value)}`);
  }
});

Deno.test("stateChange: the bytes of the built frame, the same uuid drawn, per session id", () => {
  for (const state of ["running", "idle", "requires_action"] as const) {
    for (const seed of [1, 2]) {
      const built = createBuildContext({ seed });
      const templated = createBuildContext({ seed });
      for (let i = 0; i < 3; i++) {
        const expected = encodeFrame(sessionStateChanged(built, state));
        const out = stateChange(templated, state, false);
        assert.equal(decode(out.bytes!), expected);
        assert.equal(out.delay, 0);
        assert.deepEqual(out.frame, { type: "system", subtype: "session_state_changed", state });
      }
      // the next id of each is the same: one drawn per frame either way
      assert.equal(templated.ids.uuid(), built.ids.uuid());
    }
  }
});

Deno.test("stateChange: a session that keeps what it sends gets the whole frame, unencoded", () => {
  const a = createBuildContext({ seed: 3 });
  const b = createBuildContext({ seed: 3 });
  const out = stateChange(a, "idle", true);
  assert.equal(out.bytes, undefined);
  assert.deepEqual(out.frame, sessionStateChanged(b, "idle"));
});
