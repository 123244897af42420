/**
 * The agents the mock reports (`initialize` answer, `system/init`), taken from what the
 * real CLI 2.1.328 reports in its `initialize` answer (full descriptions).
 *
 * @module
 */

/** An agent of the `initialize` answer (the SDK's `AgentInfo`). */
export interface AgentInfoEntry {
  /** The agent name. */
  name: string;
  /** What it is for. */
  description: string;
  /** Its model (`inherit`, `sonnet`, ...). */
  model?: string;
}

/** The agents the CLI reports. */
export const DEFAULT_AGENTS: readonly AgentInfoEntry[] = Object.freeze([
  {
    "name": "claude",
    "description":
      "Catch-all for any task that doesn't fit a more specific agent. FleetView's default when no agent name is typed.",
  },
  {
    "name": "Explore",
    "description":
      "Fast read-only search agent for locating code. Use it to find files by pattern (eg. " +
      '"src/components/**/*.tsx"), grep for symbols or keywords (eg. "API endpoints"), or answer ' +
      '"where is X defined / which files reference Y." Do NOT use it for code review, design-doc ' +
      "auditing, cross-file consistency checks, or open-ended analysis — it reads excerpts " +
      "rather than whole files and will miss content past its read window. When calling, specify " +
      'search breadth: "quick" for a single targeted lookup, "medium" for moderate exploration, ' +
      'or "very thorough" to search across multiple locations and naming conventions.',
    "model": "inherit",
  },
  {
    "name": "general-purpose",
    "description":
      "General-purpose agent for researching complex questions, searching for code, and " +
      "executing multi-step tasks. When you are searching for a keyword or file and are not " +
      "confident that you will find the right match in the first few tries use this agent to " +
      "perform the search for you.",
  },
  {
    "name": "Plan",
    "description":
      "Software architect agent for designing implementation plans. Use this when you need to " +
      "plan the implementation strategy for a task. Returns step-by-step plans, identifies " +
      "critical files, and considers architectural trade-offs.",
    "model": "inherit",
  },
  {
    "name": "statusline-setup",
    "description": "Use this agent to configure the user's Claude Code status line setting.",
    "model": "sonnet",
  },
]);
