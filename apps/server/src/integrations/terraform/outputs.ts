import { splitRootOutputName } from './root-module.js';
import type { TerraformOutput } from './terraform-runner.js';

/**
 * Groups root outputs (`<resource>__<output>`) by resource: `{ web: { url: { value, sensitive } } }`.
 *
 * Terraform leaves root outputs untouched by a targeted destroy (`destroy({ targets })`), so the
 * state still holds the outputs of a resource undeployed that way until the next full apply. Pass
 * `state` (from `stateList()`) to keep only resources that still have instances in the state.
 */
export function outputsByResource(outputs: Record<string, TerraformOutput>, opts: { state?: string[] } = {}): Record<string, Record<string, TerraformOutput>> {
  const grouped: Record<string, Record<string, TerraformOutput>> = {};
  const deployed = opts.state && new Set(opts.state.map((a) => /^module\.([^.[]+)/.exec(a)?.[1]).filter(Boolean));
  for (const [name, output] of Object.entries(outputs)) {
    const split = splitRootOutputName(name);
    if (!split || (deployed && !deployed.has(split.resource))) continue;
    (grouped[split.resource] ??= {})[split.output] = output;
  }
  return grouped;
}
