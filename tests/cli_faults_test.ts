// The fake binary under faults (issue 21): a crash point writes exactly what it promises,
// signals in print mode keep the record, a reader that goes away ends the run as the real CLI
// does, and the fault knobs refuse values they cannot use. Each runs the binary as a program:
// `cli.ts` and the bundle `dist/bin.js` on Deno, and the bundle on Node (the bundle's signal
// tests, and many crash runs at once, are in the slow tier: `tests/cli_faults_bin_slow_test.ts`).
import assert from "node:assert/strict";
import { frameKind } from "../src/wire/_kind_of.ts";
import {
  crashAfterMisses,
  decoder,
  ENTRIES,
  ROOT,
  type Run,
  run,
  sandbox,
  signalTests,
  start,
} from "./_cli_faults.ts";

const kindOfLine = (line: string) => frameKind(JSON.parse(line));

// ---- item 5: CLAUDE_MOCK_CRASH_AFTER ------------------------------------------------------

Deno.test("CLAUDE_MOCK_CRASH_AFTER=n writes exactly n lines, each way to run the binary", async () => {
  // one run per entry here; many at once, where lost output showed, in the slow tier
  // (tests/cli_faults_bin_slow_test.ts)
  assert.deepEqual(await crashAfterMisses(1), []);
});

// ---- item 4: signals in print mode, a reader that goes away ---------------------------------

signalTests("cli.ts");

Deno.test("SIGINT while duplex mode waits for the client: exit 0 at once, stdin still open", async () => {
  await using box = await sandbox();
  const run = start(
    "cli.ts",
    ["--input-format", "stream-json", "--output-format", "stream-json", "--verbose"],
    { env: { ...box.env, CLAUDE_MOCK_STDERR: "ready" }, cwd: box.dir, stdin: "piped" },
  );
  await run.stderrLine();
  run.child.kill("SIGINT");
  const r = await run.finish();
  assert.deepEqual([r.code, r.signal, r.stdout], [0, null, ""]);
  await run.child.stdin.close().catch(() => {});
});

// ---- item 3: huge prompts in print mode ----------------------------------------------------

interface Record_ {
  argv: string[];
  stdin: { repeat: string; chars: number } | string | null;
  exit_code: number;
  stdout: string;
  stderr: string;
}

async function record(name: string): Promise<Record_> {
  return JSON.parse(
    await Deno.readTextFile(`${ROOT}tests/fixtures/real/print_faults/${name}.json`),
  );
}

/** Runs the fake in process with the record's argv and stdin (no subprocess: 3 M characters). */
async function replay(rec: Record_, dir: string): Promise<Run> {
  const stdin = typeof rec.stdin === "string"
    ? rec.stdin
    : rec.stdin
    ? rec.stdin.repeat.repeat(rec.stdin.chars)
    : "";
  const bytes = new TextEncoder().encode(stdin);
  let at = 0;
  let stdout = "";
  let stderr = "";
  const { runCliProcess } = await import("../src/cli/run_cli.ts");
  const code = await runCliProcess({
    argv: rec.argv,
    env: { CLAUDE_CONFIG_DIR: `${dir}/config`, CLAUDE_MOCK_STATE_DIR: `${dir}/state` },
    cwd: dir,
    stdinIsTerminal: false,
    stdinMayStall: false,
    stdoutIsTerminal: false,
    stdio: {
      // a pipe's chunks
      read: () => {
        if (at >= bytes.length) return Promise.resolve(null);
        const chunk = bytes.subarray(at, at + 65_536);
        at += chunk.length;
        return Promise.resolve(chunk);
      },
      cancelRead: () => {},
      write: (c) => Promise.resolve(void (stdout += decoder.decode(c))),
      writeErr: (c) => Promise.resolve(void (stderr += decoder.decode(c))),
    },
  });
  return { code, signal: null, stdout, stderr };
}

Deno.test("a piped prompt over 10 MiB is refused as the real CLI refuses it; 10 MiB is taken", async () => {
  await using box = await sandbox();
  for (const name of ["stdin_10mib_plus1", "huge_prompt_17mib"]) {
    const rec = await record(name);
    const mock = await replay(rec, box.dir);
    assert.deepEqual(
      [mock.code, mock.stdout, mock.stderr],
      [rec.exit_code, rec.stdout, rec.stderr],
      name,
    );
  }
  // 10 MiB exactly is a prompt: too long for the context, but not refused
  const rec = await record("stdin_10mib");
  const mock = await replay(rec, box.dir);
  assert.equal(mock.code, rec.exit_code);
  assert.equal(JSON.parse(mock.stdout).result, JSON.parse(rec.stdout).result);
});

