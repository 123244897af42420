// The docs run: every code block of README.md, CONTRIBUTING.md and docs/*.md is a test.
// - ```ts blocks: `deno task check` type-checks them (`deno check --doc`); this file runs each
//   one, with console.log captured, and fails when a `// prints: …` comment is not what its
//   call printed (tests/_doc_snippets.ts says how comments belong to calls). The test command
//   leaves the pages out of `deno test --doc`, which would run each block a second time.
// - ```sh blocks: each command runs (in a scratch folder with copies of examples/ and
//   snapshots/, `deno run` given this repository's deno.json, so `jsr:@x/claude-mock/cli` is
//   this checkout), must exit 0 or as its `# exits: N` says, and print what its `# prints: …`
//   comments say.
// - ```json blocks with a scenario `$schema` load with scenarioFromJSON.
// - A block marked `ignore` says why in its info string (```sh ignore (needs the network)),
//   or is an excerpt of a file of the repository (first line `// path` or `# path`) that a
//   test runs, word for word (indentation aside: deno fmt formats the page's code); docs/node.md's
//   tour files run under Node (npm_test/readme.test.mjs).
// - Lines are at most 100 characters.
import assert from "node:assert/strict";
import { BUILTIN_SCENARIO_NAMES, FAILURE_NAMES, scenarioFromJSON } from "../mod.ts";
import { MOCK_COMMAND_NAMES } from "../mock_command.ts";
import { MOCK_ENV_VARIABLES } from "../src/cli/cli_env.ts";
import {
  type Block,
  blocksOf,
  excerptOf,
  ignoreReason,
  instrument,
  isIgnored,
  mismatch,
  runInstrumented,
  shellCommands,
} from "./_doc_snippets.ts";
import { fromFileUrl } from "./_paths.ts";

const ROOT = new URL("../", import.meta.url);
const root = fromFileUrl(ROOT);

/** The pages: README.md, CONTRIBUTING.md and docs/*.md. */
const PAGES: string[] = [
  "README.md",
  "CONTRIBUTING.md",
  ...[...Deno.readDirSync(new URL("docs/", ROOT))]
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`)
    .sort(),
];
const pages = PAGES.map((file) => ({
  file,
  text: Deno.readTextFileSync(new URL(file, ROOT)),
}));
/** A page a script writes (a report, such as docs/conformance.md) says so on its first line. */
const GENERATED = /^<!-- written by scripts\/[a-z_]+\.ts/;
const written = pages.filter((p) => !GENERATED.test(p.text));
const blocks: Block[] = pages.flatMap(({ file, text }) => blocksOf(text, file));
const where = (b: Block) => `${b.file}:${b.line}`;

// The pages describe a machine that is not a sandbox: with IS_SANDBOX set (to anything), the
// real CLI, and the mock, word an overloaded API otherwise.
Deno.env.delete("IS_SANDBOX");

Deno.test("the pages are README.md, CONTRIBUTING.md and docs/*.md, each with code", () => {
  assert.ok(PAGES.length >= 9, `pages: ${PAGES}`);
  for (const { file } of written) {
    assert.ok(blocks.some((b) => b.file === file), `${file} has no code block`);
  }
});

Deno.test("lines of the pages are at most 100 characters", () => {
  // a report's tables and findings are as wide as their data
  const long = written.flatMap(({ file, text }) =>
    text.split("\n").flatMap((line, i) =>
      line.length > 100 ? [`${file}:${i + 1} (${line.length})`] : []
    )
  );
  assert.deepEqual(long, []);
});

Deno.test("README.md is at most 200 lines", () => {
  const lines = pages.find((p) => p.file === "README.md")!.text.trimEnd().split("\n").length;
  assert.ok(lines <= 200, `README.md has ${lines} lines`);
});

Deno.test("docs/reference.md lists every entry point, variable, failure, scenario and command", () => {
  const page = pages.find((p) => p.file === "docs/reference.md")!.text;
  const config = JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT)));
  const wanted = [
    ...Object.keys(config.exports).map((subpath) => `\`${config.name}${subpath.slice(1)}\``),
    ...Object.keys(MOCK_ENV_VARIABLES).map((name) => `- \`${name}\``),
    ...FAILURE_NAMES.map((name) => `// prints: ${name} (`),
    ...BUILTIN_SCENARIO_NAMES.map((name) => `- \`${name}\`:`),
    ...MOCK_COMMAND_NAMES.map((name) => `- \`${name}\`:`),
  ];
  assert.deepEqual(wanted.filter((text) => !page.includes(text)), []);
});

Deno.test("an ignored block says why, or is an excerpt of a file that runs", async () => {
  for (const block of blocks.filter(isIgnored)) {
    if (ignoreReason(block)) continue;
    const excerpt = excerptOf(block);
    assert.ok(
      excerpt,
      `${where(block)}: an ignored block needs a reason (\`\`\`${block.lang} ignore (why)) or ` +
        `a first line naming the file it is an excerpt of`,
    );
    // docs/node.md's tour: files written into a Node project and run there
    if (block.file === "docs/node.md" && !excerpt.path.startsWith("npm_test/")) continue;
    const text = await Deno.readTextFile(new URL(excerpt.path, ROOT)).catch(() => undefined);
    assert.ok(text !== undefined, `${where(block)}: ${excerpt.path} is not in the repository`);
    // word for word, line by line; the indentation is deno fmt's (it formats the page's code)
    const lines = (t: string) => t.split("\n").map((l) => l.trim());
    const file = lines(text);
    const shown = lines(excerpt.excerpt);
    assert.ok(
      file.some((_, i) => shown.every((line, j) => file[i + j] === line)),
      `${where(block)} shows lines that ${excerpt.path} does not have:\n${excerpt.excerpt}`,
    );
  }
});

