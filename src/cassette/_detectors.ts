/**
 * The detectors `scrubTape` replaces and `lintTape` reports: secrets (API keys, OAuth and
 * bearer tokens, secret-named values), machine paths (cwd, home, temp dir, in their real-path
 * and macOS `/private` forms and the CLI's project-slug form), the user name, the host name and
 * loopback base URLs. Internal.
 *
 * @module
 */

import type { Detector } from "./_detector.ts";
import { machineIdentity } from "./_machine.ts";
import {
  ENCODED_DETECTORS,
  SECRET_DETECTORS as SECRETS,
  secretKeyPlaceholder,
} from "./_secret_patterns.ts";
import type { ScrubOptions } from "./scrub_options.ts";
import { isFrameEntry, type Tape } from "./tape.ts";

/** The values to scrub, once gathered from the options, the tape and the machine. */
export interface DetectorValues {
  /** Working directories (`<CWD>`; their slugs `<CWD_SLUG>`). */
  cwd: string[];
  /** Home directories (`<HOME>`). */
  home: string[];
  /** Temp directories (`<TMP>`). */
  tmpdir: string[];
  /** User names (`<USER>`, in paths and `user@`). */
  user: string[];
  /** Host names (`<HOST>`). */
  hostname: string[];
  /** The caller's own replacements, applied first. */
  replacements: Array<[string | RegExp, string]>;
}

/** Whether a string is only a placeholder (`<CWD>`). */
const isPlaceholder = (text: string): boolean => /^<[A-Z_]+>$/.test(text);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&");

export { secretKeyPlaceholder } from "./_secret_patterns.ts";

/** Detectors of secrets and loopback URLs, the same for every tape. */
const SECRET_DETECTORS: readonly Detector[] = [
  ...SECRETS,
  ...ENCODED_DETECTORS,
  {
    code: "host",
    what: "a loopback base URL",
    pattern: /https?:\/\/(?:127(?:\.\d{1,3}){3}|localhost|\[::1\]|0\.0\.0\.0)(?::\d+)?/gi,
    replace: "<BASE_URL>",
  },
];

