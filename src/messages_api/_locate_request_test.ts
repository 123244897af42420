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

// The tail of the request the real CLI 2.1.332 sent for the third prompt after the app
// interrupted the second turn while its Bash tool ran (recorded against the scenario Messages
// API; the tool result's text shortened): the tool's result, the interrupt marker and the
// next prompt in one user message.
const AFTER_TOOL_INTERRUPT = [
  { role: "user", content: [{ type: "text", text: "first question" }] },
  { role: "assistant", content: [{ type: "text", text: "First answer." }] },
  { role: "user", content: "second question" },
  {
    role: "assistant",
    content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "sleep 3" } }],
  },
  {
    role: "user",
    content: [
      {
        type: "tool_result",
        content: "The user doesn't want to proceed with this tool use. …",
        is_error: true,
        tool_use_id: "toolu_1",
      },
      { type: "text", text: "[Request interrupted by user for tool use]\n" },
      { type: "text", text: "third question", cache_control: { type: "ephemeral" } },
    ],
  },
];

Deno.test("locateRequest: the prompt after an interrupted tool use starts a new turn", () => {
  const located = locateRequest({ messages: AFTER_TOOL_INTERRUPT, stream: true });
  // before: the second turn going on (prompt "second question", one reply): the scenario
  // Messages API answered the third prompt with the interrupted turn's next step
  assert.equal(located?.prompt, "third question");
  assert.equal(located?.ordinal, 3);
  assert.deepEqual(located?.replies, []);
});

Deno.test("locateRequest: the interrupt marker (with its newline) is not part of the next prompt", () => {
  const messages = [
    { role: "user", content: "second question" },
    { role: "assistant", content: [{ type: "text", text: "Line 1 of the" }] },
    {
      role: "user",
      content: [
        { type: "text", text: "[Request interrupted by user]\n" },
        { type: "text", text: "third question" },
      ],
    },
  ];
  // before: "[Request interrupted by user]\n\nthird question"
  assert.equal(locateRequest({ messages })?.prompt, "third question");
});

Deno.test("promptOf: a tool's result alone, or beside other text, is no prompt", () => {
  const result = { type: "tool_result", tool_use_id: "t", content: "ok" };
  assert.equal(promptOf({ role: "user", content: [result] }), undefined);
  assert.equal(
    promptOf({ role: "user", content: [result, { type: "text", text: "a hook's note" }] }),
    undefined,
  );
  assert.equal(
    promptOf({
      role: "user",
      content: [result, { type: "text", text: "[Request interrupted by user for tool use]\n" }],
    }),
    undefined,
  );
});
