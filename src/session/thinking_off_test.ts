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
