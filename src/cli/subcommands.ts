/**
 * The fake binary's own subcommands (`record`, `drift`, `view`, `serve`, `conform`): the first argument picks
 * one; each loads only when used, so print mode's start-up does not pay for them.
 *
 * @module
 */

import type { CliIO } from "./cli_io.ts";

/** A subcommand: its arguments (after its name) and the process's I/O; resolves to the exit code. */
export type Subcommand = (argv: readonly string[], io: CliIO) => Promise<number>;

/** The subcommands by name, each loaded on first use. */
export const SUBCOMMANDS: Readonly<Record<string, () => Promise<Subcommand>>> = {
  conform: () => import("./conform_command.ts").then((m) => m.conformCommand),
  drift: () => import("./drift_command.ts").then((m) => m.driftCommand),
  record: () => import("./record_command.ts").then((m) => m.recordCommand),
  serve: () => import("./serve_command.ts").then((m) => m.serveCommand),
  view: () => import("./view_command.ts").then((m) => m.viewCommand),
};
