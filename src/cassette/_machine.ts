/**
 * What identifies the machine a tape is scrubbed on (cwd, home, temp dir, user, host name),
 * read without prompting for permissions: on Deno only what is granted, on Node through
 * `process`. Each value is absent when it cannot be read. Internal.
 *
 * @module
 */

/** The running process's identifying values. */
export interface MachineIdentity {
  /** The working directory, and its real path when it differs. */
  cwd: string[];
  /** The home directory, and its real path when it differs. */
  home: string[];
  /** The temp directory (`TMPDIR`, `TMP`, `TEMP`), and its real path when it differs. */
  tmpdir: string[];
  /** The user name. */
  user?: string;
  /** The host name. */
  hostname?: string;
}

interface DenoLike {
  permissions: { querySync?(d: { name: string; kind?: string }): { state: string } };
  cwd(): string;
  realPathSync(path: string): string;
  hostname(): string;
  env: { get(name: string): string | undefined };
}

interface ProcessLike {
  cwd(): string;
  env: Record<string, string | undefined>;
  getBuiltinModule?(name: string): unknown;
}

const granted = (deno: DenoLike, name: string, kind?: string): boolean => {
  try {
    return deno.permissions.querySync?.(kind ? { name, kind } : { name }).state === "granted";
  } catch {
    return false;
  }
};

const attempt = <T>(read: () => T): T | undefined => {
  try {
    return read();
  } catch {
    return undefined;
  }
};

/** The identity of the running process (empty where nothing can be read). */
export function machineIdentity(): MachineIdentity {
  const deno = (globalThis as { Deno?: DenoLike }).Deno;
  if (deno) {
    const read = granted(deno, "read");
    const env = granted(deno, "env")
      ? (name: string) => attempt(() => deno.env.get(name))
      : () => undefined;
    const withReal = (path: string | undefined): string[] => {
      if (!path) return [];
      const real = read ? attempt(() => deno.realPathSync(path)) : undefined;
      return real && real !== path ? [path, real] : [path];
    };
    return {
      cwd: withReal(read ? attempt(() => deno.cwd()) : undefined),
      home: withReal(env("HOME") ?? env("USERPROFILE")),
      tmpdir: withReal(env("TMPDIR") ?? env("TMP") ?? env("TEMP")),
      user: env("USER") ?? env("USERNAME"),
      hostname: granted(deno, "sys", "hostname") ? attempt(() => deno.hostname()) : env("HOSTNAME"),
    };
  }
  const process = (globalThis as { process?: ProcessLike }).process;
  if (!process) return { cwd: [], home: [], tmpdir: [] };
  const os = attempt(() => process.getBuiltinModule?.("node:os")) as
    | { hostname(): string }
    | undefined;
  const fs = attempt(() => process.getBuiltinModule?.("node:fs")) as
    | { realpathSync(path: string): string }
    | undefined;
  const withReal = (path: string | undefined): string[] => {
    if (!path) return [];
    const real = attempt(() => fs?.realpathSync(path));
    return real && real !== path ? [path, real] : [path];
  };
  const env = process.env;
  return {
    cwd: withReal(attempt(() => process.cwd())),
    home: withReal(env.HOME ?? env.USERPROFILE),
    tmpdir: withReal(env.TMPDIR ?? env.TMP ?? env.TEMP),
    user: env.USER ?? env.USERNAME,
    hostname: attempt(() => os?.hostname()) ?? env.HOSTNAME,
  };
}
