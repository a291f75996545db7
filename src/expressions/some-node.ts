/**
 * Whether some node of a JSON-like value (the value itself, every array item, every own property
 * value, at any depth) passes `test`. Iterative, so a deep document cannot overflow the stack; a
 * node reached twice (YAML aliases share objects) is visited once. A `test` that collects and
 * returns false visits every node.
 */
export function someNode(root: unknown, test: (node: unknown) => boolean): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (test(node)) return true;
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) stack.push(node[i]);
    else for (const key in node) if (Object.hasOwn(node, key)) stack.push((node as Record<string, unknown>)[key]);
  }
  return false;
}
