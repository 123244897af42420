/**
 * The plugins the mock reports in `system/init`, taken from what the real CLI 2.1.328
 * reported in the recordings.
 *
 * @module
 */

/** A plugin entry of `system/init`. */
export interface PluginEntry {
  /** The plugin name. */
  name: string;
  /** Where it was loaded from. */
  path: string;
  /** `name@marketplace`. */
  source?: string;
  /** Its version. */
  version?: string;
}

/** The plugins `system/init` lists. */
export const DEFAULT_PLUGINS: readonly PluginEntry[] = Object.freeze([
  { "name": "cc-plugin-agents-md", "path": "builtin", "source": "cc-plugin-agents-md@builtin" },
  { "name": "cc-plugin-privacy", "path": "builtin", "source": "cc-plugin-privacy@builtin" },
  {
    "name": "cc-plugin-plugin-authoring",
    "path": "builtin",
    "source": "cc-plugin-plugin-authoring@builtin",
  },
]);
