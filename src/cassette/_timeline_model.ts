/**
 * What the timeline shows of a tape, before any HTML: each entry's lane, label and short
 * preview, its error marks, its links (a control request and its answer, a tool use and its
 * result, the permission and hook requests about a tool use), and the runs of `stream_event`
 * frames that fold into one item. Internal to `timelineHtml`.
 *
 * @module
 */

import type { Tape, TapeEntry } from "./tape.ts";

/** A lane: what the SDK sent to the CLI, or what the CLI sent (and wrote to stderr). */
export type TimelineLane = "s2c" | "c2s";

/** Why an entry is marked. */
export interface TimelineMark {
  /** `error` (red) or `warn` (amber). */
  level: "error" | "warn";
  /** What is wrong, shortly. */
  text: string;
}

/**
 * How two entries are related: a control request and its answer (`control`) or its
 * cancellation (`cancel`), a tool use and its result (`tool`), a tool use and the permission
 * or hook request about it (`permission`).
 */
export type TimelineLinkKind = "control" | "cancel" | "tool" | "permission";

/** A link from one entry to another (indexes into the tape's entries). */
export interface TimelineLink {
  /** The entry the link starts at (a request, a tool use). */
  from: number;
  /** The entry it points to (the answer, the tool result). */
  to: number;
  /** What kind of relation. */
  kind: TimelineLinkKind;
  /** Whether the answer is an error (a control error, an `is_error` tool result). */
  error: boolean;
}

/** One entry as the timeline shows it. */
export interface TimelineEntryView {
  /** Index in the tape's entries. */
  index: number;
  /** The element id (`line-12`, or `entry-3` for an entry built in memory). */
  id: string;
  /** Which lane. */
  lane: TimelineLane;
  /** A css-safe kind (`control_request`, `stream_event`, `raw`, `stderr`, …). */
  kind: string;
  /** The label (frame type, `raw`, `stderr`). */
  label: string;
  /** The subtype or what identifies it (`initialize`, `can_use_tool Bash`, …). */
  detail: string;
  /** A short preview of its text. */
  preview: string;
  /** Its error marks. */
  marks: TimelineMark[];
  /** The index of the run of stream events it belongs to, if any. */
  group?: number;
}

/** A run of consecutive `stream_event` frames, folded into one item. */
export interface TimelineGroup {
  /** The entries' indexes, in order. */
  members: number[];
  /** The event types and how many of each, in order of first appearance. */
  events: Array<[string, number]>;
  /** The text, thinking and tool input the deltas carry, joined. */
  text: string;
}

/** The whole model of one tape. */
export interface TimelineModel {
  /** One view per entry, same order as the tape. */
  entries: TimelineEntryView[];
  /** The runs of stream events. */
  groups: TimelineGroup[];
  /** The links between entries. */
  links: TimelineLink[];
  /** The last entry's time (or the ending's), at least 1. */
  span: number;
  /** How many entries (plus the ending) carry an error mark. */
  errorCount: number;
  /** The ending's marks (a non-zero exit, a signal, a cut tape). */
  endingMarks: TimelineMark[];
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => typeof v === "string" ? v : undefined;

/** The element id of an entry: `line-N` when it has a tape line, else `entry-I`. */
function entryId(entry: TapeEntry, index: number): string {
  return Number.isSafeInteger(entry.line) && entry.line > 0
    ? `line-${entry.line}`
    : `entry-${index}`;
}

/** Shortens text to one line of at most `max` characters. */
function clip(text: string, max = 120): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** Builds the model of a tape (throws TypeError on a value that is not a tape). */
export function timelineModel(tape: Tape): TimelineModel {
  const entries = tape.entries.map((entry, index) => describe(entry, index));
  const groups = foldStreamRuns(tape.entries, entries);
  const links = linkEntries(tape.entries, entries);
  const last = tape.entries.reduce((m, e) => Math.max(m, finite(e.t)), 0);
  const span = Math.max(1, last, finite(tape.ending?.t));
  const endingMarks = endingMarksOf(tape);
  const errorCount = entries.filter((e) => e.marks.some((m) => m.level === "error")).length +
    (endingMarks.some((m) => m.level === "error") ? 1 : 0);
  return { entries, groups, links, span, errorCount, endingMarks };
}

function finite(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) ? n : 0;
}

function endingMarksOf(tape: Tape): TimelineMark[] {
  const end = tape.ending;
  if (end) {
    if (end.signal) return [{ level: "error", text: `killed by ${end.signal}` }];
    if (end.code !== 0) return [{ level: "error", text: `exit code ${end.code}` }];
    return [];
  }
  if (tape.complete === false) {
    return [{ level: "warn", text: "the tape was cut short (no ending line)" }];
  }
  return [];
}

