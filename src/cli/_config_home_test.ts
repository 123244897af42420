import assert from "node:assert/strict";
import { jsonParseError, notePluginUse, prepareConfigHome } from "./_config_home.ts";
import { runCli } from "./run_cli.ts";
import { CliUsageError } from "./parse_argv.ts";

// The real CLI's config folder after each command line (2.1.328 and 2.1.332 alike).
interface RealCase {
  argv: string[];
  prior: string | null;
  runs: number;
  exit: number[];
  stdout: string;
  stderr: string;
  files: string[];
  contents: Record<string, string>;
}
const REAL = JSON.parse(
  await Deno.readTextFile(new URL("../../tests/fixtures/real/config_home.json", import.meta.url)),
) as { cases: Record<string, RealCase> };

const decoder = new TextDecoder();

/** Runs the fake binary in-process; the invocation counter kept out of the config folder. */
async function run(argv: string[], { root }: { root: string }) {
  const out = { stdout: "", stderr: "" };
  const sink = (key: "stdout" | "stderr") =>
    new WritableStream<Uint8Array>({ write: (c) => void (out[key] += decoder.decode(c)) });
  const code = await runCli({
    argv,
    cwd: `${root}/cwd`,
    env: { CLAUDE_CONFIG_DIR: `${root}/conf`, CLAUDE_MOCK_STATE_DIR: `${root}/state` },
    stdin: new Blob([]).stream(),
    stdinIsTerminal: false,
    stdinMayStall: false,
    stdoutIsTerminal: false,
    stdout: sink("stdout"),
    stderr: sink("stderr"),
  });
  return { code, ...out };
}

async function filesOf(dir: string, rel = ""): Promise<string[]> {
  const files: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory) {
        files.push(...await filesOf(`${dir}/${entry.name}`, `${rel}${entry.name}/`));
      } else files.push(`${rel}${entry.name}`);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return files;
}

/** The survey's placeholders put into a text (and a file name) of the fake's config folder. */
function placeholders(text: string, root: string, ids = true): string {
  const done = text.replaceAll(`${root}/conf`, "/home/user/.claude")
    .replace(/"[0-9a-f]{64}"/g, '"<hex64>"').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<iso>")
    .replace(/\d{13}/g, "<ms>");
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  return ids ? done.replace(uuid, "<session>") : done;
}

