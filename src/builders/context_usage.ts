/**
 * The answer to the SDK's `get_context_usage` request (`query.getContextUsage()`), computed
 * from the session the way the real CLI computes it (recordings `v*_context_usage_*`,
 * `v*_control_more`): the conversation's messages counted at four characters a token per
 * block, the last API call's usage, the model's window, the autocompact buffer and the
 * grid of squares a UI draws. What the real CLI learns from the API's token counter (the
 * size of its own tools, system prompt and skills) is what it reported against the offline
 * API for its default tool set (`ctx.cli.facts.contextUsage`): it does not follow the tools.
 *
 * @module
 */

import type { BuildContext } from "./build_context.ts";
import type { ContextUsageBaseline } from "./cli_versions.ts";

/** What a session's conversation has cost in context so far, block by block. */
export interface ContextTallyInput {
  /** Tokens of the user's prompts. */
  userMessageTokens: number;
  /** Tokens of the assistant's text and thinking blocks. */
  assistantMessageTokens: number;
  /** Per tool name, in order of first use: its calls' and results' tokens. */
  tools: ReadonlyArray<{ name: string; callTokens: number; resultTokens: number }>;
}

/** What {@linkcode contextUsageAnswer} is computed from. */
export interface ContextUsageOptions {
  /** The conversation so far. */
  tally: ContextTallyInput;
  /** The last API call's usage (zeros before the first). */
  apiUsage?: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
  };
  /** Whether the session has the permission prompt tool (the SDK's `canUseTool`). */
  permissionPrompts?: boolean;
  /** The MCP tools: `mcp__server__tool` names, with whether each is always loaded. */
  mcpTools?: ReadonlyArray<{ name: string; serverName: string; isLoaded: boolean }>;
  /** The model's context window (default 1,000,000). */
  maxTokens?: number;
}

/** The built-in skills `get_context_usage` (and `/context`) list, with their tokens, as recorded. */
export const SKILL_FRONTMATTER: ReadonlyArray<{ name: string; tokens: number }> = [
  { name: "dataviz", tokens: 482 },
  { name: "update-config", tokens: 236 },
  { name: "keybindings-help", tokens: 83 },
  { name: "code-review", tokens: 283 },
  { name: "simplify", tokens: 63 },
  { name: "fewer-permission-prompts", tokens: 64 },
  { name: "loop", tokens: 115 },
  { name: "claude-api", tokens: 390 },
  { name: "workflow-authoring", tokens: 84 },
  { name: "run", tokens: 123 },
  { name: "plugin-authoring", tokens: 92 },
  { name: "init", tokens: 22 },
  { name: "security-review", tokens: 30 },
];

/** The attachments of the CLI's first message that are the same in every recording. */
const FIXED_ATTACHMENTS = {
  skill_listing: 1707,
  agent_listing_delta: 441,
  remote_session_change: 62,
  environment: 56,
  session_context: 10,
  date: 9,
};

/** The autocompact buffer the CLI keeps free (its `autocompact_buffer` category). */
const AUTOCOMPACT_BUFFER = 33_000;

/** Tokens of a text at four characters a token, as the real CLI counts a block. */
export function blockTokens(text: string): number {
  return Math.round(text.length / 4);
}

interface Category {
  id: string;
  name: string;
  tokens: number;
  color: string;
  isDeferred?: true;
  kind: "used" | "deferred" | "buffer" | "free";
}

interface Square {
  color: string;
  isFilled: true;
  categoryName: string;
  tokens: number;
  percentage: number;
  squareFullness: number;
}

const ROWS = 10;
const COLUMNS = 20;

/**
 * The body of a successful `get_context_usage` answer, with the real CLI's keys in order.
 *
 * @example The context of a session that said hello
 * ```ts
 * import { createBuildContext } from "@x/claude-mock/builders";
 * import { contextUsageAnswer } from "./context_usage.ts";
 * const ctx = createBuildContext({ seed: 1, cliVersion: "2.1.332" });
 * const usage = contextUsageAnswer(ctx, {
 *   tally: { userMessageTokens: 1, assistantMessageTokens: 8, tools: [] },
 * });
 * console.log(usage.totalTokens, usage.autoCompactThreshold); // 7734 967000
 * ```
 */
