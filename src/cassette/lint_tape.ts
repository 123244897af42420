/**
 * Linting: what is wrong with a tape before it is committed or replayed.
 *
 * @module
 */

import { requireTape } from "./tape.ts";
import type { Detector } from "./_detector.ts";
import {
  detect,
  detectorValues,
  GENERIC_PATH_DETECTORS,
  scrubJson,
  valueDetectors,
} from "./_detectors.ts";
import { CLI_MESSAGE_KINDS, CONTROL_REQUEST_SUBTYPES } from "./_sdk_kinds.ts";
import { SECRET_DETECTORS as SECRETS } from "./_secret_patterns.ts";
import { findSplitSecrets } from "./_split_secrets.ts";
import type { ScrubOptions } from "./scrub_options.ts";
import type { Tape, TapeDirection, TapeEntry, TapeFrameEntry } from "./tape.ts";

/** What kind of problem {@linkcode lintTape} found. */
export type TapeProblemCode =
  | "secret"
  | "path"
  | "host"
  | "no-header"
  | "no-versions"
  | "not-json"
  | "unknown-type"
  | "unknown-control"
  | "unanswered"
  | "orphan-response"
  | "time-order"
  | "cut"
  | "unseen";

/** One problem in a tape. */
export interface TapeProblem {
  /** The 1-based line in the tape file (the header is line 1; 0 for an in-memory entry). */
  line: number;
  /** `"error"`: must be fixed (a secret, no header); `"warning"`: worth a look. */
  severity: "error" | "warning";
  /** What kind of problem. */
  code: TapeProblemCode;
  /** What is wrong, and where. */
  message: string;
}

/**
 * What {@linkcode lintTape} looks for besides what it always checks: the same values
 * {@linkcode scrubTape} replaces (see {@linkcode ScrubOptions}). Unlike scrubbing, linting does
 * not add the running machine's values unless `machine` is `true`, so a committed tape lints
 * the same everywhere.
 */
export type LintOptions = Omit<ScrubOptions, "beforePersist">;

const SEVERITY: Record<TapeProblemCode, "error" | "warning"> = {
  "secret": "error",
  "path": "warning",
  "host": "warning",
  "no-header": "error",
  "no-versions": "warning",
  "not-json": "warning",
  "unknown-type": "warning",
  "unknown-control": "warning",
  "unanswered": "warning",
  "orphan-response": "warning",
  "time-order": "warning",
  "cut": "warning",
  "unseen": "warning",
};

const other = (dir: TapeDirection): TapeDirection => dir === "cli->sdk" ? "sdk->cli" : "cli->sdk";

/** How an entry is named in messages. */
function describe(entry: TapeEntry): string {
  if ("frame" in entry) {
    const f = entry.frame as Record<string, unknown>;
    const request = f.request as { subtype?: unknown } | undefined;
    const sub = typeof f.subtype === "string"
      ? `/${f.subtype}`
      : typeof request?.subtype === "string"
      ? `/${request.subtype}`
      : "";
    return `the ${entry.dir} ${f.type}${sub} frame`;
  }
  if ("raw" in entry) return `the ${entry.dir} raw line`;
  return "the stderr text";
}

/**
 * The problems of `tape`, in line order: unscrubbed secrets (errors) and machine paths, host
 * names and loopback URLs (warnings), found by the same detectors as {@linkcode scrubTape}; a
 * missing header (error) or missing `cli_version`/`sdk_version`; lines that are not JSON;
 * frames whose `type`/`subtype` the Agent SDK's types do not know (the SDK version this
 * library was built against: its `StdoutMessage` union for what the CLI writes, its control
 * request types both ways); control requests never answered from the other side (and not
 * cancelled); answers to nothing; times that go back; a cut tape (`complete === false`).
 * Lint and {@linkcode scrubTape} agree: what lint reports as a secret, scrubbing replaces, and
 * a scrubbed tape lints clean of secrets.
 *
 * What it cannot see, and says so where it can: secrets inside images and documents carried
 * as base64 (an `unseen` warning names the line), in formats none of the detectors knows (a
 * password that is just a word, a token of a provider not listed at `scrubTape`), encrypted or
 * compressed text, text encoded other than by percent-encoding or base64 (hex, rot13), and
 * secrets split across frames other than one message's stream deltas.
 *
 * @example Linting a tape
 * ```ts
 * import { lintTape, type Tape } from "@x/claude-mock/cassette";
 * const tape: Tape = {
 *   header: { version: 1, cli_version: "2.1.328", sdk_version: "0.3.328" },
 *   entries: [
 *     { t: 0, dir: "sdk->cli", line: 2, frame: { type: "control_request", request_id: "a", request: { subtype: "initialize" } } },
 *     { t: 9, dir: "cli->sdk", line: 3, frame: { type: "system", subtype: "hello", key: "sk-ant-api03-0123456789" } },
 *   ],
 *   complete: false,
 * };
 * for (const p of lintTape(tape)) console.log(p.line, p.severity, p.code);
 * // 2 warning unanswered
 * // 3 error secret
 * // 3 warning unknown-type
 * // 3 warning cut
 * ```
 */
