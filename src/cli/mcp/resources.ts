/**
 * The server's resources: each document it read, as its text, and the chart of each listed
 * workflow as SVG (what `tool arazzo graph --format svg` prints, drawn on first read and kept).
 */
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { ToolError } from '../../errors/tool-error.js';
import { styleFor } from '../../output/style.js';
import type { ToolContext } from '../context.js';
import type { Catalogue } from './catalogue.js';
import { lineStream, type McpLog } from './log.js';

/** A resource as MCP lists it. */
export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
}

/** A resource's content as resources/read returns it. */
export interface ResourceText {
  uri: string;
  mimeType: string;
  text: string;
}

const GRAPH_PREFIX = 'tool://graph/';

/** The resources of the catalogue: the documents, then a chart per tool. */
export function listResources(catalogue: Catalogue): ListedResource[] {
  const documents = catalogue.documents.map((doc) => ({
    uri: pathToFileURL(doc.absolutePath).href,
    name: doc.file,
    description: 'Arazzo document the tools are read from',
    mimeType: /\.json$/i.test(doc.file) ? 'application/json' : 'application/yaml',
  }));
  const graphs = catalogue.tools.map((tool) => ({
    uri: `${GRAPH_PREFIX}${tool.name}.svg`,
    name: `${tool.name}.svg`,
    title: `Chart of workflow ${tool.workflowId}`,
    description: `The steps of workflow "${tool.workflowId}" (${tool.file}) and their actions, as tool arazzo graph --format svg draws them`,
    mimeType: 'image/svg+xml',
  }));
  return [...documents, ...graphs];
}

/** Reads resources (undefined for an unknown URI); a chart is drawn once, with the server's --tool-runner. */
export function resourceReader(catalogue: Catalogue, context: ToolContext, log: McpLog, runner: string | undefined): (uri: string) => Promise<ResourceText | undefined> {
  const charts = new Map<string, Promise<string>>();
  return async (uri) => {
    const doc = catalogue.documents.find((d) => pathToFileURL(d.absolutePath).href === uri);
    if (doc) return { uri, mimeType: /\.json$/i.test(doc.file) ? 'application/json' : 'application/yaml', text: doc.text };
    if (!uri.startsWith(GRAPH_PREFIX) || !uri.endsWith('.svg')) return undefined;
    const tool = catalogue.tools.find((t) => uri === `${GRAPH_PREFIX}${t.name}.svg`);
    if (!tool) return undefined;
    let chart = charts.get(tool.name);
    if (!chart) charts.set(tool.name, (chart = drawChart(tool.file, tool.workflowId, runner, context, log)));
    return { uri, mimeType: 'image/svg+xml', text: await chart };
  };
}

/** The SVG chart of a workflow, drawn by `arazzo graph`'s own action with its stdout captured. Throws ToolError when it cannot be drawn. */
async function drawChart(file: string, workflowId: string, runner: string | undefined, context: ToolContext, log: McpLog): Promise<string> {
  const { graph } = await import('../actions/graph.js');
  let svg = '';
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      svg += chunk.toString();
      done();
    },
  });
  const stderr = lineStream((line) => log.warn(line));
  const io = { context: { ...context, stdout, stderr }, style: styleFor(false), note: (line: string) => log.info(line) };
  const code = await graph({ file, workflow: workflowId, format: 'svg', level: 'steps', runner }, io);
  stderr.end();
  if (code !== 0) throw new ToolError('USAGE', `${file} is invalid: no chart of workflow "${workflowId}" was drawn`);
  return svg;
}