/** Lint-only detectors: machine paths that no option named (no safe replacement is known). */
export const GENERIC_PATH_DETECTORS: readonly Detector[] = [
  {
    code: "path",
    what: "a home directory path",
    pattern: /(?<![\w.-])\/(?:home|Users)\/(?!<)[^\/\s"'<>\\]+/g,
    replace: "<HOME>",
  },
  {
    code: "path",
    what: "a macOS temp directory path",
    pattern: /(?<![\w.-])(?:\/private)?\/var\/folders\/[^\s"'<>\\]*/g,
    replace: "<TMP>",
  },
  {
    code: "path",
    what: "a project slug of a home directory",
    pattern: /(?<![\w.-])-(?:home|Users)-(?!<)[\w.-]+/g,
    replace: "<CWD_SLUG>",
  },
];

/** A path's forms: as given (no trailing `/`), and with or without macOS's `/private`. */
function pathForms(path: string): string[] {
  const p = path.length > 1 ? path.replace(/\/+$/, "") : path;
  if (!p.startsWith("/") || p === "/" || p.includes("<")) return [];
  if (p.startsWith("/private/")) return [p, p.slice("/private".length)];
  if (/^\/(var|tmp|etc)(\/|$)/.test(p)) return [p, `/private${p}`];
  return [p];
}

/** The CLI's name for a project folder under `~/.claude/projects` (`/work/x` → `-work-x`). */
export const projectSlug = (path: string): string => path.replace(/[^a-zA-Z0-9]/g, "-");

/** Detectors of this tape's machine values (see {@linkcode DetectorValues}), longest first. */
export function valueDetectors(values: DetectorValues): Detector[] {
  const out: Detector[] = values.replacements.map(([from, to]) => ({
    code: "secret" as const,
    what: `a replacement of ${from}`,
    pattern: typeof from === "string"
      ? new RegExp(escape(from), "g")
      : new RegExp(from.source, from.flags.includes("g") ? from.flags : `${from.flags}g`),
    replace: to,
  }));
  out.push(...SECRET_DETECTORS);
  const paths: Array<[string, string, string]> = [];
  const add = (list: string[], placeholder: string, name: string) => {
    for (const p of list.flatMap(pathForms)) paths.push([p, placeholder, name]);
  };
  add(values.cwd, "<CWD>", "the cwd");
  add(values.home, "<HOME>", "the home directory");
  add(values.tmpdir, "<TMP>", "the temp directory");
  const seen = new Set<string>();
  for (const [path, placeholder, name] of paths.sort((a, b) => b[0].length - a[0].length)) {
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({
      code: "path",
      what: `${name} ${path}`,
      pattern: new RegExp(`(?<![\\w.-])${escape(path)}(?![\\w-]|\\.\\w)`, "g"),
      replace: placeholder,
    });
  }
  const slugs = [...new Set(values.cwd.flatMap(pathForms).map(projectSlug))]
    .sort((a, b) => b.length - a.length);
  for (const slug of slugs.filter((s) => s.length >= 4)) {
    out.push({
      code: "path",
      what: `the cwd's project slug ${slug}`,
      pattern: new RegExp(`(?<![\\w.-])${escape(slug)}(?![\\w-]|\\.\\w)`, "g"),
      replace: "<CWD_SLUG>",
    });
  }
  for (const user of values.user.filter((u) => u.length >= 2 && !u.includes("<"))) {
    out.push({
      code: "path",
      what: `the user name ${user}`,
      pattern: new RegExp(
        `(?<=[\\/\\\\](?:home|Users)[\\/\\\\])${escape(user)}(?![\\w.-])|(?<![\\w.<-])${
          escape(user)
        }(?=@)`,
        "g",
      ),
      replace: "<USER>",
    });
  }
  const hosts = values.hostname.flatMap((h) => [h, h.split(".")[0]])
    .filter((h) => h.length >= 2 && h.toLowerCase() !== "localhost" && !h.includes("<"));
  for (const host of [...new Set(hosts)].sort((a, b) => b.length - a.length)) {
    out.push({
      code: "host",
      what: `the host name ${host}`,
      pattern: new RegExp(`(?<![\\w<-])${escape(host)}(?![\\w>-])`, "gi"),
      replace: "<HOST>",
    });
  }
  return out;
}

/** `text` with every detector's matches replaced, in order. */
export function scrubText(text: string, detectors: readonly Detector[]): string {
  let out = text;
  for (const d of detectors) {
    d.pattern.lastIndex = 0;
    out = out.replace(d.pattern, d.replace as string);
  }
  return out;
}

/** A JSON value with every string scrubbed (keys kept; secret-named keys' values replaced). */
export function scrubJson(value: unknown, detectors: readonly Detector[]): unknown {
  if (typeof value === "string") return scrubText(value, detectors);
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, detectors));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const placeholder = (typeof v === "string" && v !== "" && !isPlaceholder(v)) ||
        (typeof v === "number")
      ? secretKeyPlaceholder(key, v)
      : undefined;
    // defined, not assigned: a "__proto__" key stays a key
    Object.defineProperty(out, key, {
      value: placeholder ?? scrubJson(v, detectors),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** What a detector found in a value: the detector, and the first match (for messages). */
export interface Detection {
  /** The detector. */
  detector: Detector;
  /** The first text it would change. */
  match: string;
}

/**
 * Which detectors would change something in `value` (a string or JSON), each once, applied in
 * order as {@linkcode scrubText} applies them.
 */
export function detect(value: unknown, detectors: readonly Detector[]): Detection[] {
  const found = new Map<Detector, string>();
  const secretKey: Detector = {
    code: "secret",
    what: "a secret-named value",
    pattern: /$^/g,
    replace: "",
  };
  const visit = (v: unknown, key?: string) => {
    if (typeof v === "number") {
      if (key !== undefined && secretKeyPlaceholder(key, v) && !found.has(secretKey)) {
        found.set(secretKey, `"${key}"`);
      }
      return;
    }
    if (typeof v === "string") {
      if (key !== undefined && v !== "" && !isPlaceholder(v) && secretKeyPlaceholder(key, v)) {
        if (!found.has(secretKey)) found.set(secretKey, `"${key}"`);
        return;
      }
      let text = v;
      for (const d of detectors) {
        d.pattern.lastIndex = 0;
        const scrubbed = text.replace(d.pattern, d.replace as string);
        if (scrubbed === text) continue;
        d.pattern.lastIndex = 0;
        if (!found.has(d)) found.set(d, d.pattern.exec(text)?.[0] ?? "");
        d.pattern.lastIndex = 0;
        text = scrubbed;
      }
    } else if (Array.isArray(v)) v.forEach((x) => visit(x));
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) visit(x, k);
    }
  };
  visit(value);
  return [...found].map(([detector, match]) => ({ detector, match }));
}

const CONFIG_PATH = /^(\/.+?)\/\.claude\/projects(?:\/|$)/;

/** The cwd and home a tape itself names (`system/init`'s `cwd`, hook inputs, transcript paths). */
function tapeValues(tape: Tape): { cwd: string[]; home: string[] } {
  const cwd = new Set<string>();
  const home = new Set<string>();
  const header = tape.header as Record<string, unknown>;
  if (typeof header.cwd === "string") cwd.add(header.cwd);
  const visit = (v: unknown, key?: string) => {
    if (typeof v === "string") {
      if ((key === "cwd" || key === "original_cwd") && v.startsWith("/")) cwd.add(v);
      const home_ = CONFIG_PATH.exec(v)?.[1];
      if (home_ && !home_.includes("<")) home.add(home_);
    } else if (Array.isArray(v)) v.forEach((x) => visit(x));
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) visit(x, k);
    }
  };
  for (const entry of tape.entries) if (isFrameEntry(entry)) visit(entry.frame);
  const usable = (set: Set<string>) => [...set].filter((p) => p !== "/" && !p.includes("<"));
  return { cwd: usable(cwd), home: usable(home) };
}

const list = (value: string | readonly string[] | undefined): string[] =>
  value === undefined ? [] : typeof value === "string" ? [value] : [...value];

/** The values to scrub in `tape` under `options`, with the machine's when `machine`. */
export function detectorValues(
  tape: Tape,
  options: ScrubOptions,
  machine: boolean,
): DetectorValues {
  const fromTape = options.infer ?? true ? tapeValues(tape) : { cwd: [], home: [] };
  const host = machine ? machineIdentity() : { cwd: [], home: [], tmpdir: [] };
  for (const [from] of options.replacements ?? []) {
    if (typeof from !== "string" && !(from instanceof RegExp)) {
      throw new TypeError(
        `Cannot scrub tape: a replacement's target must be a string or a RegExp, not ${typeof from}`,
      );
    }
    if (from === "") throw new TypeError("Cannot scrub tape: a replacement's target is empty");
  }
  return {
    cwd: [...list(options.cwd), ...fromTape.cwd, ...host.cwd],
    home: [...list(options.home), ...fromTape.home, ...host.home],
    tmpdir: [...list(options.tmpdir), ...host.tmpdir],
    user: [...list(options.user), ...(host.user ? [host.user] : [])],
    hostname: [...list(options.hostname), ...(host.hostname ? [host.hostname] : [])],
    replacements: [...options.replacements ?? []].map(([from, to]) => [from, to]),
  };
}
