/**
 * The Arazzo documents of a v2 run: the run's own, and the Arazzo sources (`type: arazzo`) that the
 * references of the workflows it prepares reach. A source is opened the first time such a
 * reference names it, never before: read by the rules of source descriptions
 * (source-document-reader.ts: confined local files, http(s) through the description fetch and
 * cache), parsed, validated for v2 (its findings printed; an error stops the run, exit 10), and its
 * own OpenAPI sources bound (`--tool-bind <arazzo-source>.<source>=<api>`, x-tool-api, a registered
 * API of the same name only when it was registered for that description, else synthetic; its
 * relative urls resolve against its own location). Each file is opened once per run, whatever names it.
 */
import { relative } from 'node:path';
import { locateFindings, type Finding } from '../arazzo/finding.js';
import type { RunnerProfile } from '../arazzo/runner-profile.js';
import type { LoadedDocument, SourceDescription, Workflow } from '../arazzo/model.js';
import { ArazzoLoadError } from '../arazzo/errors.js';
import { parseDocumentText } from '../arazzo/parse-document-text.js';
import { validateDocument } from '../arazzo/validate-document.js';
import { orderStepsByDependencies } from './step-order.js';
import { sourceWorkflow, unknownSourceWorkflowMessage, workflowReferences, type WorkflowReference } from '../arazzo/workflow-references.js';
import { ToolError } from '../errors/tool-error.js';
import type { TemplateWarning } from '../expressions/template-ast.js';
import { redactUrl, secretNames } from '../output/redact.js';
import { allOperations } from '../openapi/all-operations.js';
import { DescriptionError } from '../openapi/errors.js';
import { bindSources, type ApiLookup, type BoundSource } from './bind-sources.js';
import { criteriaOptionsFor, type CriteriaServices } from './criteria-options.js';
import { DescriptionUnavailableError, type DescriptionLoader } from './description-loader.js';
import type { CriteriaOptions } from './evaluate-criteria.js';
import { runnerFindings } from './gate-document.js';
import { sourceTarget } from './source-document-reader.js';
import { namedIdentity, selfIdentity } from './document-identity.js';
import { bindAsyncSources, type AsyncSource } from './async-sources.js';

/** A url with a scheme (`https:`, `file:`, `urn:`): one that can name a document by its `$self`. */
function isAbsoluteUrl(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url.trim());
}

/** One Arazzo document of the run. */
export interface RunDocument {
  /** What its workflows' keys start with: '' for the run's document, `<source>.` for a source's (`<source>.<inner>.` further down). */
  prefix: string;
  loaded: LoadedDocument;
  /** Absolute path or URL; its relative sources resolve against it. */
  location: string;
  /** Its OpenAPI sources, bound. */
  sources: BoundSource[];
  /** Arazzo 1.1: its AsyncAPI sources, read and bound (async-sources.ts). */
  asyncSources?: AsyncSource[];
  criteria: CriteriaOptions;
}

/** A workflow a reference names, with its key among the run's workflows and the document it belongs to. */
export interface ResolvedWorkflow {
  key: string;
  document: RunDocument;
  workflow: Workflow;
}

export interface RunDocuments {
  readonly root: RunDocument;
  /**
   * The workflows `workflow` (of `document`) names, by reference as written: its own document's
   * by id, and `$sourceDescriptions.<name>.<id>` in the Arazzo source `<name>`, which is opened
   * now if it is not yet. A reference the document's validation reported is left out. Rejects
   * with ArazzoSourceInvalidError (exit 10) for a source that is not a valid document or lacks the
   * workflow (its findings printed first), DescriptionUnavailableError (exit 2) for a source that
   * cannot be read, and the ArazzoLoadError of one that does not parse (exit 10).
   */
  references(document: RunDocument, workflow: Workflow): Promise<Map<string, ResolvedWorkflow>>;
  /** The OpenAPI sources of each Arazzo source opened so far, by its prefix (`child.`), for `--tool-bind child.<source>=<api>`. */
  openedSources(): ReadonlyMap<string, readonly string[]>;
  /** Prints the template warnings of a source's workflow (the run prints its own document's). */
  warnTemplates(document: RunDocument, warnings: readonly TemplateWarning[]): void;
}

export interface RunDocumentsDeps {
  loader: DescriptionLoader;
  registry: ApiLookup;
  /** --tool-bind: those with a `.` bind the sources of the Arazzo sources (`child.api=<api>`). */
  binds?: ReadonlyMap<string, string>;
  /** false: nothing will be sent (a replay): see BindScope.sends. */
  sends?: boolean;
  /** --tool-allow-ref-host: hosts a remote source's own sources may name besides its origin. */
  allowRefHosts: readonly string[];
  /** Local sources are named relative to it in messages. */
  cwd: string;
  warn(message: string): void;
  /** Prints findings of the document `file` (warnings too). */
  printFindings(findings: readonly Finding[], file: string): void;
  /** --verbose: shows how a source's own sources were bound. */
  bound?(sources: BoundSource[], file: string): void;
  /** The run's regex tester, for a source whose criteria test a regex (criteria-options.ts). */
  regex?: CriteriaServices['regex'];
}

