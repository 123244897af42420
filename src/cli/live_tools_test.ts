import assert from "node:assert/strict";
import { createBuildContext } from "../builders/build_context.ts";
import { liveToolRunner } from "./live_tools.ts";

const RECORDED_CWD = "/home/user/project";

/** The tool uses of a recording and the results the real CLI gave them, in call order. */
async function recorded(name: string) {
  const url = new URL(`../../tests/fixtures/real/${name}.jsonl`, import.meta.url);
  const lines = (await Deno.readTextFile(url)).trim().split("\n").slice(1).map((l) =>
    JSON.parse(l)
  );
  const uses = new Map<string, { name: string; input: Record<string, unknown> }>();
  const results = new Map<string, { content: unknown; tool_use_result: unknown }>();
  for (const { dir, frame } of lines) {
    if (dir !== "cli->sdk") continue;
    const block = frame.message?.content?.[0];
    if (frame.type === "assistant" && block?.type === "tool_use") uses.set(block.id, block);
    if (frame.type === "user" && block?.type === "tool_result") {
      results.set(block.tool_use_id, {
        content: block.content,
        tool_use_result: frame.tool_use_result,
      });
    }
  }
  return [...uses].map(([id, use]) => ({ ...use, ...results.get(id)! }));
}

/** Writes `files` under `dir`, each with its modification time (seconds), in order. */
async function tree(dir: string, files: [string, string, number][]) {
  for (const [rel, body, at] of files) {
    const path = `${dir}/${rel}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, body);
    await Deno.utime(path, at, at);
  }
}

/** Runs each recorded Glob and Grep live in `dir` and compares with what the real CLI gave. */
async function replay(name: string, dir: string) {
  const run = liveToolRunner(dir);
  const ctx = createBuildContext({ seed: 1, cwd: dir });
  const uses = await recorded(name);
  assert.ok(uses.length >= 7, `${name}: ${uses.length} tool uses`);
  for (const use of uses) {
    const input = JSON.parse(JSON.stringify(use.input).replaceAll(RECORDED_CWD, dir));
    const got = await run({ name: use.name, input, ctx });
    const where = `${name}: ${use.name} ${JSON.stringify(use.input)}`;
    assert.ok(got, where);
    assert.equal(got.content, use.content, where);
    const structured = (got.toolUseResult ?? {}) as Record<string, unknown>;
    const want = use.tool_use_result as Record<string, unknown>;
    if (use.name === "Glob") {
      assert.equal(typeof structured.durationMs, "number", where);
      structured.durationMs = want.durationMs;
    }
    assert.deepEqual(structured, want, where);
    assert.deepEqual(Object.keys(structured), Object.keys(want), `${where}: key order`);
  }
}

Deno.test("live Glob and Grep give what the real CLI gave (r3_glob_grep): relative paths, hidden files, oldest first and newest first", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await tree(dir, [
      ["src/app.ts", "export const app = 1; // TODO: wire the app\nconsole.log(app);\n", 1000],
      ["src/util.ts", "export function util() {\n  return 2; // todo later\n}\n", 1000],
      ["src/deep/nested.ts", "// nothing to do here\nexport {};\n", 1000],
      ["README.md", "# Demo\nRun make to build. TODO: docs\n", 2000],
      ["notes.txt", "build uses make\nTODO one\nTODO two\n", 3000],
      [".hidden/secret.ts", "TODO hidden\n", 4000],
    ]);
    await replay("r3_glob_grep", dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("live Grep's modes, context, head_limit, type and count (r3_grep_more)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await tree(dir, [
      ["a.txt", "alpha\nbeta\ngamma\ndelta\nalpha again\nepsilon\nzeta\nalpha third\n", 1000],
      ["b.md", "no greek here\nAlpha capital\n", 2000],
      ["lib/c.ts", "const alpha = 1;\n", 2000],
    ]);
    await replay("r3_grep_more", dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("liveToolRunner: only the tools it was given; a missing file is an error", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const ctx = createBuildContext({ seed: 1, cwd: dir });
    assert.equal(await liveToolRunner(dir, ["Read"])({ name: "Bash", input: {}, ctx }), undefined);
    const missing = await liveToolRunner(dir)({
      name: "Read",
      input: { file_path: "nope.txt" },
      ctx,
    });
    assert.equal(missing?.isError, true);
    const bad = await liveToolRunner(dir)({ name: "Grep", input: { pattern: "(" }, ctx });
    assert.equal(bad?.isError, true);
    assert.match(String(bad?.content), /^<tool_use_error>Invalid regex pattern: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