function describe(entry: TapeEntry, index: number): TimelineEntryView {
  const id = entryId(entry, index);
  if (entry.dir === "stderr") {
    const text = typeof entry.text === "string" ? entry.text : String(entry.text);
    return {
      index,
      id,
      lane: "c2s",
      kind: "stderr",
      label: "stderr",
      detail: "",
      preview: clip(text),
      marks: [{ level: "error", text: "written to stderr" }],
    };
  }
  const lane: TimelineLane = entry.dir === "sdk->cli" ? "s2c" : "c2s";
  if (!("frame" in entry)) {
    return {
      index,
      id,
      lane,
      kind: "raw",
      label: "raw line",
      detail: "not JSON",
      preview: clip(String(entry.raw)),
      marks: [{ level: "error", text: "a line that is not a JSON frame" }],
    };
  }
  const frame: Obj = isObj(entry.frame) ? entry.frame : {};
  const type = str(frame.type) ?? "?";
  const view: TimelineEntryView = {
    index,
    id,
    lane,
    kind: /^[a-z_]+$/.test(type) ? type : "other",
    label: type,
    detail: "",
    preview: "",
    marks: [],
  };
  const describer = DESCRIBERS[type];
  if (describer) describer(frame, view);
  else view.detail = str(frame.subtype) ?? "";
  return view;
}

const DESCRIBERS: Record<string, (frame: Obj, view: TimelineEntryView) => void> = {
  control_request(frame, view) {
    const req = isObj(frame.request) ? frame.request : {};
    const subtype = str(req.subtype) ?? "?";
    const extra = str(req.tool_name) ?? str(req.model) ?? str(req.mode) ??
      str(isObj(req.input) ? req.input.hook_event_name : undefined) ?? str(req.server_name) ?? "";
    view.detail = extra ? `${subtype} ${extra}` : subtype;
    const input = isObj(req.input) && "hook_event_name" in req.input
      ? req.input.tool_input
      : req.input ?? req.message;
    if (input !== undefined) view.preview = clip(JSON.stringify(input), 80);
  },
  control_response(frame, view) {
    const res = isObj(frame.response) ? frame.response : {};
    view.detail = str(res.subtype) ?? "?";
    if (res.subtype === "error") {
      const error = str(res.error) ?? "error";
      view.preview = clip(error);
      view.marks.push({ level: "error", text: `control error: ${clip(error, 80)}` });
    } else if (isObj(res.response)) {
      const body = res.response;
      const behavior = str(body.behavior);
      if (behavior === "deny") {
        view.marks.push({ level: "error", text: `permission denied: ${str(body.message) ?? ""}` });
      }
      view.preview = clip(
        behavior ? `${behavior}${body.message ? `: ${body.message}` : ""}` : JSON.stringify(body),
        80,
      );
    }
  },
  control_cancel_request(frame, view) {
    view.detail = str(frame.request_id) ?? "";
    view.marks.push({ level: "warn", text: "request cancelled" });
  },
  system(frame, view) {
    const subtype = str(frame.subtype) ?? "?";
    view.detail = subtype;
    if (subtype === "session_state_changed") view.preview = str(frame.state) ?? "";
    else if (subtype === "status") {
      view.preview = [frame.status, frame.permissionMode, frame.compact_result]
        .filter((v) => typeof v === "string").join(" ");
    } else if (subtype === "init") {
      view.preview = `${str(frame.model) ?? ""} ${str(frame.cwd) ?? ""}`;
    } else if (subtype === "api_retry") {
      view.preview = `attempt ${frame.attempt}/${frame.max_retries}, HTTP ${frame.error_status}`;
      view.marks.push({
        level: "error",
        text: `API retry ${frame.attempt}/${frame.max_retries} (${
          frame.error_status ?? "no status"
        })`,
      });
    } else if (subtype === "permission_denied") {
      view.preview = `${str(frame.tool_name) ?? ""}: ${str(frame.message) ?? ""}`;
      view.marks.push({
        level: "error",
        text: `permission denied: ${str(frame.tool_name) ?? "a tool"}`,
      });
    } else if (subtype.startsWith("task_")) {
      view.preview = str(frame.description) ?? str(frame.summary) ?? "";
    }
    view.preview = clip(view.preview);
  },
  assistant(frame, view) {
    const message = isObj(frame.message) ? frame.message : {};
    const blocks = Array.isArray(message.content) ? message.content.filter(isObj) : [];
    view.detail = blocks.map((b) =>
      b.type === "tool_use" ? `tool_use ${str(b.name) ?? ""}` : str(b.type) ?? "?"
    ).join(", ");
    view.preview = clip(blocks.map(blockText).join(" "));
    if (frame.error !== undefined || frame.is_api_error_message === true) {
      view.marks.push({
        level: "error",
        text: `API error${frame.api_error_status ? ` ${frame.api_error_status}` : ""}`,
      });
    }
  },
  user(frame, view) {
    const message = isObj(frame.message) ? frame.message : {};
    const content = message.content;
    if (typeof content === "string") {
      view.detail = "prompt";
      view.preview = clip(content);
      return;
    }
    const blocks = Array.isArray(content) ? content.filter(isObj) : [];
    view.detail = blocks.map((b) => str(b.type) ?? "?").join(", ");
    view.preview = clip(blocks.map(blockText).join(" "));
    const failed = blocks.filter((b) => b.type === "tool_result" && b.is_error === true);
    if (failed.length > 0) {
      view.marks.push({ level: "warn", text: "tool result is_error" });
    }
  },
  result(frame, view) {
    view.detail = str(frame.subtype) ?? "?";
    const errors = Array.isArray(frame.errors) ? frame.errors.map(String) : [];
    view.preview = clip(str(frame.result) ?? errors.join("; "));
    if (frame.is_error === true) {
      view.marks.push({
        level: "error",
        text: `result is_error${frame.terminal_reason ? ` (${frame.terminal_reason})` : ""}`,
      });
    }
    const denials = Array.isArray(frame.permission_denials) ? frame.permission_denials : [];
    if (denials.length > 0) {
      const names = denials.map((d) => (isObj(d) ? str(d.tool_name) : undefined) ?? "?");
      view.marks.push({ level: "error", text: `permission denials: ${names.join(", ")}` });
    }
  },
  stream_event(frame, view) {
    const event = isObj(frame.event) ? frame.event : {};
    view.detail = str(event.type) ?? "?";
    view.preview = clip(eventText(event));
  },
};

