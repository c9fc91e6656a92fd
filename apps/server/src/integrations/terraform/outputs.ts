import { splitRootOutputName } from './root-module.js';
import type { TerraformOutput } from './terraform-runner.js';

/** Groups root outputs (`<resource>__<output>`) by resource: `{ web: { url: { value, sensitive } } }`. */
export function outputsByResource(outputs: Record<string, TerraformOutput>): Record<string, Record<string, TerraformOutput>> {
  const grouped: Record<string, Record<string, TerraformOutput>> = {};
  for (const [name, output] of Object.entries(outputs)) {
    const split = splitRootOutputName(name);
    if (!split) continue;
    (grouped[split.resource] ??= {})[split.output] = output;
  }
  return grouped;
}
