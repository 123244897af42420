import assert from "node:assert/strict";
import { thinkingTurnedOff } from "./thinking_off.ts";
import { parseCliFlags } from "./cli_args.ts";

const cli = { basis: "2.1.332" };

Deno.test("thinkingTurnedOff: as the real CLI 2.1.332 asked the API (thinking: disabled)", () => {
  const off = (args: string[], model: string, maxThinkingTokens: number | null = null) =>
    thinkingTurnedOff(parseCliFlags(args), { model, maxThinkingTokens, cli });
  // recorded: {"type":"disabled"} in the API request
  assert.equal(off(["--thinking=disabled"], "claude-sonnet-4-5"), true);
  assert.equal(off(["--max-thinking-tokens", "0"], "claude-sonnet-4-5"), true);
  assert.equal(off(["--max-thinking-tokens", "0"], "claude-opus-4-6"), true);
  // recorded: enabled or adaptive
  assert.equal(off([], "claude-sonnet-4-5"), false);
  assert.equal(off(["--max-thinking-tokens=2048"], "claude-sonnet-4-5"), false);
  assert.equal(off(["--thinking=adaptive"], "claude-sonnet-4-5"), false);
  assert.equal(
    off(["--max-thinking-tokens", "0", "--thinking=enabled"], "claude-sonnet-4-5"),
    false,
  );
  // a model whose thinking is always on keeps it (claude-opus-4-1 runs as claude-opus-5-5)
  assert.equal(off(["--thinking=disabled"], "claude-opus-5-5"), false);
  assert.equal(off(["--max-thinking-tokens", "0"], "claude-opus-5-5"), false);
  // set_max_thinking_tokens later in the session
  assert.equal(off([], "claude-sonnet-4-5", 0), true);
  assert.equal(off(["--max-thinking-tokens", "0"], "claude-sonnet-4-5", 1024), false);
});

Deno.test("parseCliFlags: --thinking and --max-thinking-tokens, a bad budget named", () => {
  const flags = parseCliFlags(["--thinking", "disabled", "--max-thinking-tokens=0"]);
  assert.equal(flags.thinking, "disabled");
  assert.equal(flags.maxThinkingTokens, 0);
  assert.throws(
    () => parseCliFlags(["--max-thinking-tokens", "-1"]),
    /Invalid --max-thinking-tokens: expected an integer >= 0, got '-1'/,
  );
});

/** A duplex session: `hello`, the set_max_thinking_tokens request, `again`; every frame out. */
// deno-lint-ignore no-explicit-any
type AnyFrame = Record<string, any>;

async function midSession(request: Record<string, unknown>): Promise<AnyFrame[]> {
  const { Session } = await import("./session.ts");
  const { ScenarioBuilder } = await import("../scenario/scenario_builder.ts");
  const session = new Session(
    new ScenarioBuilder().on("hello").respond("Hi.").on("again").respond("Hi again.").build(),
    { args: ["--model", "claude-sonnet-4-5", "--include-partial-messages"] },
  );
  const line = (f: unknown) => session.write(JSON.stringify(f) + "\n");
  const user = (text: string) =>
    line({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null });
  line({ type: "control_request", request_id: "i1", request: { subtype: "initialize" } });
  user("hello");
  // the request once the first turn's result is out, then the second prompt
  const frames: AnyFrame[] = [];
  const lines = session.readable.pipeThrough(new TextDecoderStream());
  let rest = "";
  for await (const chunk of lines) {
    rest += chunk;
    const parts = rest.split("\n");
    rest = parts.pop()!;
    for (const part of parts) {
      const frame = JSON.parse(part);
      frames.push(frame);
      if (frame.type !== "result") continue;
      if (frames.filter((f) => f.type === "result").length === 1) {
        line({
          type: "control_request",
          request_id: "t1",
          request: { subtype: "set_max_thinking_tokens", ...request },
        });
        user("again");
      } else session.endInput();
    }
  }
  return frames;
}

Deno.test("set_max_thinking_tokens mid-session, as the real CLI 2.1.332 answers it and asks the API after it", async () => {
  // recorded by hand (FINDINGS_gaps.md): a success with no body; 0 turns thinking off (no
  // display), a negative budget is a budget; `summarized` becomes the display
  const displays = (frames: AnyFrame[]) =>
    frames.filter((f) => f.type === "stream_event" && f.event.type === "message_start")
      .map((f) => f.thinking_display ?? "none");
  const answer = (frames: AnyFrame[]) =>
    frames.find((f) => f.type === "control_response" && f.response.request_id === "t1")?.response;
  let frames = await midSession({ max_thinking_tokens: 0 });
  assert.deepEqual(answer(frames), { subtype: "success", request_id: "t1" });
  assert.deepEqual(displays(frames), ["updates", "none"]);
  frames = await midSession({ max_thinking_tokens: -5 });
  assert.deepEqual(answer(frames), { subtype: "success", request_id: "t1" });
  assert.deepEqual(displays(frames), ["updates", "updates"]);
  frames = await midSession({ max_thinking_tokens: null, thinking_display: "summarized" });
  assert.deepEqual(displays(frames), ["updates", "summarized"]);
  frames = await midSession({ max_thinking_tokens: null, thinking_display: "omitted" });
  assert.deepEqual(displays(frames), ["updates", "updates"]);
  for (
    const bad of [{ max_thinking_tokens: 1.5 }, { max_thinking_tokens: 0, thinking_display: "x" }]
  ) {
    frames = await midSession(bad);
    assert.deepEqual(answer(frames), {
      subtype: "error",
      request_id: "t1",
      error:
        'set_max_thinking_tokens: max_thinking_tokens must be an integer or null and thinking_display must be "summarized", "omitted", "highlights", or null',
    });
    assert.deepEqual(displays(frames), ["updates", "updates"], JSON.stringify(bad));
  }
});