Deno.test("every TypeScript block's console.log has its // prints: comment", () => {
  for (const block of blocks.filter((b) => b.lang === "ts" && !isIgnored(b))) {
    try {
      instrument(block.text, new URL(block.file, ROOT).href);
    } catch (error) {
      throw new SyntaxError(`${where(block)}: ${(error as Error).message}`);
    }
  }
});

for (const block of blocks.filter((b) => b.lang === "ts" && !isIgnored(b))) {
  const instrumented = instrument(block.text, new URL(block.file, ROOT).href);
  const says = instrumented.sites.length === 0 ? "" : " and prints what its comments say";
  Deno.test(`${where(block)} runs${says}`, async () => {
    const printed = await runInstrumented(instrumented);
    const problems = instrumented.sites.flatMap((site, i) =>
      mismatch(site, printed[i], block.line) ?? []
    );
    assert.deepEqual(problems, [], `${where(block)}:\n${problems.join("\n\n")}`);
  });
}

for (
  const block of blocks.filter((b) => b.lang === "json" && /scenario\.schema\.json/.test(b.text))
) {
  Deno.test(`${where(block)} is a scenario file that loads`, () => {
    const scenario = scenarioFromJSON(JSON.parse(block.text));
    assert.ok(scenario.exchanges.length > 0);
  });
}

/** A scratch folder with copies of examples/ and snapshots/, as a clone has them. */
async function scratch(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "docs-sh-" });
  for (const folder of ["examples/scenarios", "snapshots"]) {
    await Deno.mkdir(`${dir}/${folder}`, { recursive: true });
    for await (const entry of Deno.readDir(new URL(`${folder}/`, ROOT))) {
      if (entry.isFile) {
        await Deno.copyFile(
          new URL(`${folder}/${entry.name}`, ROOT),
          `${dir}/${folder}/${entry.name}`,
        );
      }
    }
  }
  return dir;
}

/**
 * The environment a shell block runs in: this one without the mock's own variables, the fake
 * binary's state (transcripts, run counter) in the scratch folder.
 */
function shellEnv(dir: string): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([k]) => !k.startsWith("CLAUDE_MOCK_")),
  );
  return { ...env, NO_COLOR: "1", CI: "true", CLAUDE_MOCK_STATE_DIR: `${dir}/.state` };
}

for (const block of blocks.filter((b) => b.lang === "sh" && !isIgnored(b))) {
  Deno.test(`${where(block)}: its commands run and print what their comments say`, async () => {
    const dir = await scratch();
    try {
      for (const c of shellCommands(block.text)) {
        const command = c.command.replace(/\bdeno run /g, `deno run --config ${root}deno.json `);
        const out = await new Deno.Command("sh", {
          args: ["-c", command],
          cwd: dir,
          env: shellEnv(dir),
          clearEnv: true,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).output();
        const stdout = new TextDecoder().decode(out.stdout).trimEnd();
        const stderr = new TextDecoder().decode(out.stderr);
        assert.equal(
          out.code,
          c.exits,
          `${where(block)}: \`${c.command}\` exited ${out.code}:\n${stdout}\n${stderr}`,
        );
        if (c.expected.length === 0) continue;
        const problem = mismatch(c, stdout === "" ? [] : [stdout], block.line);
        assert.equal(problem, undefined, `${where(block)}:\n${problem}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

// the harness itself: a comment that lies fails, a missing one is refused

Deno.test("the harness: a // prints: comment that lies is a failure", async () => {
  const page = new URL("README.md", ROOT).href;
  const honest = instrument("const n = 1 + 1;\nconsole.log(n, [n]); // prints: 2 [ 2 ]", page);
  const [printed] = await runInstrumented(honest);
  assert.equal(mismatch(honest.sites[0], printed), undefined);

  const lying = instrument("console.log(1 + 1); // prints: 3", page);
  assert.match(mismatch(lying.sites[0], (await runInstrumented(lying))[0])!, /printed:\n {2}2\n/);

  // a call that prints twice needs two lines; `…` stands for any text, within a line
  const loop = instrument(
    'for (const x of ["a", "b"]) console.log(`${x}!`);\n// prints: a!\n// prints: …',
    page,
  );
  assert.equal(mismatch(loop.sites[0], (await runInstrumented(loop))[0]), undefined);
  const short = instrument('for (const x of ["a", "b"]) console.log(x); // prints: a', page);
  assert.notEqual(mismatch(short.sites[0], (await runInstrumented(short))[0]), undefined);

  // the tests a block declares run too
  const test = instrument('Deno.test("t", () => {\n  console.log("in"); // prints: out\n});', page);
  assert.notEqual(mismatch(test.sites[0], (await runInstrumented(test))[0]), undefined);
});

Deno.test("the harness: console.log without a comment, or a comment without a call, is refused", () => {
  const page = new URL("README.md", ROOT).href;
  assert.throws(() => instrument('console.log("x");', page), /without a "\/\/ prints: …"/);
  assert.throws(() => instrument("// prints: x\nconsole.log(1);", page), /no console.log above/);
  assert.throws(
    () => instrument("console.log(1); console.log(2); // prints: 1", page),
    /two console.log calls/,
  );
});

Deno.test("the harness: a shell command's # prints: and # exits: comments", () => {
  const [echo, fail] = shellCommands(
    "# prose\necho hi \\\n  there # prints: hi there\nfalse\n# exits: 1",
  );
  assert.equal(echo.command, "echo hi there");
  assert.deepEqual(echo.expected, ["hi there"]);
  assert.equal(mismatch(echo, ["hi here"])?.includes("printed:\n  hi here"), true);
  assert.equal(fail.exits, 1);
});
