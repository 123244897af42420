/**
 * The predefined scenario `tool_with_permission`: a command the app must allow.
 *
 * @module
 */

import { any } from "../matcher.ts";
import type { Scenario } from "../scenario.ts";
import { ScenarioBuilder, type ScenarioOptions } from "../scenario_builder.ts";

/** The reply when the app denies the command. */
const DENIED = "Understood, I won't create out.txt.";

/**
 * `tool_with_permission`: every prompt (as recorded: "Create out.txt with touch.") gets a
 * Bash tool use, `touch out.txt` ("Create out.txt"), which the default permission mode asks
 * about: the app's `canUseTool` gets a `can_use_tool` request (with the real CLI's
 * suggestions and `blocked_path: <cwd>/out.txt`). Allowed, the command runs
 * ("(Bash completed with no output)") and the reply is `Done.`; denied, the tool result is
 * the app's message, the result lists the denial in `permission_denials`, and the reply is
 * `Understood, I won't create out.txt.`. In
 * `bypassPermissions` mode, or with `allowedTools: ["Bash"]`, nothing is asked, as for
 * real. The command is relative, so any working directory works (the fake binary's live
 * mode really creates the file). `options` override the scenario's own.
 *
 * @example The tool use of the first message
 * ```ts
 * import { toolWithPermission } from "./tool_with_permission.ts";
 * const scenario = toolWithPermission();
 * console.log(scenario.exchanges[0].trigger.kind); // any
 * ```
 */
export function toolWithPermission(options: ScenarioOptions = {}): Scenario {
  return new ScenarioBuilder({ name: "tool_with_permission", ...options })
    .on(any()).repeat()
    .usesBash("touch out.txt", { description: "Create out.txt", ifDenied: DENIED })
    .respond("Done.")
    .build();
}
