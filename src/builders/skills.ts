/**
 * The skills the mock reports in `system/init`, taken from what the real CLI 2.1.328
 * reported in the recordings.
 *
 * @module
 */

/** The skills `system/init` lists. */
export const DEFAULT_SKILLS: readonly string[] = Object.freeze([
  "deep-research",
  "dataviz",
  "update-config",
  "verify",
  "debug",
  "code-review",
  "simplify",
  "batch",
  "fewer-permission-prompts",
  "doctor",
  "loop",
  "claude-api",
  "workflow-authoring",
  "run",
  "run-skill-generator",
  "plugin-authoring",
]);
