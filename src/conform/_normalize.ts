/**
 * What legitimately differs between two runs of one scenario, made equal before they are
 * compared: ids (uuids, session, message, tool use, request, agent and task ids) replaced by
 * their kind (`<uuid>`, `<toolu>`, …: numbering them would shift every later id when one run
 * has a frame the other has not); timestamps (ISO text, and epoch milliseconds under time
 * keys); durations and pids; the tense of a model retirement notice (wall clock against
 * session clock); the run's own paths (working directory and its project slug,
 * config folder, sandbox, home, binary); the API's host and port; the CLI's per-process
 * messaging socket. Hook callback ids (`hook_3`) are the SDK's registration order, not
 * random: they are kept. Internal.
 *
 * @internal
 * @module
 */

/** The paths and names one run used, to be replaced by placeholders. */
export interface RunPlaces {
  /** Working directories (the run's, the scenario's). */
  cwd: string[];
  /** Config folders. */
  config?: string[];
  /** Other folders of the run (the sandbox, temp folders). */
  other?: string[];
  /** The home folder. */
  home?: string;
  /** The binary that ran. */
  binary?: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const API_ID = /\b(msg|toolu|srvtoolu|req)_[0-9A-Za-z]{6,}/g;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})/g;
const GATEWAY = /\b(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}\b/g;
/** Keys whose string values are ids, whatever they look like. */
const ID_KEYS = new Set([
  "request_id",
  "agent_id",
  "agentId",
  "task_id",
  "taskId",
  "tool_use_id",
  "toolUseID",
  "toolUseId",
  "parent_tool_use_id",
  "session_id",
  "sessionId",
  "uuid",
  "id",
  "run_id",
  "runId",
  "api_message_id",
  "message_id",
  "harnessSectionHash",
  "device_id",
]);
/** Keys whose numbers are times or process ids. */
const TIME_KEY = /(duration|_ms$|Ms$|^ttft|elapsed|^pid$|_seconds$|^t$|_time$|Time$|_at$|At$)/;
/** A duration inside a text ("first after 32 ms"). */
const TEXT_MS = /\b\d+ ms\b/g;
/**
 * The tense of a model retirement notice: the real CLI compares the date with the wall clock,
 * the mock with its session clock (the same date and model are still compared).
 */
const RETIRED_TENSE = /\b(?:was|will be) retired on\b/g;
/** A measured duration in a subagent's hand-back note (`duration_ms: 186`). */
const TEXT_DURATION = /\bduration_ms: \d+/g;
/**
 * The CLI's messaging socket: named after its process id, in `cc-socks` under its runtime or
 * temp folder, or `/tmp/cc-socks-<uid>`.
 */
const SOCKET = /(?:\/[^\s"'/]+)*\/cc-socks(?:-\d+)?\/\d+(?:-[0-9a-f]{8})?\.sock/g;

/** Renames ids consistently across everything one run wrote (keep one per run). */
export class Normalizer {
  readonly #ids = new Map<string, string>();
  readonly #paths: Array<[string, string]>;

  /** A normalizer for one run's `places`. */
  constructor(places: RunPlaces) {
    const paths: Array<[string, string]> = [];
    const add = (path: string | undefined, name: string) => {
      if (!path || path === "/") return;
      const clean = path.replace(/\/+$/, "");
      paths.push([clean, name]);
      paths.push([clean.replace(/[^A-Za-z0-9]/g, "-"), `${name}-slug`]);
    };
    for (const cwd of places.cwd) add(cwd, "<cwd>");
    for (const config of places.config ?? []) add(config, "<config>");
    for (const other of places.other ?? []) add(other, "<tmp>");
    add(places.binary, "<claude>");
    add(places.home, "<home>");
    // longest first: a cwd inside the sandbox before the sandbox
    this.#paths = paths.sort((a, b) => b[0].length - a[0].length);
  }

  /** A normalized copy of `value`. */
  normalize(value: unknown): unknown {
    this.#collect(value, undefined);
    return this.#rewrite(value, undefined);
  }

  #id(raw: string, kind: string): string {
    let named = this.#ids.get(raw);
    if (named === undefined) {
      named = `<${kind}>`;
      this.#ids.set(raw, named);
    }
    return named;
  }

  /** Learns the ids of a value in document order (keys first, then patterns inside strings). */
  #collect(value: unknown, key: string | undefined): void {
    if (typeof value === "string") {
      if (
        key !== undefined && ID_KEYS.has(key) && value !== "" && !value.startsWith("<") &&
        (key !== "id" || looksRandom(value))
      ) {
        this.#id(value, kindOfId(value, key));
      }
      for (const m of value.matchAll(UUID)) this.#id(m[0], "uuid");
      for (const m of value.matchAll(API_ID)) this.#id(m[0], m[1]);
      return;
    }
    if (Array.isArray(value)) {
      for (const v of value) this.#collect(v, undefined);
      return;
    }
    if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) this.#collect(v, k);
    }
  }

  #rewrite(value: unknown, key: string | undefined): unknown {
    if (typeof value === "string") return this.#text(value, key);
    if (typeof value === "number") {
      return key !== undefined && TIME_KEY.test(key) ? "<ms>" : value;
    }
    if (Array.isArray(value)) return value.map((v) => this.#rewrite(v, undefined));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.#rewrite(v, k);
      return out;
    }
    return value;
  }

  /** A string with its ids, times, paths and gateway replaced. */
  text(value: string): string {
    this.#collect(value, undefined);
    return this.#text(value, undefined);
  }

  #text(value: string, key: string | undefined): string {
    const whole = this.#ids.get(value);
    if (whole !== undefined && (key === undefined || ID_KEYS.has(key) || isIdShaped(value))) {
      return whole;
    }
    let out = value.replace(UUID, (m) => this.#ids.get(m) ?? m)
      .replace(API_ID, (m) => this.#ids.get(m) ?? m)
      .replace(ISO_TIME, "<time>")
      .replace(SOCKET, "<socket>")
      .replace(TEXT_MS, "<n> ms")
      .replace(TEXT_DURATION, "duration_ms: <n>")
      .replace(RETIRED_TENSE, "<was|will be> retired on")
      .replace(GATEWAY, "<gateway>");
    for (const [path, name] of this.#paths) {
      if (out.includes(path)) out = out.split(path).join(name);
    }
    // ids that appear inside text (an agent id in the hand-back note)
    if (out.length < 100_000) {
      for (const [raw, named] of this.#ids) {
        if (raw.length >= 8 && !isIdShaped(raw) && out.includes(raw)) {
          out = out.split(raw).join(named);
        }
      }
    }
    return out;
  }
}

/** A generated id rather than a name: 8+ id characters with at least one digit. */
function looksRandom(value: string): boolean {
  return isIdShaped(value) || /^(?=.*\d)[A-Za-z0-9_-]{8,}$/.test(value);
}

function isIdShaped(value: string): boolean {
  return /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(msg|toolu|srvtoolu|req)_[0-9A-Za-z]+)$/
    .test(value);
}

function kindOfId(value: string, key: string): string {
  if (/^[0-9a-f]{8}-/.test(value)) return "uuid";
  const api = /^(msg|toolu|srvtoolu|req)_/.exec(value);
  if (api) return api[1];
  if (key === "request_id") return "rid";
  if (/agent|task/i.test(key)) return "agent";
  return "id";
}
