// The README's Node tour, as shipped in the package: each ```js block of its "## Node"
// section that starts with `// <file>.mjs` is written into this project and run the way the
// README says (`node --test` for *.test.mjs, else `node <file>`, whose stdout must be the
// ```text block that follows it).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { projectDir } from "./_helpers.mjs";

const readmePath = join(
  dirname(fileURLToPath(import.meta.resolve("@x/claude-mock/package.json"))),
  "README.md",
);
const readme = await readFile(readmePath, "utf8");
const start = readme.indexOf("\n## Node\n");
const end = readme.indexOf("\n## ", start + 1);
assert.ok(start >= 0, `no "## Node" section in ${readmePath}`);
const section = readme.slice(start, end < 0 ? undefined : end);

/** The section's fenced blocks in order: language and text. */
const blocks = [...section.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```$/gm)]
  .map((m) => ({ lang: m[1], text: m[2] }));
const files = blocks.flatMap((block, i) => {
  const name = block.lang === "js" ? /^\/\/ (\S+\.mjs)\n/.exec(block.text)?.[1] : undefined;
  if (!name) return [];
  const next = blocks[i + 1];
  return [{ name, text: block.text, expected: next?.lang === "text" ? next.text : undefined }];
});

// the files sit inside the project, so their imports resolve from its node_modules
const dir = await mkdtemp(join(projectDir, "readme-tour-"));
after(() => rm(dir, { recursive: true }));

function node(args) {
  return new Promise((resolve, reject) => {
    // a nested `node --test` reports to the outer runner unless it is told it is on its own
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const child = spawn(process.execPath, args, {
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

test("the README's Node section has the tour: three files, two with their output", () => {
  assert.deepEqual(files.map((f) => f.name), ["first.mjs", "app.test.mjs", "binary.mjs"]);
  assert.deepEqual(files.map((f) => f.expected !== undefined), [true, false, true]);
});

for (const file of files) {
  test(`README tour: ${file.name} runs as the README says`, async () => {
    await writeFile(join(dir, file.name), file.text);
    const isTest = file.name.endsWith(".test.mjs");
    const out = await node(isTest ? ["--test", "--test-reporter=tap", file.name] : [file.name]);
    assert.equal(out.code, 0, `${file.name} failed:\n${out.stdout}\n${out.stderr}`);
    if (isTest) {
      assert.match(out.stdout, /^# fail 0$/m);
      assert.doesNotMatch(out.stdout, /^# pass 0$/m);
    } else {
      assert.equal(out.stdout, file.expected);
      assert.equal(out.stderr, "");
    }
  });
}
