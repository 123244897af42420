// Fidelity found by conformance (issue 20, the control plane): what `cli.ts conform` showed the
// mock doing otherwise than the real CLI, each checked against a recording of the real CLI
// (tests/fixtures/real/).
import assert from "node:assert/strict";
import { readTape, runMock, sdkQueryFor } from "./_fidelity.ts";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { parseTape } from "../cassette.ts";
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

/** A query through the mock that may skip permissions; what the app and the process saw. */
async function bypassRun(
  options: { root: boolean; env?: Record<string, string>; allowOnly?: boolean },
): Promise<{ error?: string; stderr: string; out: Frame[]; code: number | null }> {
  const { query } = await import("@anthropic-ai/claude-agent-sdk");
  const mock = new MockTransport(
    new ScenarioBuilder().on(/.*/).respond("Touched.").build(),
    { root: options.root, recordSent: true },
  );
  let stderr = "";
  let error: string | undefined;
  try {
    for await (
      const _ of query({
        prompt: "Touch out.txt.",
        options: {
          ...mock.options(),
          // the process's stderr (an SDK that spawns through a function does not read it)
          spawnClaudeCodeProcess: (o) => {
            const process = mock.spawn(o);
            process.stderr?.on("data", (text) => (stderr += String(text)));
            return process;
          },
          ...(options.allowOnly ? {} : { permissionMode: "bypassPermissions" }),
          allowDangerouslySkipPermissions: true,
          env: { ...Deno.env.toObject(), ...options.env },
        },
      })
    );
  } catch (e) {
    error = (e as Error).message;
  }
  return { error, stderr, out: mock.session.sent(), code: (await mock.exited).code };
}

Deno.test("bypassPermissions as root: refused as the real CLI refuses it, unless IS_SANDBOX=1 (perm_mode_bypass_root)", async () => {
  const recorded = parseTape(
    await Deno.readTextFile(
      new URL(
        "./fixtures/real/conform/perm_mode_bypass_root.duplex.v2.1.328.jsonl",
        import.meta.url,
      ),
    ),
  );
  const realStderr = recorded.entries.flatMap((e) => "text" in e ? [e.text] : []).join("");
  const realOut = recorded.entries.filter((e) => "frame" in e && e.dir === "cli->sdk");
  const refused = await bypassRun({ root: true });
  assert.equal(refused.stderr, realStderr);
  assert.equal(refused.out.length, realOut.length); // nothing written: no initialize answer
  assert.equal(refused.code, recorded.ending?.code);
  assert.equal(refused.error, recorded.header.app_error);
  // --allow-dangerously-skip-permissions alone is refused too (print/v328_p_bypass_root_allow_only)
  const allowOnly = JSON.parse(
    await Deno.readTextFile(
      new URL("./fixtures/real/print/v328_p_bypass_root_allow_only.json", import.meta.url),
    ),
  ) as { stderr_tail: string; exit_code: number };
  const refusedToo = await bypassRun({ root: true, allowOnly: true });
  assert.equal(refusedToo.stderr, allowOnly.stderr_tail);
  assert.equal(refusedToo.code, allowOnly.exit_code);
  // in a sandbox (IS_SANDBOX=1, print/v328_p_bypass_root_allow_only_sandbox), or not as root
  for (const run of [{ root: true, env: { IS_SANDBOX: "1" } }, { root: false }]) {
    const ran = await bypassRun(run);
    assert.equal(ran.error, undefined);
    assert.equal(ran.code, 0);
    assert.equal(ran.stderr, "");
  }
});
