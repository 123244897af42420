/**
 * How the real CLI (2.1.328 to 2.1.332) takes `--settings` JSON with fields it cannot use. Some
 * problems make it skip an entry and keep the rest (a non-string item of a permission rule
 * list, `hooks` that is not an object, an unknown hook event, an event other than PreToolUse
 * and PermissionRequest that is not a list); others make the whole source not load, so that
 * none of it is in effect (a field of the wrong type, a permission mode it does not know,
 * PreToolUse or PermissionRequest hooks that are not a list). Either way the session runs; in
 * print mode's text output, stderr says which entries and why. Unknown keys are ignored.
 *
 * Checked fields (the settings schema's, in its order): `apiKeyHelper`, `cleanupPeriodDays`,
 * `env`, `includeCoAuthoredBy`, `permissions` (`allow`, `deny`, `ask`, `defaultMode`,
 * `additionalDirectories`), `model`, `hooks`. Internal.
 *
 * @module
 */

import type { CliVersionFacts } from "../builders/cli_versions.ts";
import { SDK_HOOK_EVENTS } from "../builders/hook_events.ts";

/** What the check of a `--settings` value found. */
export interface FlagSettingsCheck {
  /** The settings the session uses: cleaned of skipped entries, `undefined` when they did not load. */
  settings: string | undefined;
  /** Whether the settings did not load (`lines` are why), else entries were skipped. */
  failed: boolean;
  /** One line per problem (`  --settings (inline JSON) (<path>): <message>`); none when all is well. */
  lines: string[];
}

/** Where the lines say the settings came from. */
const SOURCE = "--settings (inline JSON)";

/** Hook events whose unusable entry keeps the whole source from loading. */
const GUARDING_EVENTS: ReadonlySet<string> = new Set(["PreToolUse", "PermissionRequest"]);

const GUARD_NOTE =
  " \u2014 a PreToolUse/PermissionRequest hook that cannot be loaded may be what " +
  "guards the permissions declared beside it, so nothing it sits in is applied until the entry " +
  "is fixed or removed.";

/** The permission modes `permissions.defaultMode` takes. */
const MODES = ["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The type name the CLI's messages give a value. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * Checks a `--settings` value as the real CLI does. A value that is not JSON text of an object
 * (a file path) is left as it is.
 *
 * @example A permission list that is not a list: the settings do not load
 * ```ts
 * import { checkFlagSettings } from "./flag_settings_check.ts";
 * const check = checkFlagSettings('{"permissions":{"allow":5}}');
 * console.log(check.settings, check.failed); // undefined true
 * console.log(check.lines[0]);
 * //   --settings (inline JSON) (permissions.allow): Expected array, but received number
 * ```
 *
 * @example A number among the rules: it is removed, the rest is in effect
 * ```ts
 * import { checkFlagSettings } from "./flag_settings_check.ts";
 * const check = checkFlagSettings('{"permissions":{"allow":[5,"Bash"]}}');
 * console.log(check.settings); // {"permissions":{"allow":["Bash"]}}
 * ```
 */
export function checkFlagSettings(text: string | undefined): FlagSettingsCheck {
  const ok = { settings: text, failed: false, lines: [] };
  if (text === undefined || !text.trim().startsWith("{")) return ok;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return ok;
  }
  if (!isObject(parsed)) return ok;
  const settings: Json = structuredClone(parsed);
  const skipped: string[] = [];
  const guards: string[] = [];
  const line = (path: string, message: string) => `  ${SOURCE} (${path}): ${message}`;
  // entries the CLI drops and goes on without
  const permissions = settings.permissions;
  if (isObject(permissions)) {
    for (const kind of ["allow", "deny", "ask"]) {
      const list = permissions[kind];
      if (!Array.isArray(list) || list.every((rule) => typeof rule === "string")) continue;
      permissions[kind] = list.filter((rule) => typeof rule === "string");
      skipped.push(line(`permissions.${kind}`, `Non-string value in ${kind} array was removed`));
    }
  }
  if (settings.hooks !== undefined && !isObject(settings.hooks)) {
    skipped.push(line(
      "hooks",
      `"hooks" must be an object mapping event names to matcher arrays; received ${
        kindOf(settings.hooks)
      }. This field was ignored.`,
    ));
    delete settings.hooks;
  } else if (isObject(settings.hooks)) {
    const hooks = settings.hooks;
    for (const [event, matchers] of Object.entries(hooks)) {
      if (!SDK_HOOK_EVENTS.includes(event)) {
        const message = `Unknown hook event "${event}" was ignored. Valid events: ${
          SDK_HOOK_EVENTS.join(", ")
        }`;
        skipped.push(line(`hooks.${event}`, message.slice(0, 500)));
        delete hooks[event];
      } else if (!Array.isArray(matchers)) {
        const said = `Hook event "${event}" must be an array of matchers; received ${
          kindOf(matchers)
        }`;
        if (GUARDING_EVENTS.has(event)) guards.push(line(`hooks.${event}`, said + GUARD_NOTE));
        else {
          skipped.push(line(`hooks.${event}`, `${said}. This entry was ignored.`));
          delete hooks[event];
        }
      }
    }
  }
  const issues = schemaIssues(settings).map(([path, message]) => line(path, message));
  if (guards.length + issues.length > 0) {
    return { settings: undefined, failed: true, lines: [...guards, ...issues] };
  }
  return {
    settings: skipped.length > 0 ? JSON.stringify(settings) : text,
    failed: false,
    lines: skipped,
  };
}

