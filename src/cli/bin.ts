#!/usr/bin/env node
/**
 * The fake `claude` binary's entry for Node: the npm package's `bin` (`claude-mock`), run as
 * `node bin.js <claude flags>`. The same program as `deno run -A cli.ts`, through the runtime
 * seam (`_main.ts`); it needs no Deno.
 *
 * @module
 */

import { runMain } from "./_main.ts";

await runMain();