export function lintTape(tape: Tape, options: LintOptions = {}): TapeProblem[] {
  requireTape(tape, "Cannot lint tape");
  const lint = linter(tape, options);
  lintHeader(tape, lint);
  const requests: ControlRequests = new Map();
  let lastTime = -Infinity;
  for (const entry of tape.entries) {
    const line = entry.line;
    if (entry.t < lastTime) {
      lint.add(
        line,
        "time-order",
        `Time goes back at line ${line}: ${entry.t} ms after ${lastTime} ms`,
      );
    }
    lastTime = Math.max(lastTime, entry.t);
    if ("text" in entry) lint.report(line, entry.text, describe(entry));
    else if ("raw" in entry) {
      lint.add(line, "not-json", `Line ${line} is not a JSON frame (${entry.dir})`);
      lint.report(line, entry.raw, describe(entry));
    } else {
      lintFrame(entry, lint);
      pairControl(entry, { lint, requests });
    }
  }
  for (const { detector, lines: [first, last] } of findSplitSecrets(tape.entries, SECRETS)) {
    lint.add(
      first,
      "secret",
      `Unscrubbed ${detector.what}, split across the stream deltas of lines ${first}–${last}`,
    );
  }
  for (const [id, request] of requests) {
    if (request.answered || request.cancelled) continue;
    lint.add(
      request.line,
      "unanswered",
      `The ${request.dir} control request ${id} at line ${request.line} is never answered`,
    );
  }
  if (tape.complete === false) {
    const last = tape.entries.at(-1)?.line ?? 1;
    lint.add(last, "cut", `The tape was cut short after line ${last}: it has no ending line`);
  }
  return lint.problems.sort((a, b) => a.line - b.line);
}

/** The problems found so far, and how one is added. */
interface Linter {
  problems: TapeProblem[];
  /** Adds a problem at `line`. */
  add(line: number, code: TapeProblemCode, message: string): void;
  /** Adds what the detectors find in `value` (secrets, paths, hosts), named as `what`. */
  report(line: number, value: unknown, what: string): void;
}

/** The control requests seen, by request id. */
type ControlRequests = Map<
  string,
  { dir: TapeDirection; line: number; answered: boolean; cancelled: boolean }
>;

function linter(tape: Tape, options: LintOptions): Linter {
  const problems: TapeProblem[] = [];
  const where = tape.source ? ` (in ${tape.source})` : "";
  const add = (line: number, code: TapeProblemCode, message: string) =>
    void problems.push({ line, severity: SEVERITY[code], code, message: `${message}${where}` });
  const detectors = valueDetectors(detectorValues(tape, options, options.machine ?? false));
  const report = (line: number, value: unknown, what: string) => {
    const found = [
      ...detect(value, detectors),
      ...detect(scrubJson(value, detectors), GENERIC_PATH_DETECTORS),
    ];
    for (const { detector, match } of found) {
      add(line, detector.code, unscrubbed(detector, match, what));
    }
  };
  return { problems, add, report };
}

