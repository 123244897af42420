/**
 * The `drift` subcommand's type checker: `deno check` on a temporary file, in a subprocess
 * (Deno's own API on Deno, `node:child_process` on Node, where `deno` must be on the PATH), its
 * diagnostics parsed from the text it prints. Internal.
 *
 * @module
 */

import type { TypeChecker, TypeDiagnostic } from "../cassette/drift.ts";

/** Where and how `deno check` runs. */
export interface DenoCheckOptions {
  /** The working directory (its `deno.json` maps the SDK's specifier). */
  cwd: string;
  /** A config file to pass as `--config`. */
  config?: string;
  /** The `deno` executable. Default: this process's own on Deno, `deno` on Node. */
  deno?: string;
}

interface DenoApi {
  execPath(): string;
  makeTempDir(options: { prefix: string }): Promise<string>;
  writeTextFile(path: string, data: string): Promise<void>;
  remove(path: string, options: { recursive: boolean }): Promise<void>;
  Command: new (cmd: string, options: {
    args: string[];
    cwd: string;
    env: Record<string, string>;
    stdin: "null";
    stdout: "piped";
    stderr: "piped";
  }) => { output(): Promise<{ code: number; stdout: Uint8Array; stderr: Uint8Array }> };
}

const FILE = "drift_check.ts";

/** Runs `deno check` on `source` in a temporary folder: the exit code and all it printed. */
async function run(source: string, options: DenoCheckOptions): Promise<[number, string, string]> {
  const args = ["check", ...(options.config ? ["--config", options.config] : [])];
  const env = { NO_COLOR: "1" };
  const deno = (globalThis as { Deno?: DenoApi }).Deno;
  if (deno) {
    const dir = await deno.makeTempDir({ prefix: "claude-mock-drift-" });
    try {
      const file = `${dir}/${FILE}`;
      await deno.writeTextFile(file, source);
      const out = await new deno.Command(options.deno ?? deno.execPath(), {
        args: [...args, file],
        cwd: options.cwd,
        env,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder();
      return [out.code, text.decode(out.stdout) + text.decode(out.stderr), file];
    } finally {
      await deno.remove(dir, { recursive: true }).catch(() => {});
    }
  }
  const fs = await import("node:fs/promises");
  const os = await import("node:os");
  const { execFile } = await import("node:child_process");
  const dir = await fs.mkdtemp(`${os.tmpdir()}/claude-mock-drift-`);
  try {
    const file = `${dir}/${FILE}`;
    await fs.writeFile(file, source);
    return await new Promise((resolve, reject) => {
      execFile(
        options.deno ?? "deno",
        [...args, file],
        { cwd: options.cwd, env: { ...process.env, ...env }, maxBuffer: 1 << 28 },
        (error, stdout, stderr) => {
          const code = (error as { code?: unknown } | null)?.code;
          if (error && typeof code !== "number") reject(error);
          else resolve([typeof code === "number" ? code : 0, `${stdout}${stderr}`, file]);
        },
      );
    });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * The diagnostics in `deno check`'s output about `file` (others get line 0): each block
 * `TS1234 [ERROR]: headline`, elaboration lines, maybe the source line and its underline,
 * then `    at file:///…:line:column`.
 */
export function parseDenoCheck(output: string, file: string): TypeDiagnostic[] {
  const lines = output.split("\n");
  const found: TypeDiagnostic[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^TS(\d+) \[ERROR\]: (.*)$/.exec(lines[i]);
    if (!head) continue;
    const body: string[] = [];
    let j = i + 1;
    let at: RegExpExecArray | null = null;
    for (; j < lines.length && !/^TS\d+ \[ERROR\]/.test(lines[j]); j++) {
      at = /^\s+at (\S+):(\d+):(\d+)$/.exec(lines[j]);
      if (at) break;
      body.push(lines[j]);
    }
    if (body.length > 0 && /^\s*[~^]+\s*$/.test(body[body.length - 1])) body.splice(-2, 2);
    const ours = at !== null && decodeURIComponent(at[1]).endsWith(`/${file.split("/").pop()}`);
    found.push({
      line: ours ? Number(at![2]) : 0,
      column: ours ? Number(at![3]) : 0,
      code: Number(head[1]),
      message: [head[2], ...body.map((l) => l.trim()).filter((l) => l !== "")].join("\n"),
    });
    i = j;
  }
  return found;
}

/** A {@linkcode TypeChecker} that runs `deno check`; it rejects when deno fails otherwise. */
export function denoTypeChecker(options: DenoCheckOptions): TypeChecker {
  return async (source) => {
    const [code, output, file] = await run(source, options);
    if (code === 0) return [];
    const diagnostics = parseDenoCheck(output, file);
    if (diagnostics.length === 0) {
      const tail = output.trim().split("\n").filter((l) => !/^\s*\d+: |Stack backtrace/.test(l))
        .slice(-5).join("\n");
      throw new Error(`Cannot check drift: deno check failed (exit ${code}): ${tail}`);
    }
    return diagnostics;
  };
}
