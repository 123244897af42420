// The engine's output bytes, whatever is optimized (cached answer lines, line templates, the
// output queue): the same scenario and seed give the same bytes in every session, and each
// line is its frame's plain JSON encoding. What the frames say is compared with the real CLI's
// recordings by the fidelity tests (tests/fidelity_*_test.ts, tests/wire_fidelity_test.ts); no
// digest of the mock's own output is pinned here, since re-pinning one would hide a change.
import assert from "node:assert/strict";
import { ScenarioBuilder } from "../mod.ts";
import { Session } from "../session.ts";

const user = (c: string) =>
  JSON.stringify({
    type: "user",
    session_id: "",
    message: { role: "user", content: c },
    parent_tool_use_id: null,
  }) + "\n";
const init = JSON.stringify({
  type: "control_request",
  request_id: "r1",
  request: { subtype: "initialize", hooks: null },
}) + "\n";

async function run(
  scenario: ReturnType<ScenarioBuilder["build"]>,
  args: string[],
  recordSent = false,
): Promise<string> {
  const session = new Session(scenario, { args, recordSent });
  const writer = session.writable.getWriter();
  const reading = new Response(session.readable).text();
  await writer.write(init);
  await writer.write(user("hi"));
  await writer.write(user("again"));
  await writer.write(user("nomatch"));
  await writer.close();
  return await reading;
}

Deno.test("Session output: the same seed gives the same bytes, each line its frame's JSON", async () => {
  const runs = [
    [0, "instant", []],
    [7, "realistic", ["--include-partial-messages"]],
    [42n, "slow", ["--model", "sonnet"]],
  ] as const;
  for (const [seed, timing, args] of runs) {
    const scenario = new ScenarioBuilder({ seed, timing }).on("hi")
      .respond("Hello there!", { thinking: "hmm" })
      .usesRead("/home/user/project/a.txt", { content: "a\nb\n" }).usesBash("ls", { stdout: "x" })
      .respond("Done.")
      .on("again").respond("Again.").build();
    const first = await run(scenario, [...args]);
    assert.equal(
      await run(scenario, [...args]),
      first,
      "a second session of the same seed differs",
    );
    // a session that keeps what it sends builds every frame anew: the cached lines agree
    assert.equal(
      await run(scenario, [...args], true),
      first,
      "cached lines differ from built ones",
    );
    const lines = first.trimEnd().split("\n");
    assert.ok(lines.length > 20);
    for (const line of lines) assert.equal(JSON.stringify(JSON.parse(line)), line);
  }
});
