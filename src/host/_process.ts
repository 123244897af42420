/**
 * The host process, on Deno and on Node: its environment, its executable, and running a shell
 * command. Deno's own API when it runs on Deno (the Node compatibility layer costs Deno
 * start-up time), `node:*` modules on Node, so nothing Node loads calls `Deno.*`. With
 * `_fs.ts` (files) and `src/cli/_main.ts` (the binary's own process), the runtime seam. Internal.
 *
 * @module
 */

interface DenoHost {
  env: { toObject(): Record<string, string> };
  execPath(): string;
  Command: new (cmd: string, options: {
    args: string[];
    cwd: string;
    stdin: "null";
    stdout: "piped";
    stderr: "piped";
  }) => { output(): Promise<{ code: number; stdout: Uint8Array; stderr: Uint8Array }> };
}

interface NodeHost {
  env: Record<string, string | undefined>;
  execPath: string;
}

const deno = (globalThis as { Deno?: DenoHost }).Deno;
// read only off Deno: on Deno, `globalThis.process` is a getter that loads the Node
// compatibility layer (about 20 ms of start-up)
const node = deno ? undefined : (globalThis as { process?: NodeHost }).process;

/** Whether this runs on Deno (else Node, or a runtime with Node's `process`). */
export const onDeno: boolean = deno !== undefined;

/** The process's environment (a copy). */
export function hostEnv(): Record<string, string> {
  if (deno) return deno.env.toObject();
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(node?.env ?? {})) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** The running runtime's executable (`deno` or `node`). */
export function hostExecPath(): string {
  if (deno) return deno.execPath();
  if (node) return node.execPath;
  throw new TypeError("Cannot find the runtime's executable: neither Deno nor Node's process");
}

/** What a finished command printed, and its exit code. */
export interface ShellOutput {
  /** The exit code (a signal's death: 128 + its number on Deno, 1 on Node). */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/** Runs `sh -c command` in `cwd` with stdin closed; resolves when it ends, whatever its code. */
export async function runShell(command: string, cwd: string): Promise<ShellOutput> {
  if (deno) {
    const out = await new deno.Command("sh", {
      args: ["-c", command],
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return {
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  }
  const { execFile } = await import("node:child_process");
  return await new Promise((resolve, reject) => {
    const child = execFile(
      "sh",
      ["-c", command],
      { cwd, maxBuffer: 1 << 28, encoding: "utf8" },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        if (error && typeof code !== "number" && !(error as { signal?: unknown }).signal) {
          reject(error);
        } else resolve({ code: typeof code === "number" ? code : error ? 1 : 0, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}
