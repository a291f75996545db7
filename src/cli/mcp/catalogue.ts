/**
 * The server's catalogue, read once at start: for each document (its project's tool.config.yaml
 * and the server's flags applied, as `arazzo test` plans a document), the workflows listed as
 * tools, with their schemas, annotations and the run options a call starts from; and the
 * workflows left out, with why. An invalid or unreadable document is logged and left out.
 */
import { documentRunOptions } from '../document-run-options.js';
import type { LoadedDocument, Workflow } from '../../arazzo/model.js';
import { DEFAULT_PROFILE } from '../../arazzo/runner-profile.js';
import { formatFinding } from '../../arazzo/format-finding.js';
import { ToolError } from '../../errors/tool-error.js';
import { createPipeline } from '../../http/create-pipeline.js';
import { allOperations } from '../../openapi/all-operations.js';
import { printableLine, stripControls } from '../../output/printable.js';
import { isSecretName } from '../../output/redact.js';
import { styleFor } from '../../output/style.js';
import { isOpenApiSource, type BoundSource } from '../../plan/bind-sources.js';
import { documentDescriptionLoader, type DescriptionLoader } from '../../plan/description-loader.js';
import { prepareDocument } from '../../plan/prepare-document.js';
import type { RunOptions } from '../../run/run-workflow.js';
import type { ProjectSettings } from '../project-settings.js';
import { workflowMatcher } from '../suite/plan-suite.js';
import type { SharedRunFlags } from '../workflow-options.js';
import type { McpLog } from './log.js';
import { readsOnly, workflowSends, type WorkflowSends } from './step-methods.js';
import { toolNames } from './tool-names.js';
import { declaredInputs, inputSchemaOf, outputSchemaOf } from './tool-schemas.js';

/** The flags of `tool mcp serve` that shape the catalogue and each call's run. */
export interface CatalogueFlags {
  shared: Omit<SharedRunFlags, 'workflow'>;
  workflow: string | undefined;
  retry: string | undefined;
  timeout: string | undefined;
  allowWrites: boolean;
  allowSecretInputs: boolean;
}

/** A workflow listed as a tool. */
export interface McpTool {
  name: string;
  file: string;
  workflowId: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  readOnly: boolean;
  sends: WorkflowSends;
  /** The run a call starts from: the workflow selected, the inputs the server gives (--input-env, --inputs-file). */
  options: RunOptions;
  /** The inputs the workflow declares (empty: it declares none, and takes any). */
  declared: ReadonlySet<string>;
  /** Declared inputs the client may not give: those the server gives, and secret-named ones without --allow-secret-inputs. */
  refused: ReadonlyMap<string, string>;
  /** --allow-secret-inputs: the client may give secret-named inputs (without it, it may give none, declared or not). */
  secretsFromClient: boolean;
  doc: LoadedDocument;
  workflow: Workflow;
}

/** A document the server read. */
export interface McpDocument {
  file: string;
  absolutePath: string;
  text: string;
}

export interface Catalogue {
  tools: McpTool[];
  documents: McpDocument[];
}

/** A workflow that was read and may be listed. */
type Candidate = Omit<McpTool, 'name'> & { workflowId: string };

/**
 * Reads the documents and lists their workflows. Throws ToolError for a bad flag or project
 * setting (a usage error) and when `--workflow` selects no workflow of any document.
 */
export async function readCatalogue(files: readonly string[], flags: CatalogueFlags, context: { env: Record<string, string | undefined>; cwd: string }, log: McpLog): Promise<Catalogue> {
  const settingsRead = new Map<string, Promise<ProjectSettings>>();
  const selects = workflowMatcher(flags.workflow);
  const candidates: Candidate[] = [];
  const documents: McpDocument[] = [];
  let selected = 0;
  for (const file of files) {
    const options = await documentRunOptions(file, flags, context, settingsRead);
    const read = await readDocument(file, options, context, log);
    if (read === undefined) continue;
    documents.push({ file, absolutePath: read.doc.absolutePath, text: read.doc.text ?? '' });
    for (const workflow of read.doc.model.workflows) {
      if (workflow.workflowId === undefined || !selects(workflow.workflowId)) continue;
      selected++;
      const candidate = candidateFor(file, read.doc, workflow, read.sources, options, flags, log);
      if (candidate) candidates.push(candidate);
    }
  }
  if (flags.workflow !== undefined && selected === 0) {
    throw new ToolError('USAGE', `--workflow ${JSON.stringify(flags.workflow)} selects no workflow of the ${files.length} document${files.length === 1 ? '' : 's'}`, 'Give a workflowId, or a glob of them (* and ?).');
  }
  const names = toolNames(candidates);
  return { tools: candidates.map((candidate, i) => ({ ...candidate, name: names[i]! })), documents };
}

/**
 * The document, validated as a run validates it (its descriptions read through the pipeline), and
 * its OpenAPI sources with the descriptions that could be read; undefined (logged) when it cannot
 * be read or is invalid.
 */
