// The fake binary in print mode (`claude -p`) against records of the real CLI 2.1.328 and
// 2.1.332 run the same way (tests/fixtures/real/print/, FINDINGS_v332.md): the error texts once
// retries are exhausted, the stderr lines of a malformed stream, the denial of a Read outside
// the working directory. Each record: argv, env, exit code, stdout, stderr.
import assert from "node:assert/strict";
import { runCli } from "../cli.ts";
import { type FailureName, ScenarioBuilder } from "../mod.ts";
import { scenarioToJSON } from "../scenario_file.ts";
import { mask } from "./_mask.ts";

interface PrintRecord {
  case: string;
  argv: string[];
  env_extra: Record<string, string>;
  exit_code: number;
  stdout: string;
  stderr_tail: string;
}

const read = (name: string): PrintRecord =>
  JSON.parse(
    Deno.readTextFileSync(new URL(`./fixtures/real/print/${name}.json`, import.meta.url)),
  );

/** Runs the fake binary as the record ran the real one (the gateway named as recorded). */
async function runLike(
  record: PrintRecord,
  scenario: { failure?: FailureName; file?: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = await Deno.makeTempDir({ prefix: "print-fidelity-" });
  try {
    const decoder = new TextDecoder();
    const out = { stdout: "", stderr: "" };
    const sink = (key: "stdout" | "stderr") =>
      new WritableStream<Uint8Array>({ write: (c) => void (out[key] += decoder.decode(c)) });
    const env: Record<string, string> = {
      ...record.env_extra,
      ANTHROPIC_BASE_URL: "http://127.0.0.1:41000",
      CLAUDE_CONFIG_DIR: `${dir}/config`,
      CLAUDE_MOCK_STATE_DIR: `${dir}/state`,
      ...(scenario.failure ? { CLAUDE_MOCK_FAILURE: scenario.failure } : {}),
    };
    if (scenario.file) {
      await Deno.writeTextFile(`${dir}/scenario.json`, scenario.file);
      env.CLAUDE_MOCK_SCENARIO = `${dir}/scenario.json`;
    }
    const code = await runCli({
      argv: record.argv.slice(1),
      cwd: "/home/user/project",
      env,
      stdin: new Blob([]).stream(),
      stdinIsTerminal: false,
      stdinMayStall: false,
      stdoutIsTerminal: false,
      stdout: sink("stdout"),
      stderr: sink("stderr"),
    });
    // the records scrub the API's port to <port>
    const port = (text: string) => text.replaceAll("127.0.0.1:41000", "127.0.0.1:<port>");
    return { code, stdout: port(out.stdout), stderr: port(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The result a print run ended with: the text output, or the last JSON line's result. */
function resultOf(stdout: string): unknown {
  const last = stdout.trimEnd().split("\n").at(-1) ?? "";
  if (!last.startsWith("{")) return mask(stdout);
  const frame = JSON.parse(last);
  return mask({ result: frame.result, is_error: frame.is_error, subtype: frame.subtype });
}

for (const version of ["328", "332"]) {
  for (
    const [name, failure] of [
      // a 529 after its retries, outside a sandbox: "Repeated 529 Overloaded errors"
      ["p_overloaded_text", "overloaded"],
      ["p_overloaded_json", "overloaded"],
      ["p_overloaded_streamjson", "overloaded"],
      // no retry: the single 529's words
      ["p_overloaded_json_noretry", "overloaded"],
      // a connection reset again and again
      ["p_reset_text", "connection_reset"],
      ["p_reset_json", "connection_reset"],
      ["p_reset_streamjson", "connection_reset"],
      // a malformed stream: its stderr lines, and 2.1.332's words for the unusable fallback
      ["p_malformed_named_text", "malformed_stream"],
      ["p_malformed_named_sj", "malformed_stream"],
    ] as const
  ) {
    Deno.test(`print mode as CLI 2.1.${version}: ${name}`, async () => {
      const record = read(`v${version}_${name}`);
      const ours = await runLike(
        { ...record, env_extra: { ...record.env_extra, CLAUDE_MOCK_VERSION: `2.1.${version}` } },
        { failure },
      );
      assert.equal(ours.code, record.exit_code, "exit code");
      // the recorder's API sent no request-id with its answers (the real API and the scenario
      // API do: tests/conform_recordings_slow_test.ts)
      const recorded = record.stdout.replaceAll(
        "request-id absent",
        "request-id req_01recordernone",
      );
      assert.deepEqual(resultOf(ours.stdout), resultOf(recorded), "what it printed");
      assert.equal(ours.stderr, record.stderr_tail, "stderr");
    });
  }

  for (const format of ["text", "json"]) {
    Deno.test(`print mode as CLI 2.1.${version}: a model the CLI retires, ${format} output`, async () => {
      // 2.1.332 warns about Claude Opus 4.5 in text output (stderr); 2.1.328 does not know of it
      const record = read(`v${version}_p_retired_model_${format}`);
      const ours = await runLike(
        { ...record, env_extra: { CLAUDE_MOCK_VERSION: `2.1.${version}` } },
        {},
      );
      assert.equal(ours.code, record.exit_code);
      assert.deepEqual(resultOf(ours.stdout), resultOf(record.stdout));
      assert.equal(ours.stderr, record.stderr_tail);
    });
  }

  Deno.test(`print mode as CLI 2.1.${version}: a Read outside the working directory is denied, unasked`, async () => {
    const record = read(`v${version}_p_read_outside_sj`);
    const scenario = new ScenarioBuilder().on("read /etc/hostname")
      .usesRead("/etc/hostname", { content: "vm\n" })
      .respond("I could not read it.")
      .build();
    const ours = await runLike(
      { ...record, env_extra: { CLAUDE_MOCK_VERSION: `2.1.${version}` } },
      { file: JSON.stringify(scenarioToJSON(scenario)) },
    );
    assert.equal(ours.code, record.exit_code);
    const frames = (text: string) => text.trimEnd().split("\n").map((l) => JSON.parse(l));
    const pick = (frames: Array<Record<string, unknown>>) =>
      frames.filter((f) => f.type !== "system" || f.subtype !== "init").map((f) => {
        if (f.type === "system") {
          const { uuid: _u, session_id: _s, ...rest } = f;
          return mask(rest);
        }
        if (f.type === "user") {
          return mask({
            content: (f.message as { content: unknown }).content,
            tool_use_result: f.tool_use_result,
            tool_result_meta: f.tool_result_meta,
          });
        }
        if (f.type === "result") return mask({ denials: f.permission_denials, result: f.result });
        return f.type;
      });
    assert.deepEqual(pick(frames(ours.stdout)), pick(frames(record.stdout)));
  });
}
