/** The data an expression is evaluated against: plain objects, built by the runner per step. */

export interface ResponseData {
  statusCode: number;
  /** Header names in any case; lookups are case-insensitive. */
  headers: Record<string, string | string[]>;
  body: unknown;
}

export interface RequestData {
  url?: string;
  method?: string;
  /** Header names in any case; lookups are case-insensitive. */
  headers: Record<string, string>;
  query: Record<string, string>;
  path: Record<string, string>;
  body?: unknown;
}

export interface StepData {
  outputs: Record<string, unknown>;
  response?: ResponseData;
  request?: RequestData;
}

export interface ExpressionContext {
  inputs: Record<string, unknown>;
  steps: Record<string, StepData>;
  /** the current step's request/response (criteria, outputs, action criteria) */
  request?: RequestData;
  response?: ResponseData;
  /** Override `$url`, `$method`, `$statusCode`; otherwise taken from `request`/`response`. */
  url?: string;
  method?: string;
  statusCode?: number;
  /** workflow outputs so far ($outputs) */
  outputs?: Record<string, unknown>;
  workflows?: Record<string, { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }>;
  sourceDescriptions?: Record<string, Record<string, unknown>>;
  /** Arazzo 1.1: the message of an asynchronous step (`$message.…`); none: such an expression resolves to nothing. */
  message?: { headers: Record<string, string>; payload: unknown };
  /** Arazzo 1.1: the document's URI (`$self`): its `$self` resolved against where it was read, else that location. */
  self?: string;
  components?: {
    parameters?: Record<string, unknown>;
    inputs?: Record<string, unknown>;
    successActions?: Record<string, unknown>;
    failureActions?: Record<string, unknown>;
  };
}