/** The header: a version, the CLI and SDK versions, nothing to scrub. */
function lintHeader(tape: Tape, lint: Linter): void {
  const header = tape.header as Record<string, unknown>;
  if (typeof header.version !== "number") {
    lint.add(1, "no-header", "The tape has no header line with a version (line 1)");
  } else {
    const missing = ["cli_version", "sdk_version"].filter((k) => typeof header[k] !== "string");
    if (missing.length > 0) {
      lint.add(1, "no-versions", `The header does not say ${missing.join(" or ")} (line 1)`);
    }
  }
  lint.report(1, tape.header, "the header");
}

/** A frame: nothing to scrub, no media lint cannot see into, a kind the SDK's types know. */
function lintFrame(entry: TapeFrameEntry, lint: Linter): void {
  const line = entry.line;
  lint.report(line, entry.frame, describe(entry));
  const media = mediaIn(entry.frame);
  if (media) {
    lint.add(
      line,
      "unseen",
      `${
        describe(entry)
      } at line ${line} holds ${media} (base64): lint cannot see secrets in it; ` +
        "look at it before you commit the tape",
    );
  }
  const frame = entry.frame as Record<string, unknown>;
  const type = String(frame.type);
  if (entry.dir === "cli->sdk") {
    const subtypes = CLI_MESSAGE_KINDS[type];
    if (!Object.hasOwn(CLI_MESSAGE_KINDS, type)) {
      lint.add(
        line,
        "unknown-type",
        `The SDK's types do not know message type "${type}" (line ${line})`,
      );
    } else if (subtypes && !subtypes.includes(String(frame.subtype))) {
      lint.add(
        line,
        "unknown-type",
        `The SDK's types do not know ${type} subtype "${frame.subtype}" (line ${line})`,
      );
    }
  }
  if (type !== "control_request") return;
  const subtype = String((frame.request as { subtype?: unknown } | undefined)?.subtype);
  if (!CONTROL_REQUEST_SUBTYPES.includes(subtype)) {
    lint.add(
      line,
      "unknown-control",
      `The SDK's types do not know control request subtype "${subtype}" (${entry.dir}, line ${line})`,
    );
  }
}

/** Control requests and what answers or cancels them: an answer to nothing, or twice. */
function pairControl(
  entry: TapeFrameEntry,
  { lint, requests }: { lint: Linter; requests: ControlRequests },
): void {
  const line = entry.line;
  const frame = entry.frame as Record<string, unknown>;
  const type = String(frame.type);
  if (type === "control_request") {
    if (typeof frame.request_id === "string") {
      requests.set(frame.request_id, { dir: entry.dir, line, answered: false, cancelled: false });
    }
    return;
  }
  if (type !== "control_response" && type !== "control_cancel_request") return;
  const id = type === "control_cancel_request"
    ? frame.request_id
    : (frame.response as { request_id?: unknown } | undefined)?.request_id;
  const request = typeof id === "string" ? requests.get(id) : undefined;
  const by = type === "control_cancel_request" ? entry.dir : other(entry.dir);
  if (!request || request.dir !== by) {
    lint.add(
      line,
      "orphan-response",
      `The ${type} at line ${line} (${entry.dir}) answers no ${by} control request (request_id ${
        JSON.stringify(id)
      })`,
    );
  } else if (request.answered && type === "control_response") {
    lint.add(
      line,
      "orphan-response",
      `The control_response at line ${line} answers request ${id} (line ${request.line}) again`,
    );
  } else if (type === "control_cancel_request") request.cancelled = true;
  else request.answered = true;
}

/** `an image` / `a document` when the frame carries base64 media, else `undefined`. */
function mediaIn(frame: unknown): string | undefined {
  let found: string | undefined;
  const visit = (v: unknown) => {
    if (found || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) return v.forEach(visit);
    const o = v as Record<string, unknown>;
    const source = o.source as { type?: unknown } | undefined;
    if ((o.type === "image" || o.type === "document") && source?.type === "base64") {
      found = o.type === "image" ? "an image" : "a document";
      return;
    }
    for (const x of Object.values(o)) visit(x);
  };
  visit(frame);
  return found;
}

/** The message for a detector's find (secrets are never repeated in it). */
function unscrubbed(detector: Detector, match: string, what: string): string {
  const shown = detector.code === "secret" || detector.what.includes(match)
    ? ""
    : ` ("${match.slice(0, 80)}")`;
  return `Unscrubbed ${detector.what}${shown} in ${what}`;
}
