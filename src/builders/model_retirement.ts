/**
 * The notice the real CLI writes to stderr in print mode's text output when the session's
 * model is one it retires: `⚠ Claude Opus 4.5 will be retired on January 22, 2027. Consider
 * switching to a newer model.` (or `was retired on` once the date has passed), from the
 * CLI version's table (`ctx.cli.facts.modelRetirements`).
 *
 * @module
 */

import type { BuildContext } from "./build_context.ts";

/**
 * The retirement notice for the session's model at `now` (milliseconds since the epoch, the
 * session clock's), with its newline; `undefined` when the CLI does not retire the model.
 *
 * @example A model 2.1.332 retires, before and after the date
 * ```ts
 * import { modelRetirementNotice } from "./model_retirement.ts";
 * import { createBuildContext } from "./build_context.ts";
 * const ctx = createBuildContext({ model: "claude-opus-4-5", cliVersion: "2.1.332" });
 * console.log(modelRetirementNotice(ctx, { now: Date.UTC(2026, 0, 1) })?.trim());
 * // prints: ⚠ Claude Opus 4.5 will be retired on January 22, 2027. Consider switching to a newer model.
 * console.log(modelRetirementNotice(ctx, { now: Date.UTC(2027, 5, 1) })?.includes("was retired")); // true
 * ```
 */
export function modelRetirementNotice(
  ctx: Pick<BuildContext, "model" | "cli">,
  options: { now: number },
): string | undefined {
  const id = ctx.model.trim().toLowerCase().replace(/-\d{8}$/, "");
  const retirement = Object.hasOwn(ctx.cli.facts.modelRetirements, id)
    ? ctx.cli.facts.modelRetirements[id]
    : undefined;
  if (!retirement) return undefined;
  const past = Date.parse(`${retirement.date} UTC`) < options.now;
  return `\u26a0 ${retirement.name} ${
    past ? "was retired on" : "will be retired on"
  } ${retirement.date}. Consider switching to a newer model.\n`;
}