Deno.test("a stdin line that is not JSON ends the run as the recording of the real CLI shows", async () => {
  await using box = await sandbox();
  const rec = await record("stream_json_bad_line");
  const mock = await replay(rec, box.dir);
  assert.deepEqual(
    [mock.code, mock.stdout, mock.stderr],
    [rec.exit_code, rec.stdout, rec.stderr],
  );
});

Deno.test("a 17 MiB user frame in duplex mode is a prompt too long, as for the real CLI; 65 MiB is refused", async () => {
  await using box = await sandbox();
  const rec = await record("stream_json_huge_user");
  const chars = (rec.stdin as unknown as { chars: number }).chars;
  const head = '{"type":"user","message":{"role":"user","content":"';
  const tail = '"},"parent_tool_use_id":null,"session_id":""}\n';
  const frame = head + "x".repeat(chars - head.length - tail.length) + tail;
  assert.equal(frame.length, chars);
  const mock = await replay({ ...rec, stdin: frame }, box.dir);
  assert.equal(mock.code, rec.exit_code);
  assert.equal(mock.stderr, rec.stderr);
  const last = (text: string) => JSON.parse(text.trim().split("\n").at(-1)!);
  assert.equal(
    last(mock.stdout).result,
    last((rec as unknown as { stdout: string }).stdout).result,
  );
  // over the mock's own limit: said, exit 1, never a line dropped in silence
  const huge = head + "x".repeat(65 * 1024 * 1024) + tail;
  const refused = await replay({ ...rec, stdin: huge }, box.dir);
  assert.deepEqual([refused.code, refused.stdout], [1, ""]);
  assert.equal(
    refused.stderr,
    "claude-mock: stdin line 1 is longer than 67108864 characters, the most the mock takes in one stream-json line: the run ends\n",
  );
});

