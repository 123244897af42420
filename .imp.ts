import * as m from "./mod.ts"; if (!m) throw 1;
