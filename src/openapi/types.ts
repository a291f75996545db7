/** The operation index built from an OpenAPI description: what a step needs to build a request. */
import type { HttpMethod } from '../http/types.js';

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface ParameterSpec {
  name: string;
  in: ParameterLocation;
  required: boolean;
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  schema?: unknown;
  /** Media type of a `content`-style parameter; its value is serialised as that type (JSON). */
  contentType?: string;
}

/** A piece of a compiled path template: literal text, or the name of a `{param}`. */
export type PathPart = { literal: string } | { param: string };

export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** Path template as written, e.g. `/pets/{petId}`. */
  path: string;
  /** The operation's `summary`, for listings (`tool api ops`). */
  summary?: string;
  /**
   * Operation-, then path-, then document-level server URLs, variables at their defaults.
   * Made absolute when the description came over http(s); kept as written for a file.
   */
  servers: string[];
  /** Path-item and operation parameters merged by (name, in); the operation's win. */
  parameters: ParameterSpec[];
  requestBody?: { required: boolean; contentTypes: string[] };
  /** RFC 6901 pointer of the operation, e.g. `/paths/~1pets~1{petId}/get`. */
  pointer: string;
  /** `path` split once at load time so request building does no parsing. */
  pathTemplate: PathPart[];
  /** Accept header value derived from the responses' JSON media types; undefined when none. */
  accept?: string;
  /** The operation declares a 3xx response (`302`, `3XX`): a request to it does not follow redirects, so the 3xx is its answer. */
  answersRedirect?: true;
  /**
   * The declared responses, for response checks: status key as written (`200`, `2XX`, `default`)
   * to its media types as written (empty: it declares no content). A media type's schema, when it
   * has one, is in the description's `responseSchemas` at `<pointer>/responses/<status>/content/<type>/schema`.
   */
  responses?: Record<string, string[]>;
}

export interface OpenApiDescription {
  /** Absolute file path or http(s) URL the description was read from. */
  location: string;
  /** The `openapi` field, e.g. `3.0.3`. */
  version: string;
  title?: string;
  /** Document-level servers (the spec's default `/` when none are declared). */
  servers: string[];
  operations: Map<string, Operation>;
  /** Operations without an operationId (named `<METHOD> <path>`): only an operationPath reaches them. Absent when there are none. */
  unnamedOperations?: Operation[];
  /**
   * The response schemas of the operations, at their pointers in the description, with the
   * `#/…` targets their `$ref`s reach (copied at theirs): a sparse copy of the description that
   * response checks compile lazily. Absent when no response declares a schema.
   */
  responseSchemas?: Record<string, unknown>;
}
