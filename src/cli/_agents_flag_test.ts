import assert from "node:assert/strict";
import { runFake } from "../../tests/_fake_cli.ts";
import { withAgentsFile } from "./_agents_flag.ts";
import { CliUsageError } from "./parse_argv.ts";

// what the real claude 2.1.332 (and 2.1.328) prints, exit 1 (tests/fixtures/real/FINDINGS_agents.md)
const GOOD = '{"reviewer":{"description":"Reviews.","prompt":"Review."}}';
const files: Record<string, string> = {
  "/p/good.json": GOOD,
  "/p/bad.json": "{bad\n",
  "/p/hello.json": "hello\n",
  "/p/arr.json": "[1]\n",
};
const readText = (path: string) =>
  path in files ? Promise.resolve(files[path]) : Promise.reject(new Error("ENOENT"));
const refusal = async (args: string[]) => {
  try {
    await withAgentsFile(args, { cwd: "/p", readText });
  } catch (error) {
    assert.ok(error instanceof CliUsageError);
    assert.equal(error.exitCode, 1);
    return error.message;
  }
  return undefined;
};

Deno.test("--agents: JSON passes as it is; a file path is read relative to the cwd", async () => {
  const args = ["--model", "m", "--agents", GOOD];
  assert.deepEqual(await withAgentsFile(args, { cwd: "/p", readText }), args);
  assert.deepEqual(
    await withAgentsFile(["--agents", "good.json"], { cwd: "/p", readText }),
    ["--agents", GOOD],
  );
  assert.deepEqual(
    await withAgentsFile(["--agents=/p/good.json"], { cwd: "/p", readText }),
    [`--agents=${GOOD}`],
  );
  assert.deepEqual(await withAgentsFile(["--agents", ""], { cwd: "/p", readText }), [
    "--agents",
    "",
  ]);
});

Deno.test("--agents: the CLI's messages for bad entries, bad JSON and a missing file", async () => {
  assert.equal(
    await refusal(["--agents", '{"broken":{"prompt":"x","tools":["Read"]}}']),
    "Error: Invalid --agents configuration:\n" +
      "broken.description: Invalid input: expected string, received undefined",
  );
  assert.match(
    (await refusal(["--agents", '{"broken": {'])) ?? "",
    /^Error: Invalid --agents configuration:\ninvalid JSON: /,
  );
  assert.equal(
    await refusal(["--agents", "nope.json"]),
    "Error: --agents file not found: /p/nope.json (a value that is not a JSON object is read as a file path)",
  );
  assert.equal(
    await refusal(["--agents", "arr.json"]),
    "Error: Invalid --agents configuration:\n" +
      "Invalid input: expected record, received array\n(read from /p/arr.json)",
  );
  assert.match(
    (await refusal(["--agents", "hello.json"])) ?? "",
    /^Error: Invalid --agents configuration:\ninvalid JSON: [^]*\n\(read from \/p\/hello\.json\)$/,
  );
  assert.match(
    (await refusal(["--agents", "bad.json"])) ?? "",
    /\n\(read from \/p\/bad\.json\)$/,
  );
});

Deno.test("the binary: -p with a bad --agents entry fails before anything runs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { code, stdout, stderr } = await runFake(
      ["-p", "hi", "--agents", '{"x":{"description":"d","prompt":"p","maxTurns":0}}'],
      dir,
      { stdin: "" },
    );
    assert.deepEqual({ code, stdout, stderr }, {
      code: 1,
      stdout: "",
      stderr: "Error: Invalid --agents configuration:\n" +
        "x.maxTurns: Too small: expected number to be >0\n",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
