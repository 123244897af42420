// Fidelity found by conformance (issue 20, the control plane): what `cli.ts conform` showed the
// mock doing otherwise than the real CLI, each checked against a recording of the real CLI
// (tests/fixtures/real/).
import assert from "node:assert/strict";
import { readTape, runMock, sdkQueryFor } from "./_fidelity.ts";
import { ScenarioBuilder } from "../mod.ts";
import type { Frame } from "../wire.ts";

/** The `initialize` answer frame among `frames`. */
function initializeAnswer(frames: Frame[]): Record<string, unknown> {
  const answer = frames.find((f) =>
    f.type === "control_response" &&
    "commands" in ((f.response as { response?: object }).response ?? {})
  );
  assert.ok(answer, "an initialize answer");
  return answer.response as Record<string, unknown>;
}

for (const name of ["hello", "v332_hello"]) {
  Deno.test(`initialize answer: the pending requests and full descriptions, as recorded in ${name}`, async () => {
    const tape = await readTape(name);
    const ours = await runMock(
      new ScenarioBuilder().on(/hello/).respond("Hello! How can I help you today?").build(),
      ["hello"],
      { maxTurns: 1, sdkQuery: await sdkQueryFor(tape) },
    );
    const real = initializeAnswer(tape.lines.map((l) => l.frame));
    const mine = initializeAnswer(ours.out);
    // beside `response`: the requests still pending when the session starts (none)
    assert.deepEqual(Object.keys(mine), Object.keys(real));
    assert.deepEqual(mine.pending_permission_requests, []);
    assert.deepEqual(mine.pending_user_dialog_requests, []);
    const body = (r: Record<string, unknown>) => r.response as Record<string, unknown>;
    assert.deepEqual(body(mine).commands, body(real).commands);
    assert.deepEqual(body(mine).agents, body(real).agents);
  });
}

Deno.test("system/init: the messaging socket is named as the real CLI names it by default (v3xx_messaging_socket)", async () => {
  const recorded = JSON.parse(
    await Deno.readTextFile(
      new URL("./fixtures/real/v3xx_messaging_socket.json", import.meta.url),
    ),
  ) as { runs: Array<{ env_extra: string; messaging_socket_path: string }> };
  // the default environment (no XDG_RUNTIME_DIR, no temp folder set): /tmp/cc-socks/<pid>.sock
  const defaults = recorded.runs.filter((r) => r.env_extra === "");
  assert.ok(defaults.length > 0);
  const shape = (path: string) => path.replace(/\/\d+\.sock$/, "/<pid>.sock");
  const ours = await runMock(
    new ScenarioBuilder().on(/hello/).respond("Hello!").build(),
    ["hello"],
    { maxTurns: 1 },
  );
  const init = ours.out.find((f) => f.subtype === "init")!;
  const socket = String(init.messaging_socket_path);
  for (const run of defaults) assert.equal(shape(socket), shape(run.messaging_socket_path));
  // named after the process id the initialize answer reports, as the real CLI's is
  const pid = (initializeAnswer(ours.out).response as { pid: number }).pid;
  assert.equal(socket, `/tmp/cc-socks/${pid}.sock`);
});
