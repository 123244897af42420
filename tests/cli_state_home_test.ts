// The fake binary run directly (the bundle installFakeClaude and the bin run), with a temporary
// HOME and no CLAUDE_CONFIG_DIR: it leaves ~/.claude alone, keeps its transcripts and counter
// in its own state folder (~/.local/state/claude-mock, or $XDG_STATE_HOME/claude-mock), and
// sessions resume across runs from there. A CLAUDE_CONFIG_DIR that names ~/.claude is obeyed.
import assert from "node:assert/strict";
import { projectSlug } from "../src/builders/project_paths.ts";
import { fromFileUrl } from "./_paths.ts";

const BIN = fromFileUrl(new URL("../dist/bin.js", import.meta.url));

async function claude(
  args: string[],
  { home, cwd, env = {} }: { home: string; cwd: string; env?: Record<string, string> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const shebang = (await Deno.readTextFile(BIN)).split("\n", 1)[0];
  const flags = shebang.split(" ").slice(shebang.split(" ").indexOf("-A") + 1);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...flags, BIN, ...args],
    cwd,
    clearEnv: true,
    env: { HOME: home, PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function withHome(fn: (home: string, cwd: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "claude-mock-home-" });
  try {
    await Deno.mkdir(`${home}/project`);
    await fn(home, `${home}/project`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("fake binary: a run leaves ~/.claude untouched; its state folder keeps the session, which resumes", async () => {
  await withHome(async (home, cwd) => {
    const first = await claude(["-p", "hello", "--output-format", "json"], { home, cwd });
    assert.equal(first.code, 0, first.stderr);
    const { session_id } = JSON.parse(first.stdout);
    assert.equal(await exists(`${home}/.claude`), false, "~/.claude was created");
    const state = `${home}/.local/state/claude-mock`;
    const transcript = `${state}/projects/${projectSlug(cwd)}/${session_id}.jsonl`;
    assert.ok(await exists(transcript), `no transcript at ${transcript}`);
    assert.ok(await exists(`${state}/invocations.log`));
    // a later run resumes it, and -c continues it, from the same folder
    const resumed = await claude(
      ["-p", "hello again", "--resume", session_id, "--output-format", "json"],
      { home, cwd },
    );
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(JSON.parse(resumed.stdout).session_id, session_id);
    const continued = await claude(["-p", "hello", "-c", "--output-format", "json"], { home, cwd });
    assert.equal(JSON.parse(continued.stdout).session_id, session_id);
    assert.equal(await exists(`${home}/.claude`), false, "~/.claude was created");
  });
});

Deno.test("fake binary: $XDG_STATE_HOME places the state folder; CLAUDE_CONFIG_DIR=~/.claude is obeyed", async () => {
  await withHome(async (home, cwd) => {
    const xdg = await claude(["-p", "hello", "--output-format", "json"], {
      home,
      cwd,
      env: { XDG_STATE_HOME: `${home}/xdg` },
    });
    assert.equal(xdg.code, 0, xdg.stderr);
    const id = JSON.parse(xdg.stdout).session_id;
    assert.ok(await exists(`${home}/xdg/claude-mock/projects/${projectSlug(cwd)}/${id}.jsonl`));
    assert.equal(await exists(`${home}/.local`), false);
    assert.equal(await exists(`${home}/.claude`), false);
    // named explicitly, the user's config folder is used, as the real CLI uses it
    const named = await claude(["-p", "hello", "--output-format", "json"], {
      home,
      cwd,
      env: { CLAUDE_CONFIG_DIR: `${home}/.claude` },
    });
    const named_id = JSON.parse(named.stdout).session_id;
    assert.ok(await exists(`${home}/.claude/projects/${projectSlug(cwd)}/${named_id}.jsonl`));
  });
});
