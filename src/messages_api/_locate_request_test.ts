import assert from "node:assert/strict";
import { locateRequest, promptOf } from "./_locate_request.ts";

// The second prompt after an interrupted tool use, as the real CLI 2.1.332 sends it: joined to
// the rejected tool result and the interrupt marker (with its newline) in one user message.
const AFTER_INTERRUPT = {
  role: "user",
  content: [
    {
      type: "tool_result",
      content: "The user doesn't want to proceed...",
      is_error: true,
      tool_use_id: "toolu_1",
    },
    { type: "text", text: "[Request interrupted by user for tool use]\n" },
    { type: "text", text: "what now" },
  ],
};

Deno.test("promptOf: the prompt the CLI joins to an interrupted turn's tool result and marker", () => {
  assert.equal(promptOf(AFTER_INTERRUPT), "what now");
});

Deno.test("promptOf: a message of tool results alone (or with reminders) carries no prompt", () => {
  assert.equal(
    promptOf({
      role: "user",
      content: [
        { type: "tool_result", content: "ok", tool_use_id: "toolu_1" },
        { type: "text", text: "<system-reminder>\nx\n</system-reminder>" },
      ],
    }),
    undefined,
  );
  assert.equal(
    promptOf({
      role: "user",
      content: [
        { type: "tool_result", content: "ok", tool_use_id: "toolu_1" },
        { type: "text", text: "some text a hook added" },
      ],
    }),
    undefined,
  );
});

Deno.test("locateRequest: the turn after an interrupted tool use is the second prompt's, with no replies yet", () => {
  const located = locateRequest({
    messages: [
      { role: "user", content: [{ type: "text", text: "wait for it" }] },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_1", name: "Agent", input: {} }],
      },
      AFTER_INTERRUPT,
    ],
  });
  assert.equal(located?.prompt, "what now");
  assert.equal(located?.ordinal, 2);
  assert.deepEqual(located?.replies, []);
});
