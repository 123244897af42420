// Named failures: each recording of the real CLI 2.1.328 in tests/fixtures/real/failures/
// (see its FINDINGS.md) replayed through the real SDK and the mock running the named
// failure, both directions compared frame by frame with the values an app asserts on.
import assert from "node:assert/strict";
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import { type FailureName, ScenarioBuilder } from "../mod.ts";
import { compareTape } from "./_fidelity.ts";
import { mask } from "./_mask.ts";

const HELLO = "Hello! How can I help you today?";

interface Case {
  /** The named failure. */
  name: FailureName;
  /** The recording (default: the name). */
  tape?: string;
  /** The client's environment, as recorded. */
  env?: Record<string, string>;
  /** The API's message, as recorded. */
  message?: string;
  /** SDK options besides `maxTurns: 1`. */
  options?: Options;
  /** Why the recording's cost is not the mock's (its API billed another partial stream). */
  costDiffers?: string;
  /**
   * The recorder's API sent no `request-id` with its answers (the real API and the scenario API
   * do): the CLI wrote "request-id absent" where it names the fallback's id.
   */
  noRequestId?: true;
}

// The recordings' machine had IS_SANDBOX=1 in the environment the SDK passed on: the CLI then
// words a repeated 529 as a single one (the *_nosandbox tapes show the other wording).
const SANDBOX = { IS_SANDBOX: "1" };
const retries2 = { ...SANDBOX, CLAUDE_CODE_MAX_RETRIES: "2" };
const gateway = (port: number) => ({ ...retries2, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` });

// The recorder's fake API broke its streams elsewhere than the scenario-driven Messages API
// does, and the CLI bills what a broken stream carried: the mock bills what the scenario API's
// broken stream carries (compared in tests/conform_recordings_slow_test.ts).
const OTHER_STREAM = "the recording's API broke its stream at another point";

const CASES: Case[] = [
  { name: "auth_error", env: retries2 },
  { name: "forbidden", env: retries2 },
  {
    name: "rate_limit",
    env: retries2,
    message: "Number of request tokens has exceeded your per-minute rate limit (scripted 429)",
  },
  {
    name: "rate_limit",
    tape: "rate_limit_no_retry",
    env: { ...SANDBOX, CLAUDE_CODE_MAX_RETRIES: "0" },
    message: "Number of request tokens has exceeded your per-minute rate limit (scripted 429)",
  },
  { name: "overloaded", env: gateway(41493) },
  {
    name: "overloaded",
    tape: "overloaded_no_retry",
    env: { ...SANDBOX, CLAUDE_CODE_MAX_RETRIES: "0", ANTHROPIC_BASE_URL: "http://127.0.0.1:37039" },
  },
  {
    name: "overloaded",
    tape: "overloaded_default_retries",
    env: { ...SANDBOX, ANTHROPIC_BASE_URL: "http://127.0.0.1:38141" },
  },
  { name: "server_error", env: gateway(38547) },
  {
    name: "bad_request",
    env: retries2,
    message: "messages: the fake API rejects this request (scripted 400)",
  },
  { name: "out_of_credits", env: retries2 },
  { name: "connection_refused", env: retries2 },
  { name: "connection_reset", env: retries2 },
  { name: "connection_reset_recovered", env: retries2, costDiffers: OTHER_STREAM },
  { name: "request_timeout", env: { ...retries2, API_TIMEOUT_MS: "3000" } },
  {
    name: "stream_stall",
    env: { ...retries2, API_TIMEOUT_MS: "3000", CLAUDE_BYTE_STREAM_IDLE_TIMEOUT_MS: "10000" },
  },
  { name: "stream_cut", env: retries2, costDiffers: OTHER_STREAM },
  { name: "stream_cut_recovered", env: retries2, costDiffers: OTHER_STREAM },
  { name: "malformed_stream", env: retries2 },
  { name: "malformed_stream_recovered", env: retries2 },
  { name: "max_budget", options: { maxBudgetUsd: 0.000001 } },
  // outside a sandbox, a 529 after retries is "Repeated 529 Overloaded errors" (2.1.328 and 2.1.332)
  {
    name: "overloaded",
    tape: "v328_overloaded_nosandbox",
    env: { CLAUDE_CODE_MAX_RETRIES: "2", ANTHROPIC_BASE_URL: "http://127.0.0.1:37577" },
  },
  {
    name: "overloaded",
    tape: "v332_overloaded_nosandbox",
    env: { CLAUDE_CODE_MAX_RETRIES: "2", ANTHROPIC_BASE_URL: "http://127.0.0.1:38279" },
  },
  // the same failures through CLI 2.1.331 and 2.1.332 (failures/v33x_*)
  { name: "overloaded", tape: "v332_overloaded", env: gateway(42759) },
  { name: "connection_reset", tape: "v332_connection_reset", env: retries2 },
  { name: "malformed_stream", tape: "v331_malformed_stream", env: retries2 },
  { name: "malformed_stream", tape: "v332_malformed_stream", env: retries2, noRequestId: true },
  ...["v331_stream_cut", "v332_stream_cut"].map((tape) => ({
    name: "stream_cut" as const,
    tape,
    env: retries2,
    costDiffers: OTHER_STREAM,
    noRequestId: true as const,
  })),
];

for (const c of CASES) {
  const tape = c.tape ?? c.name;
  Deno.test(`failure fidelity: ${c.name}${c.tape ? ` (${c.tape})` : ""}`, async () => {
    const recovers = c.name.endsWith("_recovered") || c.name === "max_budget";
    const exchange = new ScenarioBuilder().on("hello")
      .failure(c.name, c.message !== undefined ? { message: c.message } : {});
    const scenario = (recovers ? exchange.respond(HELLO, { outputTokens: 25 }) : exchange).build();
    const { ours, real, mine } = await compareTape(
      `failures/${tape}`,
      scenario,
      { maxTurns: 1, ...c.options },
      {
        env: c.env,
        ...(c.costDiffers ? { skipValues: [] } : {}),
        ...(c.noRequestId
          ? {
            rewriteRecording: (json: string) =>
              json.replaceAll("request-id absent", "request-id req_01recordernone"),
          }
          : {}),
      },
    );
    const result = (frames: typeof real) => frames.find((f) => f.type === "result")!;
    assert.deepEqual(Object.keys(result(mine)), Object.keys(result(real)), "result key order");
    if (!c.costDiffers) {
      assert.equal(result(mine).total_cost_usd, result(real).total_cost_usd, "total_cost_usd");
    }
    const asst = (frames: typeof real) => frames.find((f) => f.type === "assistant")!;
    assert.deepEqual(Object.keys(asst(mine)), Object.keys(asst(real)), "assistant key order");
    assert.equal(
      (asst(mine).message as { stop_reason: unknown }).stop_reason,
      (asst(real).message as { stop_reason: unknown }).stop_reason,
      "the assistant frame's stop_reason",
    );
    const realExit = recovers && c.name !== "max_budget" ? 0 : 1;
    assert.equal(ours.exitCode, realExit, "exit code");
    if (realExit === 0) assert.equal(ours.error, undefined);
    else {
      const text = (result(real).result as string | undefined) ??
        (result(real).errors as string[])[0];
      // (request ids and measured times masked, as in the frames)
      assert.equal(
        mask(ours.error?.message),
        mask(`Claude Code returned an error result: ${text}`),
      );
    }
  });
}

Deno.test("failure fidelity: retry delays follow the CLI's backoff and are deterministic", async () => {
  const run = async () => {
    const { ours } = await compareTape(
      "failures/overloaded_default_retries",
      new ScenarioBuilder({ seed: 5 }).on("hello").failure("overloaded").build(),
      { maxTurns: 1 },
      { env: { ...SANDBOX, ANTHROPIC_BASE_URL: "http://127.0.0.1:38141" } },
    );
    return ours.out.filter((f) => f.subtype === "api_retry").map((f) => f.retry_delay_ms as number);
  };
  const delays = await run();
  assert.deepEqual(delays, await run(), "same seed, same delays");
  assert.equal(delays.length, 10);
  delays.forEach((d, i) => {
    const backoff = Math.min(500 * 2 ** i, 32000);
    assert.ok(
      d >= Math.max(1000, backoff) && d <= Math.max(1250, backoff * 1.25),
      `attempt ${i + 1}: ${d}`,
    );
  });
});