function blockText(block: Obj): string {
  switch (block.type) {
    case "text":
      return str(block.text) ?? "";
    case "thinking":
      return str(block.thinking) ?? "";
    case "tool_use":
      return JSON.stringify(block.input ?? {});
    case "tool_result": {
      const c = block.content;
      if (typeof c === "string") return c;
      if (Array.isArray(c)) {
        return c.map((x) => (isObj(x) ? str(x.text) : undefined) ?? "").join(" ");
      }
      return "";
    }
    default:
      return "";
  }
}

function eventText(event: Obj): string {
  const delta = isObj(event.delta) ? event.delta : {};
  return str(delta.text) ?? str(delta.thinking) ?? str(delta.partial_json) ?? "";
}

function foldStreamRuns(tapeEntries: TapeEntry[], views: TimelineEntryView[]): TimelineGroup[] {
  const groups: TimelineGroup[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length >= 2) {
      const counts = new Map<string, number>();
      let text = "";
      for (const i of run) {
        counts.set(views[i].detail, (counts.get(views[i].detail) ?? 0) + 1);
        const frame = (tapeEntries[i] as { frame: Obj }).frame;
        text += eventText(isObj(frame.event) ? frame.event : {});
      }
      for (const i of run) views[i].group = groups.length;
      groups.push({ members: run, events: [...counts], text: clip(text, 160) });
    }
    run = [];
  };
  views.forEach((view, i) => {
    if (view.kind === "stream_event") {
      if (run.length > 0 && views[run[0]].lane !== view.lane) flush();
      run.push(i);
    } else flush();
  });
  flush();
  return groups;
}

function linkEntries(tapeEntries: TapeEntry[], views: TimelineEntryView[]): TimelineLink[] {
  const links: TimelineLink[] = [];
  const requests = new Map<string, number>();
  const toolUses = new Map<string, number>();
  const answered = new Set<number>();
  tapeEntries.forEach((entry, i) => {
    if (!("frame" in entry) || !isObj(entry.frame)) return;
    const frame = entry.frame;
    if (frame.type === "control_request" && typeof frame.request_id === "string") {
      requests.set(`${entry.dir}|${frame.request_id}`, i);
      const req = isObj(frame.request) ? frame.request : {};
      const toolUseId = str(req.tool_use_id) ??
        str(isObj(req.input) ? req.input.tool_use_id : undefined);
      const use = toolUseId !== undefined ? toolUses.get(toolUseId) : undefined;
      if (use !== undefined) links.push({ from: use, to: i, kind: "permission", error: false });
    } else if (frame.type === "control_cancel_request") {
      const req = typeof frame.request_id === "string"
        ? requests.get(`${entry.dir}|${frame.request_id}`)
        : undefined;
      if (req !== undefined) links.push({ from: req, to: i, kind: "cancel", error: true });
    } else if (frame.type === "control_response") {
      const res = isObj(frame.response) ? frame.response : {};
      const id = str(res.request_id);
      const other = entry.dir === "sdk->cli" ? "cli->sdk" : "sdk->cli";
      const req = id !== undefined ? requests.get(`${other}|${id}`) : undefined;
      if (req !== undefined && !answered.has(req)) {
        answered.add(req);
        links.push({ from: req, to: i, kind: "control", error: res.subtype === "error" });
      }
    } else if (frame.type === "assistant" || frame.type === "user") {
      const message = isObj(frame.message) ? frame.message : {};
      const blocks = Array.isArray(message.content) ? message.content.filter(isObj) : [];
      for (const block of blocks) {
        if (block.type === "tool_use" && typeof block.id === "string") toolUses.set(block.id, i);
        if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
          const use = toolUses.get(block.tool_use_id);
          if (use !== undefined) {
            links.push({ from: use, to: i, kind: "tool", error: block.is_error === true });
          }
        }
      }
    }
  });
  for (const [, i] of requests) {
    if (!answered.has(i)) views[i].marks.push({ level: "warn", text: "never answered" });
  }
  return links;
}