export function contextUsageAnswer(
  ctx: BuildContext,
  options: ContextUsageOptions,
): Record<string, unknown> {
  const maxTokens = options.maxTokens ?? 1_000_000;
  const baseline = options.permissionPrompts
    ? ctx.cli.facts.contextUsage.withPermissionPrompts
    : ctx.cli.facts.contextUsage.plain;
  const skillTokens = SKILL_FRONTMATTER.reduce((sum, s) => sum + s.tokens, 0);
  const { used, buffer, free, totalTokens } = categories(baseline, { maxTokens, skillTokens });
  const percent = (tokens: number) => Math.round((tokens / maxTokens) * 100);
  return {
    categories: [...used, buffer, free],
    totalTokens,
    maxTokens,
    rawMaxTokens: maxTokens,
    autocompactSource: "model-default",
    percentage: percent(totalTokens),
    gridRows: grid([...used.filter((c) => c.kind === "used"), free, buffer], maxTokens, percent),
    model: ctx.model,
    memoryFiles: [],
    mcpTools: (options.mcpTools ?? []).map((t) => ({
      name: t.name,
      serverName: t.serverName,
      tokens: 0,
      isLoaded: t.isLoaded,
    })),
    mcpInstructions: [],
    agents: [],
    slashCommands: { totalCommands: 13, includedCommands: 13, tokens: 472 },
    skills: {
      totalSkills: SKILL_FRONTMATTER.length,
      includedSkills: SKILL_FRONTMATTER.length,
      tokens: skillTokens,
      skillFrontmatter: SKILL_FRONTMATTER.map(({ name, tokens }) => ({
        name,
        source: "built-in",
        tokens,
      })),
    },
    autoCompactThreshold: maxTokens - AUTOCOMPACT_BUFFER,
    isAutoCompactEnabled: true,
    messageBreakdown: messageBreakdown(ctx, { baseline, tally: options.tally }),
    apiUsage: options.apiUsage ??
      {
        input_tokens: 0,
        output_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
  };
}

/** The window's categories: what the system and skills use, the autocompact buffer, the rest. */
function categories(
  baseline: ContextUsageBaseline,
  { maxTokens, skillTokens }: { maxTokens: number; skillTokens: number },
): { used: Category[]; buffer: Category; free: Category; totalTokens: number } {
  const used: Category[] = [
    {
      id: "system_tools",
      name: "System tools",
      tokens: baseline.systemTools,
      color: "inactive",
      kind: "used",
    },
    {
      id: "system_tools_deferred",
      name: "System tools (deferred)",
      tokens: baseline.systemToolsDeferred,
      color: "inactive",
      isDeferred: true,
      kind: "deferred",
    },
    { id: "skills", name: "Skills", tokens: skillTokens, color: "warning", kind: "used" },
  ];
  const totalTokens = used.reduce((sum, c) => sum + (c.kind === "used" ? c.tokens : 0), 0);
  const buffer: Category = {
    id: "autocompact_buffer",
    name: "Autocompact buffer",
    tokens: AUTOCOMPACT_BUFFER,
    color: "inactive",
    kind: "buffer",
  };
  const free: Category = {
    id: "free_space",
    name: "Free space",
    tokens: Math.max(0, maxTokens - totalTokens - AUTOCOMPACT_BUFFER),
    color: "promptBorder",
    kind: "free",
  };
  return { used, buffer, free, totalTokens };
}

/** What the messages hold: tool calls and results, attachments, the app's and model's text. */
function messageBreakdown(
  ctx: BuildContext,
  { baseline, tally }: { baseline: ContextUsageBaseline; tally: ContextUsageOptions["tally"] },
): Record<string, unknown> {
  const model = ctx.model.includes("sonnet") ? 64 : 62;
  const attachmentsByType = [
    { name: "prompt_snapshot", tokens: baseline.promptSnapshot },
    { name: "skill_listing", tokens: FIXED_ATTACHMENTS.skill_listing },
    { name: "agent_listing_delta", tokens: FIXED_ATTACHMENTS.agent_listing_delta },
    { name: "deferred_tools_delta", tokens: baseline.deferredToolsDelta },
    { name: "model", tokens: model },
    { name: "remote_session_change", tokens: FIXED_ATTACHMENTS.remote_session_change },
    { name: "environment", tokens: FIXED_ATTACHMENTS.environment },
    { name: "session_context", tokens: FIXED_ATTACHMENTS.session_context },
    { name: "date", tokens: FIXED_ATTACHMENTS.date },
  ];
  return {
    toolCallTokens: tally.tools.reduce((sum, t) => sum + t.callTokens, 0),
    toolResultTokens: tally.tools.reduce((sum, t) => sum + t.resultTokens, 0),
    attachmentTokens: attachmentsByType.reduce((sum, a) => sum + a.tokens, 0),
    assistantMessageTokens: tally.assistantMessageTokens,
    userMessageTokens: tally.userMessageTokens,
    redirectedContextTokens: 0,
    unattributedTokens: 0,
    toolCallsByType: tally.tools.map((t) => ({ ...t })),
    attachmentsByType,
  };
}

/**
 * The squares a UI draws, ROWS x COLUMNS of them, each a share of the window: each used
 * category takes as many squares as it rounds to (at least one, the last partly full), the
 * buffer likewise at the end, and the free space the squares between.
 */
function grid(
  categories: Category[],
  maxTokens: number,
  percent: (tokens: number) => number,
): Square[][] {
  const total = ROWS * COLUMNS;
  const squaresOf = (c: Category): Square[] => {
    const share = (c.tokens / maxTokens) * total;
    const count = Math.max(1, Math.round(share));
    return Array.from({ length: count }, (_, i) => ({
      color: c.color,
      isFilled: true as const,
      categoryName: c.name,
      tokens: c.tokens,
      percentage: percent(c.tokens),
      squareFullness: i < count - 1 ? 1 : Math.min(1, share - (count - 1)),
    }));
  };
  const free = categories.find((c) => c.kind === "free")!;
  const buffer = categories.find((c) => c.kind === "buffer")!;
  const used = categories.filter((c) => c.kind === "used").flatMap(squaresOf);
  const tail = squaresOf(buffer);
  const room = Math.max(0, total - used.length - tail.length);
  const freeSquares = Array.from({ length: room }, () => ({
    color: free.color,
    isFilled: true as const,
    categoryName: free.name,
    tokens: free.tokens,
    percentage: percent(free.tokens),
    squareFullness: 1,
  }));
  const squares = [...used, ...freeSquares, ...tail].slice(0, total);
  const rows: Square[][] = [];
  for (let r = 0; r < ROWS; r++) rows.push(squares.slice(r * COLUMNS, (r + 1) * COLUMNS));
  return rows;
}
