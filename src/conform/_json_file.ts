/**
 * A JSON file the conformance runner reads (its exceptions, its known differences), or a
 * `TypeError` that names the file and why it could not be read.
 *
 * @module
 */

import { readText } from "../host/_fs.ts";

/** The parsed contents of `path`; `what` names it in the error (`the conformance exceptions`). */
export async function readJsonFile(path: string, what: string): Promise<unknown> {
  try {
    return JSON.parse(await readText(path));
  } catch (error) {
    throw new TypeError(`Cannot load ${what} ${path}: ${(error as Error).message}`);
  }
}
