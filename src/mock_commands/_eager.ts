/**
 * The `__mock__` machinery, loaded at once: the library's entry points import this module, so a
 * command prompt is planned without loading anything first. The fake binary's bundle leaves it
 * out and loads the machinery on its first command prompt (`mock_commands.ts`). Internal.
 *
 * @module
 */

import { mockPlan } from "./_plan.ts";
import { provideMockPlan } from "./mock_commands.ts";

provideMockPlan(mockPlan);
