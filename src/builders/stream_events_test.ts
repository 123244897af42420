import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import { assistantMessage, text, thinking, toolUse } from "./assistant.ts";
import {
  abortedStreamEnd,
  streamEvents,
  streamEventsIter,
  thinkingTokenFrames,
} from "./stream_events.ts";
import { chunkText, estimateTokens, splitToolInput } from "./stream_chunks.ts";
import type { Frame } from "../wire/frame.ts";

const kind = (
  f: Frame,
) => (f.type === "stream_event"
  ? (f.event as { type: string }).type
  : `${f.type}${f.subtype ? "/" + f.subtype : ""}`);

Deno.test("chunkText splits between words, keeps the text and respects the size", () => {
  const s = "One, two, three, four, five. That is counting to five in words.";
  for (const size of [1, 5, 10, 24, 1000]) {
    const pieces = chunkText(s, size);
    assert.equal(pieces.join(""), s);
    for (const p of pieces) {
      assert.ok([...p].length <= Math.max(size, 1), `${JSON.stringify(p)} > ${size}`);
    }
  }
  assert.deepEqual(chunkText("", 5), [""]);
  assert.deepEqual(chunkText("abcdefgh", 3), ["abc", "def", "gh"]);
  assert.deepEqual(chunkText("😀😀😀", 2), ["😀😀", "😀"]);
  assert.throws(() => chunkText("x", 0), /chunkSize must be a positive integer, got 0/);
});

Deno.test("estimateTokens rounds a quarter of the length up", () => {
  assert.equal(estimateTokens("I should read the "), 5);
  assert.equal(estimateTokens("notes file first."), 5);
  assert.equal(estimateTokens(""), 0);
});

Deno.test("splitToolInput fragments join into the JSON input", () => {
  for (const input of [{}, { a: 1 }, { file_path: "/x", n: [1, { b: "c" }], s: 'q"uote' }]) {
    assert.equal(splitToolInput(input).join(""), JSON.stringify(input));
  }
  assert.deepEqual(splitToolInput({ a: 1, b: 2 }), ['{"a":', "1,", '"b":', "2}"]);
});

Deno.test("streamEventsIter yields the recorded order for thinking, text and tool use", () => {
  const ctx = createBuildContext({ seed: 5 });
  const message = assistantMessage(ctx, [
    thinking("a b"),
    text("hi"),
    toolUse("Read", { file_path: "/a" }),
  ]);
  const frames = [...streamEventsIter(ctx, message)];
  assert.deepEqual(frames.map(kind), [
    "message_start",
    "content_block_start",
    "system/thinking_tokens",
    "content_block_delta",
    // the signature's floor (7) is above the thinking's estimate (1)
    "system/thinking_tokens",
    "content_block_delta",
    "assistant",
    "content_block_stop",
    "content_block_start",
    "content_block_delta",
    "assistant",
    "content_block_stop",
    "content_block_start",
    "content_block_delta",
    "content_block_delta",
    "assistant",
    "content_block_stop",
    "message_delta",
    "message_stop",
  ]);
  assert.equal(frames[6], message[0], "the assistant frames are the objects passed in");
  const delta = frames.at(-2)!.event as { delta: { stop_reason: string } };
  assert.equal(delta.delta.stop_reason, "tool_use");
  for (const f of frames.filter((f) => f.type === "stream_event")) {
    assert.equal(f.api_message_id, message[0].message.id);
    assert.equal(f.parent_tool_use_id, null);
  }
});

Deno.test("streamEventsIter is lazy: ids are drawn as frames are pulled", () => {
  const ctx = createBuildContext({ seed: 5 });
  const message = assistantMessage(ctx, "one two three four five six seven eight nine ten", {
    messageId: "msg_01A",
  });
  const iter = streamEventsIter(ctx, message, { chunkSize: 4 });
  const first = iter.next();
  assert.equal(first.done, false);
  const before = ctx.ids.uuid();
  // A fresh context on the same seed, pulled the same way, gives the same next uuid.
  const ctx2 = createBuildContext({ seed: 5 });
  const message2 = assistantMessage(ctx2, "one two three four five six seven eight nine ten", {
    messageId: "msg_01A",
  });
  streamEventsIter(ctx2, message2, { chunkSize: 4 }).next();
  assert.equal(ctx2.ids.uuid(), before);
});

