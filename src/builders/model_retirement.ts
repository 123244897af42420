/**
 * The notices the real CLI writes to stderr in print mode's text output about the session's
 * model: a legacy id remapped to the latest Opus (`⚠ claude-opus-4-1 is automatically
 * remapped to Opus 5.5 …`), a model it retires (`⚠ Claude Opus 4.5 will be retired on
 * January 22, 2027. Consider switching to a newer model.`, or `was retired on` once the date
 * has passed on the session clock, from the CLI version's table
 * `ctx.cli.facts.modelRetirements`), or a model it does not know (`Claude Code doesn't
 * recognize the model …`).
 *
 * @module
 */

import type { BuildContext } from "./build_context.ts";
import { catalogModel, modelCatalogOf, modelKey, ONE_MILLION } from "./model_catalog.ts";

/** Where the CLI says how to set the window of a model it does not know. */
const WINDOW_DOCS =
  "https://code.claude.com/docs/en/model-config#correct-the-window-for-a-gateway-or-custom-model-id";

/**
 * The retirement notice for the session's model at `now` (milliseconds since the epoch, the
 * session clock's), with its newline; `undefined` when the CLI does not retire the model.
 * The model is looked up by its canonical id (`claude-3-7-sonnet-latest` is Claude 3.7 Sonnet).
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
  const catalog = modelCatalogOf(ctx.cli);
  const id = catalogModel(ctx.model, catalog)?.id ??
    ctx.model.trim().toLowerCase().replace(/-\d{8}$/, "");
  const retirement = Object.hasOwn(ctx.cli.facts.modelRetirements, id)
    ? ctx.cli.facts.modelRetirements[id]
    : undefined;
  if (!retirement) return undefined;
  const past = Date.parse(`${retirement.date} UTC`) < options.now;
  return `\u26a0 ${retirement.name} ${
    past ? "was retired on" : "will be retired on"
  } ${retirement.date}. Consider switching to a newer model.\n`;
}

/**
 * What the real CLI's text output writes to stderr about the session's model before the
 * turn, with its newline: that a legacy id was remapped to the latest Opus, that the model
 * is retired or will be ({@linkcode modelRetirementNotice}), or that the CLI does not know
 * it (and assumes a 1M window); `undefined` for a model it knows and keeps.
 *
 * @example A remapped legacy id, and a model the CLI does not know
 * ```ts
 * import { modelNotice } from "./model_retirement.ts";
 * import { createBuildContext } from "./build_context.ts";
 * const remapped = createBuildContext({ model: "claude-opus-5-5", requestedModel: "claude-opus-4-1" });
 * console.log(modelNotice(remapped, { now: 0 })?.trim());
 * // ⚠ claude-opus-4-1 is automatically remapped to Opus 5.5 (the latest Opus). Set CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP=1 to keep the requested model.
 * console.log(modelNotice(createBuildContext({ model: "my-model" }), { now: 0 })?.startsWith("Claude Code doesn't recognize")); // true
 * ```
 */
export function modelNotice(
  ctx: Pick<BuildContext, "model" | "cli" | "requestedModel">,
  options: { now: number },
): string | undefined {
  const catalog = modelCatalogOf(ctx.cli);
  const asked = ctx.requestedModel?.trim();
  if (
    asked !== undefined &&
    catalog.legacyRemaps.includes(modelKey(asked))
  ) {
    const target = catalog.models.find((m) => m.id === ctx.model);
    return `\u26a0 ${asked} is automatically remapped to ${
      target?.displayName ?? ctx.model
    } (${catalog.remapTarget.description}). Set CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP=1 to keep the requested model.\n`;
  }
  const retirement = modelRetirementNotice(ctx, options);
  if (retirement !== undefined) return retirement;
  // a model it knows, or one given its window (`[1m]`), needs no word; nor does an empty
  // `--model ""` (blanks, trimmed to "", are a model it does not know and get the word)
  if (
    catalogModel(ctx.model, catalog) !== undefined || ONE_MILLION.test(ctx.model) ||
    (ctx.model === "" && !ctx.requestedModel)
  ) {
    return undefined;
  }
  return `Claude Code doesn't recognize the model "${
    shownName(ctx.model)
  }", so it assumes a context window of 1m tokens. Update Claude Code, or see ${WINDOW_DOCS} to set the window.\n`;
}

/** A model name as the CLI shows one it was given: its safe characters, at most 128. */
function shownName(model: string): string {
  const kept = model.replace(/[^A-Za-z0-9._:/@[\]-]/g, "");
  if (kept.length === 0) return "(unrecognized model name)";
  return kept.length > 128 ? `${kept.slice(0, 128)}\u2026` : kept;
}
