/**
 * The machine config actually executed, as JSON for the Stately visualizer (paste it into
 * `createMachine(...)`). `machine.config` is used rather than `machine.toJSON()`, which drops
 * `always` transitions; functions (the context factory, invoke inputs) drop out of JSON.
 */
export function toStatelyJson(machine: { config: object }): string {
  return `${JSON.stringify(machine.config, null, 2)}\n`;
}
