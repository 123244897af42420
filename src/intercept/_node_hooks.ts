/**
 * Node's module customization hooks (`module.register`, Node 20.6+) that route the app's
 * `import` of the Agent SDK to a wrapper: `resolve` resolves the SDK as the importer would,
 * then answers with a URL that `load` turns into a small module re-exporting that SDK with
 * `query()`, `startup()` and `prewarm()` from `wrapClaudeSdk`. The SDK the app gets is the
 * copy it would have got; the wrapper imports it by URL, so the hooks never route it twice.
 * Runs on Node's hooks thread. Internal.
 *
 * @module
 */

import { ROUTED_SPECIFIERS } from "./_interception_state.ts";

/** The query parameter that marks a wrapper URL (its value: the real SDK's URL). */
const MARK = "claude-mock-sdk";

/** What `register()` passes to the hooks. */
export interface HooksData {
  /** The URL of `wrap_claude_sdk.js`, the wrapper's source of `wrapClaudeSdk`. */
  wrapModule: string;
}

interface ResolveContext {
  parentURL?: string;
  conditions?: string[];
  importAttributes?: Record<string, string>;
}
interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
  importAttributes?: Record<string, string>;
}
interface LoadResult {
  format: string;
  source?: string | ArrayBuffer | Uint8Array;
  shortCircuit?: boolean;
}

let wrapModule = "";

/** Receives {@linkcode HooksData}. */
export function initialize(data: HooksData): void {
  wrapModule = data.wrapModule;
}

/** Routes the SDK's specifiers to a wrapper URL carrying the real SDK's URL. */
export async function resolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: (specifier: string, context: ResolveContext) => Promise<ResolveResult>,
): Promise<ResolveResult> {
  if (!ROUTED_SPECIFIERS.includes(specifier)) return nextResolve(specifier, context);
  const real = await nextResolve(specifier, context);
  return { url: wrapperUrl(real.url), format: "module", shortCircuit: true };
}

/** Makes the wrapper module of a wrapper URL; everything else loads as it would. */
export function load(
  url: string,
  context: { format?: string | null },
  nextLoad: (url: string, context: { format?: string | null }) => Promise<LoadResult>,
): LoadResult | Promise<LoadResult> {
  const real = realUrl(url);
  if (real === undefined) return nextLoad(url, context);
  return { format: "module", source: wrapperSource(real, wrapModule), shortCircuit: true };
}

/** The wrapper's URL for the SDK at `real`: the wrap module's, marked. */
export function wrapperUrl(real: string): string {
  const url = new URL(wrapModule);
  url.searchParams.set(MARK, real);
  return url.href;
}

/** The real SDK's URL in a wrapper URL, else `undefined`. */
export function realUrl(url: string): string | undefined {
  if (!url.includes(`${MARK}=`)) return undefined;
  return new URL(url).searchParams.get(MARK) ?? undefined;
}

/** The wrapper module's source: the SDK at `real` with its process-starting calls wrapped. */
export function wrapperSource(real: string, wrap: string): string {
  const r = JSON.stringify(real);
  return [
    `import * as sdk from ${r};`,
    `import { wrapClaudeSdk } from ${JSON.stringify(wrap)};`,
    `export * from ${r};`,
    "const wrapped = wrapClaudeSdk(sdk);",
    "export const query = wrapped.query;",
    "export const startup = wrapped.startup;",
    "export const prewarm = wrapped.prewarm;",
    "",
  ].join("\n");
}
