/**
 * Renders a Graphviz dot text to SVG with Graphviz compiled to WebAssembly (@viz-js/viz): no
 * `dot` binary needed. The package (about 1 MB) is imported here, on first use, so only
 * `arazzo graph --format svg` loads it. Throws when Graphviz rejects the text.
 */
export async function renderSvg(dot: string): Promise<string> {
  const { instance } = await import('@viz-js/viz');
  const viz = await instance();
  return viz.renderString(dot, { format: 'svg', engine: 'dot' });
}
