/**
 * `PermissionSuggestion`: a permission update the CLI suggests when it asks for permission.
 *
 * @module
 */

import type { PermissionMode } from "./system.ts";

/** A permission update the CLI suggests in `can_use_tool` (the SDK's `PermissionUpdate`). */
export type PermissionSuggestion =
  | {
    type: "addRules" | "replaceRules" | "removeRules";
    rules: Array<{ toolName: string; ruleContent?: string }>;
    behavior: "allow" | "deny" | "ask";
    destination: "userSettings" | "projectSettings" | "localSettings" | "session" | "cliArg";
  }
  | {
    type: "addDirectories" | "removeDirectories";
    directories: string[];
    destination: "userSettings" | "projectSettings" | "localSettings" | "session" | "cliArg";
  }
  | {
    type: "setMode";
    mode: PermissionMode;
    destination: "userSettings" | "projectSettings" | "localSettings" | "session" | "cliArg";
  };
