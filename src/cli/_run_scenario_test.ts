import assert from "node:assert/strict";
import { chooseScenario } from "./_run_scenario.ts";
import { parseArgv } from "./parse_argv.ts";

const NAMES = "auth_error, forbidden, rate_limit, overloaded, server_error, bad_request, " +
  "out_of_credits, connection_refused, connection_reset, connection_reset_recovered, " +
  "request_timeout, stream_stall, stream_cut, stream_cut_recovered, malformed_stream, " +
  "malformed_stream_recovered, max_budget";

async function refusal(argv: string[], env: Record<string, string> = {}): Promise<string> {
  const error = await chooseScenario(parseArgv(argv), { env, cwd: "/" }).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.ok(error, `${argv.join(" ")} was not refused`);
  return error.message;
}

Deno.test("an unknown failure names where it came from, and the name it is near", async () => {
  assert.equal(
    await refusal(["-p", "hi", "--failure", "rate_limt"]),
    "claude-mock: unknown failure 'rate_limt' (in --failure; did you mean 'rate_limit'?)",
  );
  assert.equal(
    await refusal(["-p", "hi"], { CLAUDE_MOCK_FAILURE: "Overloaded" }),
    "claude-mock: unknown failure 'Overloaded' (in CLAUDE_MOCK_FAILURE; did you mean 'overloaded'?)",
  );
  // nothing near: every name
  assert.equal(
    await refusal(["-p", "hi"], { CLAUDE_MOCK_FAILURE: "nope" }),
    `claude-mock: unknown failure 'nope' (in CLAUDE_MOCK_FAILURE); expected one of ${NAMES}`,
  );
});