Deno.test("a 17 MiB prompt through a real pipe: the error, exit 1, never exit 0 with nothing", async () => {
  await using box = await sandbox();
  const [command, ...prefix] = ENTRIES["dist/bin.js"];
  const child = new Deno.Command(command, {
    args: [...prefix, "-p", "--output-format", "json"],
    env: box.env,
    clearEnv: true,
    cwd: box.dir,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  // the binary stops reading past the limit: the rest of the write fails (EPIPE)
  writer.write(new TextEncoder().encode("x".repeat(17 * 1024 * 1024) + "\n")).catch(() => {});
  writer.close().catch(() => {});
  const out = await child.output();
  assert.equal(out.code, 1);
  assert.equal(decoder.decode(out.stdout), "");
  assert.match(decoder.decode(out.stderr), /^Error: piped stdin input exceeds 10MB\./);
});

Deno.test("a prompt too long for the context: the real CLI's frames, result, text and exit code", async () => {
  await using box = await sandbox();
  const ok = await replay(await record("long_ok_json"), box.dir);
  assert.equal(ok.code, 0, "2,921,002 characters are sent");
  for (const name of ["too_long_stream_json", "too_long_json", "too_long_text"]) {
    const rec = await record(name);
    const mock = await replay(rec, box.dir);
    assert.equal(mock.code, rec.exit_code, name);
    assert.equal(mock.stderr, rec.stderr, name);
    if (name === "too_long_text") {
      assert.equal(mock.stdout, rec.stdout);
      continue;
    }
    const real = rec.stdout.trim().split("\n");
    const ours = mock.stdout.trim().split("\n");
    assert.deepEqual(ours.map(kindOfLine), real.map(kindOfLine), name);
    const pick = (line: string) => {
      const r = JSON.parse(line);
      return [
        r.subtype,
        r.is_error,
        r.result,
        r.terminal_reason,
        r.stop_reason,
        r.num_turns,
        r.api_error_status,
        r.total_cost_usd,
        r.modelUsage,
      ];
    };
    assert.deepEqual(pick(ours.at(-1)!), pick(real.at(-1)!), name);
    assert.deepEqual(Object.keys(JSON.parse(ours.at(-1)!)), Object.keys(JSON.parse(real.at(-1)!)));
    if (name === "too_long_stream_json") {
      for (const i of [1, 2, 3]) {
        const strip = (line: string) => {
          const { uuid: _u, session_id: _s, timestamp: _t, message, ...rest } = JSON.parse(line);
          return {
            ...rest,
            ...(message ? { content: message.content, model: message.model } : {}),
          };
        };
        assert.deepEqual(strip(ours[i]), strip(real[i]), `${name} line ${i + 1}`);
      }
    }
  }
});

// ---- item 7: fault knobs that fail silently --------------------------------------------------

Deno.test("a CLAUDE_MOCK_* value the binary cannot use is an error naming it, never a silent run", async () => {
  await using box = await sandbox();
  const bad: Array<[string, string]> = [
    ["CLAUDE_MOCK_CRASH_AFTER", "three"],
    ["CLAUDE_MOCK_SPEED", "fast"],
    ["CLAUDE_MOCK_LIVE", "Bogus"],
    ["CLAUDE_MOCK_SEED", "abc"],
    ["CLAUDE_MOCK_TIMING", "quick"],
    ["CLAUDE_MOCK_HANG", "yes"],
  ];
  const runs = await Promise.all(
    bad.map(([name, value]) =>
      run("dist/bin.js", ["-p", "hello"], { env: { ...box.env, [name]: value }, cwd: box.dir })
    ),
  );
  runs.forEach((r, i) => {
    const [name, value] = bad[i];
    assert.equal(r.code, 1, `${name}=${value}`);
    assert.equal(r.stdout, "", `${name}=${value}: nothing runs`);
    assert.match(r.stderr, new RegExp(`^claude-mock: ${name} must be .+, got "${value}"\\n$`));
  });
});

Deno.test("stdin closed while a permission is pending: the tool is denied at once, as the real CLI denies it", async () => {
  await using box = await sandbox();
  const rec = JSON.parse(
    await Deno.readTextFile(`${ROOT}tests/fixtures/real/print_faults/stdin_closed_permission.json`),
  );
  const stdin = [
    { type: "control_request", request_id: "i1", request: { subtype: "initialize" } },
    {
      type: "user",
      message: { role: "user", content: "Create out.txt with touch." },
      parent_tool_use_id: null,
      session_id: "",
    },
  ].map((f) => JSON.stringify(f) + "\n").join("");
  const mock = await replay({
    argv: [...rec.argv, "--scenario", "builtin:tool_with_permission"],
    stdin,
    exit_code: 0,
    stdout: "",
    stderr: "",
  }, box.dir);
  assert.equal(mock.code, rec.exit_code);
  const frames = mock.stdout.trim().split("\n").map((l) => JSON.parse(l));
  const toolResult = frames.find((f) => f.type === "user");
  assert.deepEqual(
    toolResult.message.content[0].content,
    rec.tool_result_frame.message.content[0].content,
  );
  assert.equal(toolResult.message.content[0].is_error, true);
  assert.equal(toolResult.tool_use_result, rec.tool_result_frame.tool_use_result);
  assert.deepEqual(
    toolResult.tool_result_meta.map((m: { id?: string }) => ({ ...m, id: undefined })),
    rec.tool_result_frame.tool_result_meta.map((m: { id?: string }) => ({ ...m, id: undefined })),
  );
  const result = frames.at(-1);
  assert.equal(result.result, rec.result.result);
  assert.equal(result.num_turns, rec.result.num_turns);
  assert.deepEqual(
    result.permission_denials.map((d: { tool_use_id?: string }) => ({
      ...d,
      tool_use_id: undefined,
    })),
    rec.result.permission_denials.map((d: { tool_use_id?: string }) => ({
      ...d,
      tool_use_id: undefined,
    })),
  );
});

for (
  const name of ["stdin_closed_pretooluse_callback", "stdin_closed_pending_pretooluse_callback"]
) {
  for (const cli of ["2.1.328", "2.1.332"]) {
    Deno.test(`stdin closed with a PreToolUse hook callback to ask: the tool use is cancelled and the turn goes on, as the real CLI ${cli} (${name})`, async () => {
      await using box = await sandbox();
      const rec = JSON.parse(
        await Deno.readTextFile(`${ROOT}tests/fixtures/real/print_faults/${name}.v${cli}.json`),
      );
      const mock = await duplexUntil(rec, box.dir, {
        scenario: "builtin:tool_with_permission",
        cli,
        // stdin ends at once, or when the hook callback's request is written
        closeOn: rec.stdin_closed.startsWith("when") ? '"subtype":"hook_callback"' : undefined,
      });
      assert.equal(mock.code, rec.exit_code);
      const frames = mock.stdout.trim().split("\n").map((l) => JSON.parse(l))
        .filter((f) => !(f.type === "control_response" && f.response?.request_id === "i1"));
      // deno-lint-ignore no-explicit-any
      type F = Record<string, any>;
      const kinds = (fs: F[]) => fs.map((f) => frameKind(f));
      assert.deepEqual(kinds(frames), kinds(rec.stdout_frames));
      const user = (fs: F[]) => {
        const f = fs.find((x) => x.type === "user")!;
        return {
          content: f.message.content.map((c: F) => ({ ...c, tool_use_id: undefined })),
          tool_use_result: f.tool_use_result,
          tool_result_meta: f.tool_result_meta.map((m: F) => ({ ...m, id: undefined })),
        };
      };
      assert.deepEqual(user(frames), user(rec.stdout_frames));
      const result = (fs: F[]) => {
        const r = fs.at(-1)!;
        return [r.subtype, r.is_error, r.num_turns, r.permission_denials, r.result];
      };
      assert.deepEqual(result(frames), result(rec.stdout_frames));
    });
  }
}

/**
 * Runs a recorded duplex stdin through the binary in process; stdin ends when all was read, or
 * (with `closeOn`) once stdout has a line with that text.
 */
async function duplexUntil(
  rec: { argv: string[]; stdin: unknown[] },
  dir: string,
  options: { scenario: string; cli: string; closeOn?: string },
): Promise<Run> {
  const bytes = new TextEncoder().encode(rec.stdin.map((f) => JSON.stringify(f) + "\n").join(""));
  let sent = false;
  let stdout = "";
  let stderr = "";
  let seen: () => void = () => {};
  const closing = new Promise<void>((resolve) => (seen = resolve));
  const { runCliProcess } = await import("../src/cli/run_cli.ts");
  const code = await runCliProcess({
    argv: [...rec.argv, "--scenario", options.scenario],
    env: {
      CLAUDE_CONFIG_DIR: `${dir}/config`,
      CLAUDE_MOCK_STATE_DIR: `${dir}/state`,
    },
    cwd: dir,
    stdinIsTerminal: false,
    stdinMayStall: false,
    stdoutIsTerminal: false,
    stdio: {
      read: async () => {
        if (!sent) {
          sent = true;
          return bytes;
        }
        if (options.closeOn !== undefined) await closing;
        return null;
      },
      cancelRead: () => seen(),
      write: (c) => {
        stdout += decoder.decode(c);
        if (options.closeOn !== undefined && stdout.includes(options.closeOn)) seen();
        return Promise.resolve();
      },
      writeErr: (c) => Promise.resolve(void (stderr += decoder.decode(c))),
    },
  });
  return { code, signal: null, stdout, stderr };
}

Deno.test("stdin closed while a written permission request waits: denied with the real CLI's text for it", async () => {
  // recorded by hand with the real CLI 2.1.328 and 2.1.332 (FINDINGS_gaps.md): stdin ends as
  // the can_use_tool request comes
  await using box = await sandbox();
  const rec = JSON.parse(
    await Deno.readTextFile(`${ROOT}tests/fixtures/real/print_faults/stdin_closed_permission.json`),
  );
  const mock = await duplexUntil(
    {
      argv: rec.argv,
      stdin: [
        { type: "control_request", request_id: "i1", request: { subtype: "initialize" } },
        {
          type: "user",
          message: { role: "user", content: "Create out.txt with touch." },
          parent_tool_use_id: null,
          session_id: "",
        },
      ],
    },
    box.dir,
    { scenario: "builtin:tool_with_permission", cli: "2.1.332", closeOn: '"can_use_tool"' },
  );
  assert.equal(mock.code, 0);
  const frames = mock.stdout.trim().split("\n").map((l) => JSON.parse(l));
  const user = frames.find((f) => f.type === "user");
  const text = "Tool permission request failed: AbortError: Tool permission stream closed before " +
    "response received";
  assert.equal(user.message.content[0].content, text);
  assert.equal(user.tool_use_result, `Error: ${text}`);
  assert.deepEqual(user.tool_result_meta[0].permission_decision, {
    decision: "reject",
    source: "config",
    reason_type: "other",
  });
  assert.equal(frames.at(-1).permission_denials.length, 1);
});
