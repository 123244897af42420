/**
 * Where a Messages API request stands in a conversation, read from its body alone: which
 * conversation it belongs to (the main session, a subagent, the CLI's compaction call), the
 * prompt that started the turn, how many replies of this turn it already carries, and the
 * tool results the CLI sends back. Internal.
 *
 * @internal
 * @module
 */

/** What kind of call a request is. */
export type CallKind = "conversation" | "subagent" | "compaction" | "title";

/** A tool result the CLI sent back. */
export interface SentToolResult {
  /** Whether the CLI marked it as an error. */
  isError: boolean;
  /** Its content as sent. */
  content: unknown;
}

/** A request located in its conversation. */
export interface LocatedRequest {
  /** What kind of call. */
  kind: CallKind;
  /** The text of the prompt that started the turn (its text blocks joined with newlines). */
  prompt: string;
  /** How many prompts the conversation holds up to this one (1 for the first). */
  ordinal: number;
  /** The assistant messages after the prompt: the replies this turn already got. */
  replies: readonly unknown[][];
  /** The tool results after the prompt, by tool use id. */
  toolResults: ReadonlyMap<string, SentToolResult>;
  /** Whether the CLI asked for a stream. */
  stream: boolean;
  /** The model the CLI asked for. */
  model: string | undefined;
  /** The compaction call's key (the conversation it summarises), for compaction calls. */
  compactionKey?: string;
}

type Block = { type?: unknown; text?: unknown; [key: string]: unknown };
type Message = { role?: unknown; content?: unknown };

/**
 * The CLI's interrupt marker (2.1.328 to 2.1.332 end it with a newline):
 * `[Request interrupted by user]\n`, `[Request interrupted by user for tool use]\n`.
 */
const INTERRUPT_MARKER = /^\[Request interrupted by user( for tool use)?\]\s*$/;

/**
 * Texts the CLI adds as user messages that are not the user's prompt: reminders, the
 * interrupt marker, command output, and the turn's own continuations (the structured-output
 * enforcement, a blocking Stop hook's feedback), which go on the same turn.
 */
const NOT_PROMPTS = [
  /^\s*<system-reminder>/,
  INTERRUPT_MARKER,
  /^\[structured-output-enforce\]/,
  /^Stop hook feedback:/,
  /^<local-command-(stdout|stderr|caveat)>/,
  /^<command-(name|message|args)>/,
];

/** Whether the system prompt marks a subagent's call (`cc_is_subagent=true` in its billing block). */
function isSubagentCall(body: Record<string, unknown>): boolean {
  return systemText(body).includes("cc_is_subagent=true");
}

/** The system prompt as one text. */
function systemText(body: Record<string, unknown>): string {
  const system = body.system;
  if (typeof system === "string") return system;
  if (!Array.isArray(system)) return "";
  return system.map((b) => (typeof b?.text === "string" ? b.text : "")).join("\n");
}

/** The blocks of a message's content (a string is one text block). */
export function blocksOf(message: Message | undefined): Block[] {
  const content = message?.content;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter((b) => b && typeof b === "object") : [];
}

/** The user's own text in a user message: its text blocks that the CLI did not add. */
export function promptOf(message: Message): string | undefined {
  if (message.role !== "user") return undefined;
  let blocks = blocksOf(message);
  if (blocks.some((b) => b.type === "tool_result")) {
    // the prompt after an interrupted tool use comes in the same user message as the tool's
    // result and the interrupt marker, after them (2.1.328 to 2.1.332)
    const marker = blocks.findIndex((b) =>
      b.type === "text" && typeof b.text === "string" && INTERRUPT_MARKER.test(b.text)
    );
    if (marker < 0) return undefined;
    blocks = blocks.slice(marker + 1);
  }
  const texts = blocks
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .filter((t) => !NOT_PROMPTS.some((re) => re.test(t)));
  return texts.length > 0 ? texts.join("\n") : undefined;
}

/**
 * Whether a request is the CLI's session title call (sent unless non-essential traffic is
 * off): no tools, an output format whose schema asks for a `title`, the session's first prompt
 * inside `<session>` tags.
 */
function isTitleRequest(body: Record<string, unknown>): boolean {
  const format =
    (body.output_config as { format?: { schema?: { properties?: unknown } } } | undefined)
      ?.format;
  const properties = format?.schema?.properties as Record<string, unknown> | undefined;
  const tools = Array.isArray(body.tools) ? body.tools.length : 0;
  return tools === 0 && properties !== undefined && "title" in properties;
}

/** Whether a user message is the CLI's request for a conversation summary (`/compact`). */
function isCompactionPrompt(message: Message | undefined): boolean {
  if (message?.role !== "user") return false;
  const text = blocksOf(message).map((b) => (typeof b.text === "string" ? b.text : "")).join(
    "\n",
  );
  return /Respond with TEXT ONLY/.test(text) && /<summary>/.test(text);
}

/**
 * Locates a `/v1/messages` request body; `undefined` when it carries no user prompt at all
 * (then no scenario turn can answer it).
 */
export function locateRequest(body: Record<string, unknown>): LocatedRequest | undefined {
  const messages = (Array.isArray(body.messages) ? body.messages : []).filter(
    (m): m is Message => m !== null && typeof m === "object",
  );
  const stream = body.stream === true;
  const model = typeof body.model === "string" ? body.model : undefined;
  const last = messages.at(-1);
  if (isTitleRequest(body)) {
    const text = blocksOf(last).map((b) => (typeof b.text === "string" ? b.text : "")).join("\n");
    return {
      kind: "title",
      prompt: /<session>\n?([\s\S]*?)\n?<\/session>/.exec(text)?.[1] ?? text,
      ordinal: 0,
      replies: [],
      toolResults: new Map(),
      stream,
      model,
    };
  }
  if (isCompactionPrompt(last)) {
    const before = messages.slice(0, -1);
    return {
      kind: "compaction",
      prompt: "",
      ordinal: 0,
      replies: [],
      toolResults: new Map(),
      stream,
      model,
      compactionKey: `${before.length}:${fingerprint(JSON.stringify(stripCache(before)))}`,
    };
  }
  let promptIndex = -1;
  let ordinal = 0;
  let prompt = "";
  messages.forEach((message, i) => {
    const text = promptOf(message);
    if (text === undefined) return;
    promptIndex = i;
    ordinal++;
    prompt = text;
  });
  if (promptIndex < 0) return undefined;
  const replies: unknown[][] = [];
  const toolResults = new Map<string, SentToolResult>();
  for (const message of messages.slice(promptIndex + 1)) {
    if (message.role === "assistant") replies.push(blocksOf(message));
    else if (message.role === "user") {
      for (const block of blocksOf(message)) {
        if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
        toolResults.set(block.tool_use_id, {
          isError: block.is_error === true,
          content: block.content,
        });
      }
    }
  }
  return {
    kind: isSubagentCall(body) ? "subagent" : "conversation",
    prompt,
    ordinal,
    replies,
    toolResults,
    stream,
    model,
  };
}

/** The messages without `cache_control` markers (the CLI moves them between calls). */
function stripCache(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripCache);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key !== "cache_control") out[key] = stripCache(v);
  }
  return out;
}

/** A short hash of a text (FNV-1a, 32 bits, hex). */
function fingerprint(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}