Deno.test("streamEvents options: stop reason, output tokens, no thinking tokens, custom split", () => {
  const ctx = createBuildContext();
  const message = assistantMessage(ctx, [thinking("a b c d")]);
  const frames = streamEvents(ctx, message, {
    stopReason: "max_tokens",
    outputTokens: 9,
    thinkingTokens: false,
    split: (s) => [s.slice(0, 2), s.slice(2)],
  });
  assert.equal(frames.filter((f) => f.type === "system").length, 0);
  const deltas = frames.filter((f) => kind(f) === "content_block_delta").map((f) =>
    (f.event as { delta: { thinking?: string } }).delta.thinking
  );
  assert.deepEqual(deltas, ["a ", "b c d", undefined]);
  const end = frames.at(-2)!.event as {
    delta: { stop_reason: string };
    usage: { output_tokens: number };
  };
  assert.equal(end.delta.stop_reason, "max_tokens");
  assert.equal(end.usage.output_tokens, 9);
  assert.throws(() => streamEvents(ctx, message, { split: () => ["nope"] }), /do not join back/);
});

Deno.test("streamEvents rejects frames of different messages and non-assistant frames", () => {
  const ctx = createBuildContext();
  const a = assistantMessage(ctx, "a");
  const b = assistantMessage(ctx, "b");
  assert.throws(() => streamEvents(ctx, [...a, ...b]), /belongs to API message/);
  assert.throws(() => streamEvents(ctx, []), TypeError);
  assert.throws(
    () => streamEvents(ctx, [{ type: "user" } as never]),
    /frame 0 is not an assistant frame/,
  );
});

Deno.test("abortedStreamEnd closes the open block and lists abandoned blocks", () => {
  const ctx = createBuildContext();
  const [frame] = assistantMessage(ctx, "partial", { aborted: true });
  const tail = abortedStreamEnd(ctx, frame, { openBlockIndex: 2 });
  assert.deepEqual(tail.map(kind), ["content_block_stop", "message_delta", "message_stop"]);
  assert.deepEqual(tail[2].abandoned_blocks, {
    api_message_id: frame.message.id,
    from_block_index: 3,
  });
  const none = abortedStreamEnd(ctx, frame, { openBlockIndex: null });
  assert.deepEqual(none.map(kind), ["message_delta", "message_stop"]);
  assert.equal(none[1].abandoned_blocks?.from_block_index, 0);
});

Deno.test("thinkingTokenFrames reports running estimates", () => {
  const ctx = createBuildContext();
  const frames = thinkingTokenFrames(ctx, "I should read the notes file first.", { chunkSize: 18 });
  assert.deepEqual(frames.map((f) => [f.estimated_tokens, f.estimated_tokens_delta]), [[5, 5], [
    10,
    5,
  ]]);
});

Deno.test("a thinking block's signature raises a lower estimate to its floor, as the real CLI does", () => {
  const ctx = createBuildContext();
  const signature = "sig_jr5tndRMs7t+GLg0vhXy+kFEfeTYlTXH"; // floor: ceil(round(36 * 0.75) / 4) = 7
  // estimates 3, 6, then the signature's 7 (as recorded against the scenario API)
  const low = thinkingTokenFrames(ctx, "The file is written.", {
    split: () => ["The file ", "is written."],
    signature,
  });
  assert.deepEqual(low.map((f) => [f.estimated_tokens, f.estimated_tokens_delta]), [
    [3, 3],
    [6, 3],
    [7, 1],
  ]);
  // an estimate at or above the floor: nothing more (recorded: 5, 10)
  const high = thinkingTokenFrames(ctx, "I should read the notes file first.", {
    chunkSize: 18,
    signature,
  });
  assert.deepEqual(high.map((f) => f.estimated_tokens), [5, 10]);
  // streamed: the extra frame comes right before signature_delta
  const frames = assistantMessage(ctx, [{ type: "thinking", thinking: "Hm.", signature }]);
  const kinds = [...streamEventsIter(ctx, frames)].map((f) =>
    f.type === "stream_event"
      ? `${(f.event as { type: string }).type}:${
        (f.event as { delta?: { type: string } }).delta?.type ?? ""
      }`
      : kind(f)
  );
  const at = kinds.indexOf("content_block_delta:signature_delta");
  assert.deepEqual(kinds.slice(at - 3, at), [
    "system/thinking_tokens",
    "content_block_delta:thinking_delta",
    "system/thinking_tokens",
  ]);
});