/** The settings schema's issues, in its order, as the CLI words them. */
function schemaIssues(settings: Json): [string, string][] {
  const issues: [string, string][] = [];
  const expect = (path: string, value: unknown, type: string, ok: boolean) => {
    if (value !== undefined && !ok) {
      issues.push([path, `Expected ${type}, but received ${kindOf(value)}`]);
    }
  };
  expect(
    "apiKeyHelper",
    settings.apiKeyHelper,
    "string",
    typeof settings.apiKeyHelper === "string",
  );
  expect(
    "cleanupPeriodDays",
    settings.cleanupPeriodDays,
    "number",
    typeof settings.cleanupPeriodDays === "number",
  );
  expect("env", settings.env, "record", isObject(settings.env));
  expect(
    "includeCoAuthoredBy",
    settings.includeCoAuthoredBy,
    "boolean",
    typeof settings.includeCoAuthoredBy === "boolean",
  );
  const permissions = settings.permissions;
  expect("permissions", permissions, "object", isObject(permissions));
  if (isObject(permissions)) {
    for (const kind of ["allow", "deny", "ask"]) {
      expect(`permissions.${kind}`, permissions[kind], "array", Array.isArray(permissions[kind]));
    }
    const mode = permissions.defaultMode;
    if (mode !== undefined && !MODES.includes(mode as string)) {
      issues.push([
        "permissions.defaultMode",
        `Invalid value. Expected one of: ${MODES.map((m) => JSON.stringify(m)).join(", ")}`,
      ]);
    }
    const dirs = permissions.additionalDirectories;
    expect("permissions.additionalDirectories", dirs, "array", Array.isArray(dirs));
  }
  expect("model", settings.model, "string", typeof settings.model === "string");
  if (isObject(settings.hooks)) {
    for (const [event, matchers] of Object.entries(settings.hooks)) {
      expect(`hooks.${event}`, matchers, "array", Array.isArray(matchers));
    }
  }
  return issues;
}

/**
 * What print mode's text output writes on stderr about the settings, or `undefined` when all
 * is well: the version's heading, the lines, its closing line.
 *
 * @example The settings did not load (2.1.332)
 * ```ts
 * import { checkFlagSettings, flagSettingsWarning } from "./flag_settings_check.ts";
 * import { cliVersionFacts } from "../builders/cli_versions.ts";
 * const check = checkFlagSettings('{"model":5}');
 * console.log(flagSettingsWarning(check, cliVersionFacts("2.1.332").facts)?.split("\n")[1]);
 * //   --settings (inline JSON) (model): Expected string, but received number
 * ```
 */
export function flagSettingsWarning(
  check: FlagSettingsCheck,
  facts: Pick<CliVersionFacts, "settingsWarning">,
): string | undefined {
  if (check.lines.length === 0) return undefined;
  const words = facts.settingsWarning;
  return [
    check.failed ? words.failed : words.skipped,
    ...check.lines,
    ...(words.footer !== undefined ? [words.footer] : []),
  ].join("\n") + "\n";
}