/** Thrown when an Arazzo source the run reaches is invalid for the run's profile, or lacks a workflow a reference names; the findings are printed already. */
export class ArazzoSourceInvalidError extends ToolError {
  constructor(file: string, errors: number, profile: RunnerProfile, what = '') {
    super(
      'ARAZZO_SOURCE_INVALID',
      `${file}${what} is not a valid workflow document (${errors} ${errors === 1 ? 'error' : 'errors'}); nothing was sent`,
      // The 1.1 profile is chosen by the document itself: no flag names it.
      `Run \`tool arazzo validate ${file}${profile.featureSet === '1.1' ? '' : ` --tool-runner ${profile.name}`}\` for details.`,
    );
    this.name = 'ArazzoSourceInvalidError';
  }
}

/**
 * A fetched Arazzo source, whose text is never printed (as a fetched OpenAPI description's is not):
 * a parse error says where it is, not what the text holds, and a text that is not an Arazzo
 * document at all (an HTML page, an .env file, JSON of another kind) is refused before it is
 * validated, so that no finding quotes its keys. Throws ToolError ARAZZO_SOURCE_INVALID (exit 10).
 */
function parseFetchedDocument(text: string, file: string, location: string): LoadedDocument {
  const refuse = (what: string): never => {
    throw new ToolError('ARAZZO_SOURCE_INVALID', `${file}${what}; its text is not shown; nothing was sent`, 'Check the Arazzo source url: it should name an Arazzo document (arazzo: 1.0.x).');
  };
  let loaded: LoadedDocument;
  try {
    loaded = parseDocumentText(text, file, location);
  } catch (error) {
    if (!(error instanceof ArazzoLoadError)) throw error;
    return refuse(`${error.position ? `:${error.position.line}:${error.position.col}` : ''}: the fetched Arazzo source is not a valid YAML or JSON document`);
  }
  if (typeof (loaded.raw as Record<string, unknown>).arazzo !== 'string') refuse(': the fetched text is not an Arazzo document (it has no "arazzo" version)');
  return loaded;
}