for (const [name, real] of Object.entries(REAL.cases)) {
  Deno.test(`the config folder after '${real.argv.join(" ")}' (${name}) is the real CLI's`, async () => {
    const root = await Deno.makeTempDir();
    try {
      await Deno.mkdir(`${root}/cwd`);
      await Deno.mkdir(`${root}/conf`);
      if (real.prior === "BACKUP") {
        await Deno.mkdir(`${root}/conf/backups`);
        await Deno.writeTextFile(
          `${root}/conf/backups/.claude.json.backup.1795000000000`,
          real.contents["backups/.claude.json.backup.<ms>"],
        );
        await Deno.writeTextFile(`${root}/conf/.claude.json`, "oops");
      } else if (real.prior?.startsWith("(the text run")) {
        // a complete file, as a first run leaves it
        await run(["-p", "hello"], { root });
        for (const dir of ["backups", "plugins", "projects"]) {
          await Deno.remove(`${root}/conf/${dir}`, { recursive: true });
        }
      } else if (real.prior !== null) {
        await Deno.writeTextFile(`${root}/conf/.claude.json`, real.prior);
      }
      const codes: number[] = [];
      let last = { code: 0, stdout: "", stderr: "" };
      for (let i = 0; i < real.runs; i++) {
        last = await run(real.argv, { root });
        codes.push(last.code);
      }
      assert.deepEqual(codes, real.exit);
      assert.equal(placeholders(last.stderr, root, false), real.stderr);
      if (real.stdout === "") assert.equal(last.stdout, "");
      const files = (await filesOf(`${root}/conf`)).map((f) =>
        placeholders(f, root).replace(/^projects\/[^/]+\//, "projects/<slug>/")
      ).sort();
      assert.deepEqual(files, real.files);
      for (const [file, text] of Object.entries(real.contents)) {
        const path = (await filesOf(`${root}/conf`)).find((f) => placeholders(f, root) === file);
        assert.ok(path, file);
        assert.equal(
          placeholders(await Deno.readTextFile(`${root}/conf/${path}`), root),
          text,
          file,
        );
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("prepareConfigHome: the same run makes the same files; a complete file is left alone", async () => {
  const texts: string[] = [];
  for (let i = 0; i < 2; i++) {
    const dir = await Deno.makeTempDir();
    try {
      const options = { version: "2.1.332", now: Date.UTC(2026, 0, 1), seed: 7n };
      assert.equal(await prepareConfigHome(dir, options), undefined);
      const text = await Deno.readTextFile(`${dir}/.claude.json`);
      texts.push(text);
      const stat = await Deno.stat(`${dir}/.claude.json`);
      assert.equal(stat.mode! & 0o777, 0o600);
      // a later run (another clock, another seed) changes nothing and backs nothing up
      await prepareConfigHome(dir, { version: "2.1.400", now: Date.UTC(2027, 0, 1), seed: 9n });
      assert.equal(await Deno.readTextFile(`${dir}/.claude.json`), text);
      assert.deepEqual(await filesOf(`${dir}/backups`), [".claude.json.backup.1767225600000"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  assert.equal(texts[0], texts[1]);
  const config = JSON.parse(texts[0]);
  assert.equal(config.firstStartTime, "2026-01-01T00:00:00.000Z");
  assert.notEqual(config.machineID, config.userID);
});

Deno.test("prepareConfigHome keeps a file's own keys and values, adds the missing ones, backs the old text up", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const old = '{"hasCompletedOnboarding": true, "numStartups": 3, "migrationVersion": 99}';
    await Deno.writeTextFile(`${dir}/.claude.json`, old);
    await prepareConfigHome(dir, { version: "2.1.332", now: 5, seed: 1n });
    const config = JSON.parse(await Deno.readTextFile(`${dir}/.claude.json`));
    assert.equal(config.hasCompletedOnboarding, true);
    assert.equal(config.migrationVersion, 99);
    assert.equal(config.pluginUsage["cc-plugin-privacy@builtin"].lastUsedNumStartups, 3);
    assert.equal(await Deno.readTextFile(`${dir}/backups/.claude.json.backup.5`), old);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("prepareConfigHome: a file that is not JSON is the real CLI's error, its text kept aside", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/.claude.json`, "not json");
    const error = await prepareConfigHome(dir, { version: "2.1.332", now: 5, seed: 1n }).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(error instanceof CliUsageError);
    assert.match(error.message, /is corrupted: JSON Parse error: Unexpected identifier "not"\n/);
    assert.equal(await Deno.readTextFile(`${dir}/backups/.claude.json.corrupted.5`), "not json");
    assert.equal(await Deno.readTextFile(`${dir}/.claude.json`), "not json");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// 2.1.332 run three times on one corrupted .claude.json (2026-11-26): the first keeps its text
// aside, the later ones say "The corrupted file has already been backed up." and keep nothing
// more; concurrent runs on one such folder alike (all exit 1, one copy kept)
Deno.test("prepareConfigHome: a corrupted text kept before is not kept again ('already been backed up'), runs at once alike", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/.claude.json`, '{"numStartups": 3, bad');
    const attempt = (now: number) =>
      prepareConfigHome(dir, { version: "2.1.332", now, seed: 1n }).then(
        () => undefined,
        (e: Error) => e.message,
      );
    const first = await attempt(5);
    assert.match(first!, /\nThe corrupted file has been backed up to: .*\.corrupted\.5\n/);
    const again = await Promise.all([attempt(6), attempt(7), attempt(8)]);
    for (const message of again) {
      assert.match(message!, /\nThe corrupted file has already been backed up\.\n/);
    }
    assert.deepEqual([...Deno.readDirSync(`${dir}/backups`)].map((e) => e.name), [
      ".claude.json.corrupted.5",
    ]);
    // another corrupted text is kept
    await Deno.writeTextFile(`${dir}/.claude.json`, "{bad");
    assert.match((await attempt(9))!, /backed up to: .*\.corrupted\.9\n/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("jsonParseError words the common faults as the real CLI's parser", () => {
  const words = (text: string) => {
    try {
      JSON.parse(text);
    } catch (error) {
      return jsonParseError(text, error);
    }
    throw new Error(`${text} parsed`);
  };
  assert.equal(words('{"a":'), "Unexpected EOF");
  assert.equal(words('{"a":"b'), "Unexpected EOF");
  assert.equal(words('{"a":1,}'), "Property name must be a string literal");
  assert.equal(words("{a:1}"), "Expected '}'");
  assert.equal(words('{"a":1} x'), "Unable to parse JSON string");
  assert.equal(words("@"), "Unrecognized token '@'");
  assert.equal(words("oops"), 'Unexpected identifier "oops"');
  // more of the real parser's words (CLI 2.1.332), each checked against it
  assert.equal(words('{"a": tru}'), 'Unexpected identifier "tru"');
  assert.equal(words('{"a": nul'), 'Unexpected identifier "nul"');
  assert.equal(words("truex"), "Unable to parse JSON string");
  assert.equal(words('{"a": [1, 2'), "Expected ']'");
  assert.equal(words('{"a": "x\\q"}'), "Invalid escape character q");
});

Deno.test("notePluginUse names the latest session in the agents-md plugin's store", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await notePluginUse(dir, "one");
    await notePluginUse(dir, "two");
    const [file] = await filesOf(`${dir}/plugins/store`);
    assert.equal(file, "cc-plugin-agents-md_builtin-b049b47b3618.json");
    assert.equal(
      await Deno.readTextFile(`${dir}/plugins/store/${file}`),
      '{\n  "usage-rows-queued": "two claude-md-or-agents-md ok"\n}\n',
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a config folder that is a file: the run goes on, and text output warns as the real CLI (2.1.332) does", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/cwd`);
    await Deno.writeTextFile(`${root}/conf`, "a file");
    const text = await run(["-p", "hello"], { root });
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, "Hello! How can I help?\n");
    assert.equal(
      text.stderr,
      "These settings did not load, so nothing in them is in effect, including hooks, permission " +
        "rules and sandbox settings, though environment variables they already set can stay:\n" +
        `  ${root}/conf/settings.json: Settings file could not be read: ENOTDIR: not a directory, ` +
        `stat '${root}/conf/settings.json'\n` +
        "Fix each problem listed, then start Claude Code again. For settings sent with " +
        "applyFlagSettings, shown as SDK inline settings, send them again instead.\n",
    );
    const json = await run(["-p", "hello", "--output-format", "json"], { root });
    assert.equal(json.code, 0, json.stderr);
    assert.equal(json.stderr, "");
    assert.equal(JSON.parse(json.stdout).result, "Hello! How can I help?");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("prepareConfigHome: settings equal to the CLI's defaults are left out, others kept (as the real CLI writes the file)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // surveyed with the real CLI 2.1.332 and 2.1.328 (FINDINGS_gaps.md): compared as JSON text
    await Deno.writeTextFile(
      `${dir}/.claude.json`,
      JSON.stringify({
        theme: "dark",
        verbose: false,
        numStartups: 0,
        customApiKeyResponses: { approved: [], rejected: [] },
        env: {},
        editorMode: "vim",
        autoUpdates: true,
        diffTool: { approved: [] },
        other: { rejected: [], approved: [] },
        x: null,
      }),
    );
    await prepareConfigHome(dir, { version: "2.1.332", now: Date.UTC(2026, 0, 1), seed: 7n });
    const kept = JSON.parse(await Deno.readTextFile(`${dir}/.claude.json`));
    for (const key of ["theme", "verbose", "numStartups", "customApiKeyResponses", "env"]) {
      assert.equal(key in kept, false, key);
    }
    assert.equal(kept.editorMode, "vim");
    assert.equal(kept.autoUpdates, true);
    assert.deepEqual(kept.diffTool, { approved: [] });
    assert.equal(kept.x, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
