// `cli.ts drift` as a subprocess, with the real `deno check` against the installed Agent SDK:
// the committed recordings and snapshots fit the SDK's types (but for the known findings in
// tests/fixtures/drift-baseline.json), and mutated frames are found at their lines.
import assert from "node:assert/strict";
import { fromFileUrl } from "./_paths.ts";

const ROOT = fromFileUrl(new URL("../", import.meta.url));
const CLI = `${ROOT}cli.ts`;
const BASELINE = "tests/fixtures/drift-baseline.json";

async function drift(args: string[], cwd = ROOT) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "drift", ...args],
    cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("drift: the real recordings, the snapshots and the wire samples fit the SDK's types", async () => {
  const run = await drift([
    "tests/fixtures/real",
    "snapshots",
    "tests/fixtures/wire-samples",
    "--baseline",
    BASELINE,
  ]);
  assert.equal(run.stderr, "");
  assert.match(
    run.stdout,
    /^drift: no drift in \d+ tapes \(\d+ known in tests\/fixtures\/drift-baseline\.json\)\n$/,
  );
  assert.equal(run.code, 0);
});

Deno.test("drift: renamed fields, an unknown type and an unknown block are found at their lines", async () => {
  const dir = await Deno.makeTempDir({ prefix: "drift-test-" });
  try {
    const lines = (await Deno.readTextFile(`${ROOT}tests/fixtures/real/hello.jsonl`)).trimEnd()
      .split("\n");
    const edit = (n: number, fn: (frame: Record<string, unknown>) => void) => {
      const entry = JSON.parse(lines[n - 1]);
      fn(entry.frame);
      lines[n - 1] = JSON.stringify(entry);
    };
    edit(5, (f) => (f.type = "bogus_kind")); // was system/session_state_changed
    edit(6, (f) => {
      f.model_name = f.model; // system/init: model renamed
      delete f.model;
    });
    edit(7, (f) => {
      (f.message as { content: Array<{ type: string }> }).content[0].type = "hologram"; // assistant
    });
    edit(8, (f) => {
      f.num_turn = f.num_turns; // result: num_turns renamed
      delete f.num_turns;
    });
    await Deno.writeTextFile(`${dir}/mutated.jsonl`, `${lines.join("\n")}\n`);
    const run = await drift([`${dir}/mutated.jsonl`, "--baseline", BASELINE]);
    assert.equal(run.code, 1, run.stderr);
    const found = run.stdout.trimEnd().split("\n").map((l) => l.replace(`${dir}/`, ""));
    assert.deepEqual(found, [
      "mutated.jsonl:5  bogus_kind/session_state_changed  unknown-kind: The SDK's types have no such frame: Type '{…}' is not assignable to type 'never'.",
      'mutated.jsonl:6  system/init  unmodeled-field at model_name: The SDK\'s SDKSystemMessage has no field "model_name"',
      "mutated.jsonl:6  system/init  missing-field: Property 'model' is missing in type '{…}' but required in type 'SDKSystemMessage'.",
      "mutated.jsonl:7  assistant  dropped-content at message.content[0]: " +
      'The SDK\'s types have no type "hologram" here (they have "text" ' +
      '| "thinking" | "redacted_thinking" | "tool_use" | "server_tool_use" ' +
      '| "web_search_tool_result…)',
      'mutated.jsonl:8  result/success  unmodeled-field at num_turn: The SDK\'s SDKResultSuccess has no field "num_turn" (did you mean "num_turns"?)',
      "mutated.jsonl:8  result/success  missing-field: Property 'num_turns' is missing in type '{…}' but required in type 'SDKResultSuccess'.",
      found.at(-1)!,
    ]);
    assert.match(
      found.at(-1)!,
      /^drift: 6 findings in 1 of 1 tape \(\d+ known in tests\/fixtures\/drift-baseline\.json\); \d+ baseline entries are no longer found$/,
    );

    const noSdk = await drift([dir, "--sdk", "./no_such_sdk.ts"]);
    assert.equal(noSdk.code, 2);
    assert.match(noSdk.stderr, /^claude-mock drift: Cannot check drift: .*no_such_sdk\.ts/);
    await Deno.remove(`${dir}/mutated.jsonl`);
    const none = await drift([dir]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^claude-mock drift: no tapes found in /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
