/**
 * The agents the mock reports (`initialize` answer, `system/init`), taken from what the
 * real CLI 2.1.328 reported in the recordings (descriptions shortened to their first
 * sentence).
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
    "description": "Catch-all for any task that doesn't fit a more specific agent.",
  },
  {
    "name": "Explore",
    "description": "Fast read-only search agent for locating code.",
    "model": "inherit",
  },
  {
    "name": "general-purpose",
    "description":
      "General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks.",
  },
  {
    "name": "Plan",
    "description": "Software architect agent for designing implementation plans.",
    "model": "inherit",
  },
  {
    "name": "statusline-setup",
    "description": "Use this agent to configure the user's Claude Code status line setting.",
    "model": "sonnet",
  },
]);
