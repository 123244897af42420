// The fake `claude` binary and a project's shared settings in an untrusted workspace: the
// ignored permissions.allow entries on stderr, as the real CLI 2.1.328-2.1.332 writes them
// (recorded in tests/fixtures/real/conform/system_project_settings_untrusted.*).
import assert from "node:assert/strict";
import { installFakeClaude } from "../cli.ts";
import type { FakeClaude } from "../cli.ts";

const decoder = new TextDecoder();

async function claude(fake: FakeClaude, cwd: string, args: string[]) {
  const out = await new Deno.Command("claude", {
    args: ["-p", "hello", "--output-format", "json", ...args],
    env: fake.env,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: decoder.decode(out.stderr) };
}

Deno.test("project settings: allow entries of an untrusted workspace are reported ignored on stderr", async () => {
  await using fake = await installFakeClaude();
  const project = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${project}/.claude`);
    const settings = (allow: string[]) =>
      Deno.writeTextFile(
        `${project}/.claude/settings.json`,
        JSON.stringify({ permissions: { allow, deny: ["Bash(rm:*)"], ask: ["Write"] } }),
      );
    await settings(["Bash(ls:*)", "Read"]);
    const config = fake.env.CLAUDE_CONFIG_DIR;
    const warning = (n: string) =>
      `Ignoring ${n} from .claude/settings.json: this workspace has not been trusted. ` +
      "Run Claude Code interactively here once and accept the trust dialog, or set " +
      `projects[${
        JSON.stringify(project)
      }].hasTrustDialogAccepted: true in ${config}/.claude.json.\n`;
    const run = await claude(fake, project, []);
    assert.equal(run.code, 0);
    assert.equal(run.stderr, warning("2 permissions.allow entries"));
    await settings(["Read"]);
    assert.equal((await claude(fake, project, [])).stderr, warning("1 permissions.allow entry"));
    // not among the sources: not read
    assert.equal((await claude(fake, project, ["--setting-sources", "user"])).stderr, "");
    assert.equal(
      (await claude(fake, project, ["--setting-sources", "user,project"])).stderr,
      warning("1 permissions.allow entry"),
    );
    // a trusted workspace: no warning
    await Deno.writeTextFile(
      `${config}/.claude.json`,
      JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }),
    );
    assert.equal((await claude(fake, project, [])).stderr, "");
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
