// The package's README (docs/node.md, as shipped) as a user follows it: each ```js block that
// starts with `// <file>` is written into a folder of this project (so its imports resolve from
// node_modules), and each one with a `// run: <command>` line is run that way; its stdout must be
// the ```text block that follows it, if any. Blocks that start with `// npm_test/...` are
// excerpts of test files CI runs (tests/docs_node_test.ts checks them in the repository).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { projectDir } from "./_helpers.mjs";

const readmePath = join(
  dirname(fileURLToPath(import.meta.resolve("@x/claude-mock/package.json"))),
  "README.md",
);
const readme = await readFile(readmePath, "utf8");

/** The fenced blocks in order (indented ones too): language and text, de-indented. */
const blocks = [...readme.matchAll(/^( *)```(\w*)[^\n]*\n([\s\S]*?)^\1```$/gm)].map((m) => ({
  lang: m[2],
  text: m[3].split("\n").map((l) => l.slice(m[1].length)).join("\n"),
}));
const files = blocks.flatMap((block, i) => {
  const [first, second] = block.text.split("\n");
  const name = block.lang === "js" ? /^\/\/ (\S+\.mjs)$/.exec(first)?.[1] : undefined;
  if (!name || name.startsWith("npm_test/")) return [];
  const run = /^\/\/ run: (.+)$/.exec(second ?? "")?.[1];
  const next = blocks[i + 1];
  return [{ name, text: block.text, run, expected: next?.lang === "text" ? next.text : undefined }];
});

// the files sit inside the project, so their imports resolve from its node_modules
const dir = await mkdtemp(join(projectDir, "readme-tour-"));
after(() => rm(dir, { recursive: true }));

function exec(command) {
  const [cmd, ...args] = command.split(" ");
  return new Promise((resolve, reject) => {
    // a nested `node --test` reports to the outer runner unless it is told it is on its own
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const child = spawn(cmd === "node" ? process.execPath : cmd, args, {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

test("the README is written for Node: its files and commands, no Deno API", () => {
  assert.deepEqual(files.map((f) => f.name), [
    "src/assistant.mjs",
    "test/assistant.test.mjs",
    "first.mjs",
    "app.test.mjs",
    "binary.mjs",
  ]);
  assert.deepEqual(files.map((f) => f.run !== undefined), [false, true, true, true, true]);
  assert.doesNotMatch(readme, /\bDeno\./);
});

test("README: every file is written", async () => {
  for (const file of files) {
    await mkdir(join(dir, dirname(file.name)), { recursive: true });
    await writeFile(join(dir, file.name), file.text);
  }
  // the recording the cassette test replays, as a user keeps it beside the tests
  await mkdir(join(dir, "test", "__cassettes__"), { recursive: true });
  await copyFile(
    join(projectDir, "test", "__cassettes__", "hello.jsonl"),
    join(dir, "test", "__cassettes__", "hello.jsonl"),
  );
});

for (const file of files.filter((f) => f.run !== undefined)) {
  test(`README: ${file.name} runs as "${file.run}"`, async () => {
    const out = await exec(file.run.replace(" --test ", " --test --test-reporter=tap "));
    assert.equal(out.code, 0, `${file.name} failed:\n${out.stdout}\n${out.stderr}`);
    if (file.run.includes("--test")) {
      assert.match(out.stdout, /^# fail 0$/m);
      assert.doesNotMatch(out.stdout, /^# pass 0$/m);
    } else if (file.expected !== undefined) {
      assert.equal(out.stdout, file.expected);
      assert.equal(out.stderr, "");
    }
  });
}
