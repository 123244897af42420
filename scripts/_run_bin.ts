// Runs the fake binary (the bundle or cli.ts) as a subprocess, for the build tests.

/** The bundle runs with its shebang's V8 flags (a run with others would remake its code cache). */
export async function runBin(
  entry: string,
  args: string[],
  dir: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const shebang = entry.endsWith(".js") ? (await Deno.readTextFile(entry)).split("\n", 1)[0] : "";
  const v8 = shebang.split(" ").filter((a) => a.startsWith("--v8-flags="));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", ...v8, entry, ...args],
    env: { CLAUDE_CONFIG_DIR: `${dir}/config`, CLAUDE_MOCK_STATE_DIR: `${dir}/state` },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}