/** The documents of a run of `root`; sources are opened as references reach them. */
export function createRunDocuments(root: RunDocument, deps: RunDocumentsDeps): RunDocuments {
  const byLocation = new Map<string, Promise<RunDocument>>([[root.location, Promise.resolve(root)]]);
  // Arazzo 1.1: the documents read so far by their `$self` (document-identity.ts).
  const identities = root.criteria.profile.featureSet === '1.1';
  const bySelf = new Map<string, RunDocument>();
  const knowSelf = (document: RunDocument): RunDocument => {
    const self = identities ? selfIdentity(document.loaded.model.self, document.location) : undefined;
    if (self !== undefined && !bySelf.has(self)) bySelf.set(self, document);
    return document;
  };
  knowSelf(root);
  const resolved = new Map<Workflow, Promise<Map<string, ResolvedWorkflow>>>();
  const opened = new Map<string, string[]>();
  const shown = (location: string) => (/^https?:\/\//i.test(location) ? redactUrl(location, secretNames(undefined)) : relative(deps.cwd, location) || location);

  const load = async (from: RunDocument, source: SourceDescription, location: string): Promise<RunDocument> => {
    const { text } = await deps.loader.readDocument(source.url ?? '', from.location);
    const file = shown(location);
    const loaded = /^https?:\/\//i.test(location) ? parseFetchedDocument(text, file, location) : parseDocumentText(text, file, location);
    const loadDescription = deps.loader.from(location);
    const findings = await validateDocument(loaded, {
      // An Arazzo source is opened by the run's own profile (one that runs nested workflows).
      profile: root.criteria.profile,
      // A description that cannot be read stops the run when it is bound, below (exit 2).
      loadOperations: async (url) => (await loadDescription(url).catch(() => undefined))?.operations,
      loadPathOperations: async (url) => allOperations(await loadDescription(url)),
    });
    const shownFindings = runnerFindings(findings, loaded.model);
    deps.printFindings(shownFindings, file);
    const errors = shownFindings.filter((f) => f.severity === 'error').length;
    if (errors > 0) throw new ArazzoSourceInvalidError(file, errors, root.criteria.profile, ` (Arazzo source "${source.name ?? ''}" of ${from.loaded.file})`);
    orderStepsByDependencies(loaded.model, root.criteria.profile);
    const prefix = `${from.prefix}${source.name ?? ''}.`;
    const { sources, warnings } = await bindSources(loaded, deps.registry, loadDescription, { binds: deps.binds, included: { prefix }, ...(deps.sends === false ? { sends: false } : {}) });
    const bindScope = { binds: deps.binds, included: { prefix }, ...(deps.sends === false ? { sends: false } : {}) };
    const asyncBound = root.criteria.profile.featureSet === '1.1' ? await bindAsyncSources(loaded, deps.registry, (url) => deps.loader.readDocument(url, location, 'the AsyncAPI description'), bindScope) : undefined;
    opened.set(prefix, [...sources, ...(asyncBound?.sources ?? [])].map((bound) => bound.name));
    for (const warning of [...warnings, ...(asyncBound?.warnings ?? [])]) deps.warn(`${file}: ${warning}`);
    deps.bound?.(sources, file);
    const criteria = await criteriaOptionsFor(loaded.model, root.criteria.profile, { warn: deps.warn, ...(deps.regex ? { regex: deps.regex } : {}) });
    return { prefix, loaded, location, sources, criteria, ...(asyncBound ? { asyncSources: asyncBound.sources } : {}) };
  };

  /**
   * The document a source names: by identity first (Arazzo 1.1: a url that resolves to a read
   * document's `$self`), then by location. Before an absolute url is read from where it points,
   * the run's other local Arazzo sources are read, so that no `$self` is missed.
   */
  const open = async (from: RunDocument, source: SourceDescription): Promise<RunDocument> => {
    const named = identities && source.url !== undefined ? namedIdentity(source.url, from.loaded.model.self, from.location) : undefined;
    if (named === undefined) return openAt(from, source);
    const known = bySelf.get(named) ?? (isAbsoluteUrl(source.url!) ? await readLocalSources(named) : undefined);
    return known ?? openAt(from, source);
  };

  /** Reads the local Arazzo sources of the documents read so far (and theirs) until one has identity `named`. */
  const readLocalSources = async (named: string): Promise<RunDocument | undefined> => {
    const seen = new Set<RunDocument>();
    for (;;) {
      const documents = [...new Set(await Promise.all(byLocation.values()))].filter((document) => !seen.has(document));
      if (documents.length === 0) return undefined;
      for (const document of documents) {
        seen.add(document);
        for (const source of document.loaded.model.sourceDescriptions) {
          if (source.type !== 'arazzo' || source.url === undefined || isAbsoluteUrl(source.url)) continue;
          await openAt(document, source);
          const found = bySelf.get(named);
          if (found) return found;
        }
      }
    }
  };

  const openAt = (from: RunDocument, source: SourceDescription): Promise<RunDocument> => {
    let location: string;
    try {
      location = sourceTarget(source.url ?? '', from.location, deps.allowRefHosts).location;
    } catch (error) {
      return Promise.reject(error instanceof DescriptionError ? new DescriptionUnavailableError(error.message) : error);
    }
    let pending = byLocation.get(location);
    if (!pending) {
      pending = load(from, source, location).then(knowSelf);
      byLocation.set(location, pending);
    }
    return pending;
  };

  const resolve = async (document: RunDocument, found: WorkflowReference): Promise<ResolvedWorkflow | undefined> => {
    const model = document.loaded.model;
    const local = model.workflows.find((w) => w.workflowId === found.reference);
    if (local) return { key: document.prefix + found.reference, document, workflow: local };
    const named = sourceWorkflow(found.reference);
    const source = named && model.sourceDescriptions.find((s) => s.name === named.source && s.type === 'arazzo');
    if (!named || !source || source.url === undefined) return undefined;
    const target = await open(document, source);
    const workflow = target.loaded.model.workflows.find((w) => w.workflowId === named.workflowId);
    if (workflow) return { key: target.prefix + named.workflowId, document: target, workflow };
    const ids = target.loaded.model.workflows.flatMap((w) => (w.workflowId === undefined ? [] : [w.workflowId]));
    const message = unknownSourceWorkflowMessage(found, named.source, source.url, named.workflowId, ids);
    deps.printFindings(locateFindings([{ code: 'UNKNOWN_WORKFLOW', severity: 'error', message, pointer: found.pointer }], document.loaded.locate), document.loaded.file);
    throw new ArazzoSourceInvalidError(document.loaded.file, 1, root.criteria.profile);
  };

  return {
    root,
    openedSources: () => opened,
    references(document, workflow) {
      let pending = resolved.get(workflow);
      if (!pending) {
        pending = (async () => {
          const found = new Map<string, ResolvedWorkflow>();
          for (const reference of workflowReferences(document.loaded.model, workflow)) {
            if (found.has(reference.reference)) continue;
            const target = await resolve(document, reference);
            if (target) found.set(reference.reference, target);
          }
          return found;
        })();
        resolved.set(workflow, pending);
      }
      return pending;
    },
    warnTemplates(document, warnings) {
      for (const w of warnings) {
        const pos = document.loaded.locate(w.pointer);
        deps.warn(`${document.loaded.file}${pos ? `:${pos.line}:${pos.col}` : ''}: ${w.message} (kept as a literal string)`);
      }
    },
  };
}
