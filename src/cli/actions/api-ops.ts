import { apiRegistry, requireApi } from '../../config/api-registry.js';
import { configPaths } from '../../config/paths.js';
import { ToolError } from '../../errors/tool-error.js';
import { createPipeline } from '../../http/create-pipeline.js';
import { printableLine } from '../../output/printable.js';
import { redactUrl } from '../../output/redact.js';
import { createDescriptionLoader } from '../../plan/description-loader.js';
import { parseRefHosts } from '../allow-ref-hosts.js';
import { formatOperationsTable, operationsToJson } from '../operations-table.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool api ops`. */
export interface ApiOpsOptions {
  name: string;
  output: 'table' | 'json';
  allowRefHosts: string[];
}

/** `tool api ops <name>`: reads the API's description and prints its operations; throws ToolError for an unknown API, one without a description, or an unreadable description. */
export async function apiOps(options: ApiOpsOptions, { context, style, note }: CommandIo): Promise<number> {
  const allowRefHosts = await parseRefHosts(options.allowRefHosts);
  const paths = configPaths(context.env);
  const api = requireApi(await apiRegistry(paths).read(), options.name);
  if (api.spec === undefined) {
    throw new ToolError('NO_SPEC', `API "${api.name}" has no description`, `Add one: tool api add ${api.name} ${api.baseUrl} --spec <file|url> --force`);
  }
  const pipeline = createPipeline();
  try {
    // `tool api add` stores an absolute path or a URL; a hand-edited relative path is taken from the registry's folder.
    // The user named this description (--spec), so it may live anywhere; its $refs stay in its folder.
    const load = createDescriptionLoader(pipeline, paths.apisFile, { env: context.env, explicitSources: true, allowRefHosts, sourceUrls: [api.spec], warn: (message) => note(`${style.yellow('warning:')} ${printableLine(message)}`) });
    const operations = [...(await load(api.spec)).operations.values()];
    if (options.output === 'json') {
      context.stdout.write(`${JSON.stringify(operationsToJson(operations), null, 2)}\n`);
    } else if (operations.length === 0) {
      note(`${printableLine(redactUrl(api.spec))} has no operations with an operationId.`);
    } else {
      context.stdout.write(formatOperationsTable(operations));
    }
    return 0;
  } finally {
    pipeline.close();
  }
}
