// Which program the fake `claude` runs on Deno: the bundle (`dist/bin.js`) when it is there,
// else the `cli` entry beside the sources (a checkout without `dist/`, or the npm package).
import { installFakeClaude } from "../cli.ts";
import { NEWEST_CLI_VERSION } from "../builders.ts";

const ROOT = new URL("..", import.meta.url).pathname;

async function run(path: string, env: Record<string, string>): Promise<string> {
  // no SDK spawns it (an SDK's query() elsewhere in the process may have left its version)
  const out = await new Deno.Command(path, {
    args: ["--version"],
    env: { ...env, CLAUDE_AGENT_SDK_VERSION: "" },
    stdin: "null",
  }).output();
  if (out.code !== 0) throw new Error(`exit ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

Deno.test("installFakeClaude runs the bundle, dist/bin.js", async () => {
  await using claude = await installFakeClaude();
  const script = await Deno.readTextFile(claude.path);
  if (!script.includes(`'${ROOT}dist/bin.js'`)) throw new Error(`not the bundle:\n${script}`);
  const version = await run(claude.path, claude.env);
  if (version !== `${NEWEST_CLI_VERSION} (Claude Code)\n`) {
    throw new Error(`--version printed ${version}`);
  }
});

Deno.test("installFakeClaude runs the bundle with its shebang's V8 flags", async () => {
  // V8 code caches carry the flags they were made with: a run with other flags would throw the
  // bundle's cache away and make it anew, so the shim and a direct run must agree
  await using claude = await installFakeClaude();
  const script = await Deno.readTextFile(claude.path);
  const shebang = (await Deno.readTextFile(`${ROOT}dist/bin.js`)).split("\n", 1)[0];
  const flags = (text: string) => text.match(/--(v8-flags=[^\s']+|no-npm|no-config)\b/g) ?? [];
  if (
    flags(shebang).join(" ") !==
      "--no-config --no-npm --v8-flags=--no-lazy,--single-threaded,--no-sparkplug"
  ) {
    throw new Error(`shebang: ${shebang}`);
  }
  if (flags(script).join() !== flags(shebang).join()) throw new Error(`shim:\n${script}`);
});

Deno.test("without dist/, installFakeClaude runs cli.ts", async () => {
  const copy = await Deno.makeTempDir({ prefix: "claude-mock-nodist-" });
  try {
    await new Deno.Command("cp", { args: ["-r", `${ROOT}src`, `${ROOT}cli.ts`, copy] }).output();
    const { installFakeClaude: install } = await import(`file://${copy}/cli.ts`) as {
      installFakeClaude: typeof installFakeClaude;
    };
    await using claude = await install();
    const script = await Deno.readTextFile(claude.path);
    if (!script.includes(`'${copy}/cli.ts'`)) throw new Error(`not the copy's cli.ts:\n${script}`);
    // no --no-lazy for the sources: the app's own imports of them share their code caches
    if (script.includes("--v8-flags")) throw new Error(`V8 flags for the sources:\n${script}`);
    const version = await run(claude.path, claude.env);
    if (version !== `${NEWEST_CLI_VERSION} (Claude Code)\n`) {
      throw new Error(`--version printed ${version}`);
    }
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
});