async function readDocument(file: string, options: RunOptions, context: { env: Record<string, string | undefined>; cwd: string }, log: McpLog): Promise<{ doc: LoadedDocument; sources: BoundSource[] } | undefined> {
  const pipeline = createPipeline({ timeoutMs: options.timeoutMs, retry: options.retry });
  const style = styleFor(false);
  try {
    let loader: DescriptionLoader | undefined;
    const prepared = await prepareDocument({
      file,
      cwd: context.cwd,
      env: context.env,
      profile: options.profile ?? DEFAULT_PROFILE,
      runnerFrom: options.runnerFrom,
      descriptions: (doc) => {
        const loadDescription = (loader = documentDescriptionLoader(pipeline, doc, options, context, (message) => log.warn(message)));
        return {
          loadDescription,
          loadOperations: async (url: string) => (await loadDescription(url).catch(() => undefined))?.operations,
          loadPathOperations: async (url: string) => allOperations(await loadDescription(url)),
        };
      },
      findings: (findings, doc) => {
        const errors = findings.filter((finding) => finding.severity === 'error');
        for (const finding of findings) (finding.severity === 'error' ? log.warn : log.debug)(formatFinding(finding, doc.file, style));
        if (errors.length > 0) log.warn(`${doc.file} is invalid (${errors.length} error${errors.length === 1 ? '' : 's'}): none of its workflows is listed`);
        return errors.length === 0;
      },
      ...(options.silence ? { silence: options.silence } : {}),
      upTo: 'findings',
    });
    if (!prepared.valid) return undefined;
    const sources: BoundSource[] = [];
    for (const source of prepared.doc.model.sourceDescriptions) {
      if (!isOpenApiSource(source) || source.name === undefined || source.url === undefined || loader === undefined) continue;
      const description = await loader(source.url).catch((error: Error) => log.warn(`${file}: source "${source.name}": ${error.message}`));
      if (description) sources.push({ name: source.name, url: source.url, description, reason: 'synthetic' });
    }
    return { doc: prepared.doc, sources };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    log.warn(`${file}: ${error.message}; none of its workflows is listed`);
    return undefined;
  } finally {
    pipeline.close();
  }
}

/** Why the client may not give a secret-named input. */
export const SECRET_REFUSED = 'it is secret-named, and the server takes secrets only from its own --input-env (or --allow-secret-inputs)';

/** The workflow as a tool, or undefined (logged) when it is not listed: it writes without --allow-writes, or needs a secret the client may not give. */
function candidateFor(file: string, doc: LoadedDocument, workflow: Workflow, sources: BoundSource[], options: RunOptions, flags: CatalogueFlags, log: McpLog): Candidate | undefined {
  const workflowId = workflow.workflowId!;
  const sends = workflowSends(doc.model, workflow, sources);
  const readOnly = readsOnly(sends);
  if (!readOnly && !flags.allowWrites) {
    const what = [...sends.requests.filter((request) => !/^(GET|HEAD|OPTIONS) /.test(request)), ...sends.unknown];
    log.info(`${file}: workflow "${workflowId}" is not listed: it may write (${what.join('; ')}); pass --allow-writes to list it`);
    return undefined;
  }
  const declared = new Set(declaredInputs(workflow, doc.model));
  // As `arazzo test` gives them: a workflow that declares its inputs gets those it declares, one that declares none gets them all.
  const given = declared.size === 0 ? { ...options.inputs } : Object.fromEntries(Object.entries(options.inputs).filter(([name]) => declared.has(name)));
  const refused = new Map<string, string>();
  for (const name of Object.keys(given)) refused.set(name, 'the server gives it');
  if (!flags.allowSecretInputs) for (const name of declared) if (!refused.has(name) && isSecretName(name)) refused.set(name, SECRET_REFUSED);
  const schema = inputSchemaOf(workflow, doc.model, new Set(refused.keys()));
  const missingSecret = requiredOfSchema(workflow, doc, declared).filter((name) => refused.has(name) && !Object.hasOwn(given, name));
  if (missingSecret.length > 0) {
    log.warn(`${file}: workflow "${workflowId}" is not listed: it requires the secret-named input${missingSecret.length === 1 ? '' : 's'} ${missingSecret.map((name) => `"${name}"`).join(', ')}; give ${missingSecret.length === 1 ? 'it' : 'them'} from the environment with --input-env, or pass --allow-secret-inputs`);
    return undefined;
  }
  const candidate: Candidate = {
    file,
    workflowId,
    description: describe(workflow, file, sends),
    inputSchema: schema,
    outputSchema: outputSchemaOf(workflow),
    readOnly,
    sends,
    options: { ...options, workflowId, inputs: given, stringInputs: (options.stringInputs ?? []).filter((name) => Object.hasOwn(given, name)) },
    declared,
    refused,
    secretsFromClient: flags.allowSecretInputs,
    doc,
    workflow,
  };
  delete candidate.options.retypeInputs;
  const title = typeof workflow.summary === 'string' ? printableLine(workflow.summary) : undefined;
  if (title) candidate.title = title;
  return candidate;
}

function requiredOfSchema(workflow: Workflow, doc: LoadedDocument, declared: ReadonlySet<string>): string[] {
  const required = inputSchemaOf(workflow, doc.model, new Set()).required;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string' && declared.has(name)) : [];
}

/** The tool's description: the workflow's summary and description, then what it runs and sends. */
function describe(workflow: Workflow, file: string, sends: WorkflowSends): string {
  // The document's text, as every text of the server: no escape sequences or control characters.
  const parts = [workflow.summary, workflow.description].map((text) => (typeof text === 'string' ? stripControls(text).trim() : undefined)).filter((text): text is string => !!text);
  const requests = sends.requests.length > 0 ? ` It sends ${sends.requests.join(', ')}.` : '';
  parts.push(printableLine(`Runs Arazzo workflow "${workflow.workflowId}" of ${file}.${requests}`));
  return parts.join('\n\n');
}
