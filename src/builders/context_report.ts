/**
 * What the real CLI (2.1.328 to 2.1.332) answers to `/context` sent as a prompt, with no API
 * call of the conversation's (it asks the token counter): the context's categories and the
 * built-in skills as a markdown report, and the same as the synthetic message's
 * `context_usage` (recordings `conform/slash_context.*`).
 *
 * @module
 */

/** What the report is made of. */
export interface ContextReportOptions {
  /** The model. */
  model: string;
  /** The system prompt's tokens (`undefined`: none, as under the SDK's empty system prompt). */
  systemPrompt?: number;
  /** The tools' tokens. */
  systemTools: number;
  /** The deferred tools' tokens. */
  systemToolsDeferred: number;
  /** The skills listed, with their tokens. */
  skills: ReadonlyArray<{ name: string; tokens: number }>;
  /**
   * The conversation's tokens, the command's own message included; no `Messages` row when
   * `undefined` or 0 (as after the session's first API call).
   */
  messages?: number;
  /** The model's context window (default 1,000,000). */
  maxTokens?: number;
  /** The autocompact buffer (default 33,000). */
  autocompactBuffer?: number;
}

/** The report: its markdown (as printed, with its closing blank line) and `context_usage`. */
export interface ContextReport {
  /** The markdown. */
  text: string;
  /** The synthetic message's `context_usage`, keys in the real CLI's order. */
  usage: Record<string, unknown>;
}

/**
 * `/context`'s report.
 *
 * @example A fresh session's context
 * ```ts
 * import { contextReport } from "./context_report.ts";
 * const report = contextReport({
 *   model: "claude-opus-5-5",
 *   systemTools: 5513,
 *   systemToolsDeferred: 3994,
 *   skills: [{ name: "dataviz", tokens: 482 }],
 *   messages: 21,
 * });
 * console.log(report.text.split("\n")[3]); // **Tokens:** 5.5k / 1m (1%)
 * console.log(report.usage.total_tokens); // 5534
 * ```
 */
export function contextReport(options: ContextReportOptions): ContextReport {
  const max = options.maxTokens ?? 1_000_000;
  const bufferTokens = options.autocompactBuffer ?? 33_000;
  const skillTokens = options.skills.reduce((sum, s) => sum + s.tokens, 0);
  const used = [
    ...(options.systemPrompt !== undefined
      ? [{ name: "System prompt", tokens: options.systemPrompt, kind: "used" }]
      : []),
    { name: "System tools", tokens: options.systemTools, kind: "used" },
    { name: "System tools (deferred)", tokens: options.systemToolsDeferred, kind: "deferred" },
    { name: "Skills", tokens: skillTokens, kind: "used" },
    ...(options.messages ? [{ name: "Messages", tokens: options.messages, kind: "used" }] : []),
  ];
  const total = used.reduce((sum, c) => sum + (c.kind === "used" ? c.tokens : 0), 0);
  const buffer = { name: "Autocompact buffer", tokens: bufferTokens, kind: "buffer" };
  const free = {
    name: "Free space",
    tokens: Math.max(0, max - total - bufferTokens),
    kind: "free",
  };
  const share = (tokens: number) => `${((tokens / max) * 100).toFixed(1)}%`;
  const lines = [
    "## Context Usage",
    "",
    `**Model:** ${options.model}  `,
    `**Tokens:** ${count(total)} / ${count(max)} (${Math.round((total / max) * 100)}%)`,
    "",
    "### Estimated usage by category",
    "",
    "| Category | Tokens | Percentage |",
    "|----------|--------|------------|",
    ...[...used, free, buffer].map((c) =>
      `| ${c.name} | ${count(c.tokens)} | ${share(c.tokens)} |`
    ),
  ];
  if (options.skills.length > 0) {
    lines.push(
      "",
      "### Skills",
      "",
      "| Skill | Source | Tokens |",
      "|-------|--------|--------|",
      ...options.skills.map((s) => `| ${s.name} | Built-in | ~${approximate(s.tokens)} |`),
    );
  }
  return {
    text: `${lines.join("\n")}\n\n`,
    usage: {
      model: options.model,
      total_tokens: total,
      raw_max_tokens: max,
      percentage: Math.round((total / max) * 100),
      categories: [...used, buffer, free],
      mcp_tools: [],
      memory_files: [],
      agents: [],
      skills: options.skills.map((s) => ({ name: s.name, source: "built-in", tokens: s.tokens })),
    },
  };
}

/** Tokens as the report writes them: `21`, `5.5k`, `2k`, `957.4k`, `1m`. */
function count(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${trim((tokens / 1000).toFixed(1))}k`;
  return `${trim((tokens / 1_000_000).toFixed(1))}m`;
}

/** A skill's tokens to the nearest ten (`~480` for 482), or as {@linkcode count} from 1,000. */
function approximate(tokens: number): string {
  return tokens < 1000 ? String(Math.round(tokens / 10) * 10) : count(tokens);
}

function trim(fixed: string): string {
  return fixed.endsWith(".0") ? fixed.slice(0, -2) : fixed;
}
