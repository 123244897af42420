/**
 * The `drift` subcommand's type checker on Node: the project's own TypeScript (the
 * `typescript` package that the working directory resolves), run in this process on the
 * generated source as an in-memory ES module of the working directory, so the SDK's types
 * resolve from the project's `node_modules`. Internal.
 *
 * @module
 */

import type { TypeChecker, TypeDiagnostic } from "../cassette/drift.ts";

/** The part of TypeScript's compiler API the checker uses. */
interface Ts {
  version: string;
  ScriptTarget: { ES2022: number };
  ModuleKind: { NodeNext: number };
  ModuleResolutionKind: { NodeNext: number };
  createCompilerHost(options: object): CompilerHost;
  createSourceFile(name: string, text: string, target: number, setParents: boolean): object;
  createProgram(
    names: string[],
    options: object,
    host: CompilerHost,
  ): { getSemanticDiagnostics(file?: object): Diagnostic[]; getSourceFile(name: string): object };
  flattenDiagnosticMessageText(text: unknown, newLine: string): string;
}

interface CompilerHost {
  getSourceFile(name: string, target: number, ...rest: unknown[]): object | undefined;
  fileExists(name: string): boolean;
  readFile(name: string): string | undefined;
}

interface Diagnostic {
  file?: { fileName: string; getLineAndCharacterOfPosition(p: number): Position };
  start?: number;
  code: number;
  messageText: unknown;
}

interface Position {
  line: number;
  character: number;
}

/** The project's TypeScript, resolved from `cwd` (as its own code would), or `undefined`. */
export async function projectTypescript(cwd: string): Promise<Ts | undefined> {
  const { createRequire } = await import("node:module");
  const require = createRequire(`${cwd.replace(/\/+$/, "")}/package.json`);
  let path: string;
  try {
    path = require.resolve("typescript");
  } catch {
    return undefined;
  }
  const { pathToFileURL } = await import("node:url");
  const loaded = await import(pathToFileURL(path).href) as { default?: Ts } & Ts;
  return loaded.default ?? loaded;
}

/**
 * A {@linkcode TypeChecker} on TypeScript's compiler API: the diagnostics of the source (as
 * `<cwd>/__claude_mock_drift__.mts`, never written), with strict checks, Node's module
 * resolution and `skipLibCheck`.
 */
export function tscTypeChecker(ts: Ts, cwd: string): TypeChecker {
  const name = `${cwd.replace(/\/+$/, "")}/__claude_mock_drift__.mts`;
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  return (source) => {
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const readFile = host.readFile.bind(host);
    host.getSourceFile = (file, target, ...rest) =>
      file === name
        ? ts.createSourceFile(file, source, target, true)
        : getSourceFile(file, target, ...rest);
    host.fileExists = (file) => file === name || fileExists(file);
    host.readFile = (file) => (file === name ? source : readFile(file));
    const program = ts.createProgram([name], options, host);
    const found: TypeDiagnostic[] = program.getSemanticDiagnostics(program.getSourceFile(name))
      .map((d) => {
        const at = d.file && d.start !== undefined
          ? d.file.getLineAndCharacterOfPosition(d.start)
          : undefined;
        const ours = d.file?.fileName === name && at !== undefined;
        return {
          line: ours ? at.line + 1 : 0,
          column: ours ? at.character + 1 : 0,
          code: d.code,
          message: ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")
            .map((l) => l.trim()).filter((l) => l !== "").join("\n"),
        };
      });
    return Promise.resolve(found);
  };
}
