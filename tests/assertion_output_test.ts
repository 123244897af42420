// The library's AssertionError as test runners print it: Deno's own runner, and
// node:test beside node:assert's error (the library bundled for Node, as an npm user
// runs it). Each runner runs in a subprocess on a failing test file.
import assert from "node:assert/strict";
import { fromFileUrl, toFileUrl } from "./_paths.ts";

const SOURCE = fromFileUrl(new URL("../src/session/assertion_error.ts", import.meta.url));
const THROW = `throw new AssertionError("The app's answer to Bash differs", {
  actual: { behavior: "deny", message: "No rm." },
  expected: { behavior: "allow" },
});`;
const DIFF = [
  "+ actual - expected",
  "",
  "  {",
  '+   behavior: "deny",',
  '+   message: "No rm.",',
  '-   behavior: "allow",',
  "  }",
];

async function run(
  cmd: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command(cmd, {
    args,
    cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: output.code, out: decode(output.stdout) + decode(output.stderr) };
}

/** The lines of `out` from the first that ends with `first`, without the runner's indent. */
function block(out: string, first: string, count: number): string[] {
  const lines = out.split("\n");
  const start = lines.findIndex((line) => line.endsWith(first));
  assert.ok(start >= 0, `no line ending with ${JSON.stringify(first)} in:\n${out}`);
  const indent = lines[start].length - lines[start].trimStart().length;
  return lines.slice(start, start + count).map((line) => line.slice(indent).trimEnd());
}

Deno.test("AssertionError in Deno's test runner: the message and its diff", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-assert-" });
  try {
    await Deno.writeTextFile(
      `${dir}/failing_test.ts`,
      `import { AssertionError } from ${JSON.stringify(toFileUrl(SOURCE))};
Deno.test("the app's answer", () => {
  ${THROW}
});
`,
    );
    const { code, out } = await run(
      Deno.execPath(),
      ["test", "--no-check", "failing_test.ts"],
      dir,
    );
    assert.equal(code, 1, out);
    const printed = block(out, "error: AssertionError: The app's answer to Bash differs", 9);
    assert.deepEqual(printed.slice(2), DIFF);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const node = await run("node", ["--version"], ".").catch(() => undefined);

Deno.test({
  name: "AssertionError in node:test: printed as node:assert's is, with the same fields",
  ignore: node === undefined || node.code !== 0,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "claude-mock-assert-node-" });
    try {
      const bundled = await run(Deno.execPath(), [
        "bundle",
        "--platform=node",
        "-o",
        `${dir}/assertion_error.mjs`,
        SOURCE,
      ], dir);
      assert.equal(bundled.code, 0, bundled.out);
      await Deno.writeTextFile(
        `${dir}/failing.test.mjs`,
        `import test from "node:test";
import assert from "node:assert/strict";
import { AssertionError } from "./assertion_error.mjs";
test("ours", () => {
  ${THROW}
});
test("node's", () => {
  assert.deepStrictEqual({ behavior: "deny", message: "No rm." }, { behavior: "allow" });
});
`,
      );
      const { code, out } = await run(
        "node",
        ["--test", "--test-reporter=spec", "failing.test.mjs"],
        dir,
      );
      assert.equal(code, 1, out);
      const ours = block(out, "[AssertionError]: The app's answer to Bash differs", 9);
      assert.deepEqual(ours.slice(2), DIFF);
      // node:assert's own error, for comparison: the same diff layout and fields
      const theirs = block(
        out,
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:",
        8,
      );
      assert.deepEqual(theirs.slice(1, 3), ["+ actual - expected", ""]);
      for (
        const field of [
          "generatedMessage: false",
          "code: 'ERR_ASSERTION'",
          "operator: 'deepStrictEqual'",
        ]
      ) {
        assert.ok(out.includes(field), `${field} in:\n${out}`);
      }
      assert.match(out, /actual: \{ behavior: 'deny', message: 'No rm\.' \}/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
