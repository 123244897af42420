// The type closure of an entry point: for `deno doc --json` of one entry on its own, which
// exported types each exported value's signatures reach (directly or through other types).
// `deno doc --lint` of an entry on its own fails unless every type so reached is exported there
// too, so the closure is the least an entry point's surface can be for the values it holds.

/** One exported symbol of `deno doc --json`, as far as the closure needs it. */
export interface DocSymbol {
  name: string;
  declarations: readonly { kind: string }[];
}

/** What an entry point's surface is made of. */
export interface SurfaceClosure {
  /** The exported values (functions, classes, constants), sorted. */
  values: string[];
  /** The exported types, sorted. */
  types: string[];
  /** The types the values' signatures reach, sorted: those `deno doc --lint` forces. */
  forced: string[];
  /** Per value, how many exported types its signatures reach. */
  reach: Map<string, number>;
}

const VALUE_KINDS = new Set(["function", "class", "variable", "enum"]);

/** The exported names a declaration's signatures name (not its JSDoc). */
function referenced(node: unknown, names: ReadonlySet<string>, into: Set<string>): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) referenced(item, names, into);
  } else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "jsDoc") continue;
      if ((key === "typeName" || key === "expr") && typeof value === "string") {
        const name = value.split(".")[0];
        if (names.has(name)) into.add(name);
      }
      referenced(value, names, into);
    }
  }
  return into;
}

/** The closure of one entry point's exported symbols. */
export function surfaceClosure(symbols: readonly DocSymbol[]): SurfaceClosure {
  const names = new Set(symbols.map((s) => s.name));
  const direct = new Map<string, Set<string>>();
  for (const symbol of symbols) {
    const refs = direct.get(symbol.name) ?? new Set<string>();
    referenced(symbol.declarations, names, refs);
    refs.delete(symbol.name);
    direct.set(symbol.name, refs);
  }
  const reachOf = (start: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      for (const next of direct.get(stack.pop()!) ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    return seen;
  };
  const isValue = (s: DocSymbol) => s.declarations.some((d) => VALUE_KINDS.has(d.kind));
  const values = [...new Set(symbols.filter(isValue).map((s) => s.name))].sort();
  const types = [...names].filter((n) => !values.includes(n)).sort();
  const forced = new Set<string>();
  const reach = new Map<string, number>();
  for (const value of values) {
    const reached = reachOf(value);
    reach.set(value, [...reached].filter((n) => !values.includes(n)).length);
    for (const name of reached) if (!values.includes(name)) forced.add(name);
  }
  return { values, types, forced: [...forced].sort(), reach };
}
