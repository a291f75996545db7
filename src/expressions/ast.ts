/**
 * The runtime-expression AST. Every node keeps `source`, the exact text it was parsed from, so
 * errors, dry-run output and "keep" rendering can show what the author wrote.
 */

/** What `$request.` (and `$steps.<id>.request.`) can select. */
export type RequestSelector =
  | { part: 'header'; name: string }
  | { part: 'query'; name: string }
  | { part: 'path'; name: string }
  | { part: 'body'; pointer: string[] };

/** What `$response.` (and `$steps.<id>.response.`) can select. */
export type ResponseSelector =
  | { part: 'header'; name: string }
  | { part: 'body'; pointer: string[] }
  | { part: 'statusCode' };

/** What `$message.` (Arazzo 1.1) can select: a header, or the payload (`dotted`: written `payload.a.b`, read as `payload#/a/b`). */
export type MessageSelector = { part: 'header'; name: string } | { part: 'payload'; pointer: string[]; dotted: boolean };

/** The runtime-expression grammar a document is read with: its `arazzo` feature set (1.1 adds `$message` and `$self`). */
export type ExpressionDialect = '1.0' | '1.1';

export type ComponentSection = 'parameters' | 'inputs' | 'successActions' | 'failureActions';

interface Node {
  source: string;
}

/** A parsed runtime expression, discriminated by `kind`. */
export type Expression =
  /** `$url`, `$method`, `$statusCode` of the current step. */
  | (Node & { kind: 'url' | 'method' | 'statusCode' })
  /** `$request.…` of the current step. */
  | (Node & { kind: 'request'; selector: RequestSelector })
  /** `$response.…` of the current step. */
  | (Node & { kind: 'response'; selector: ResponseSelector })
  /** `$inputs.<name>[#ptr]`; `alias` is true when written `$workflow.inputs.<name>`. */
  | (Node & { kind: 'inputs'; name: string; pointer: string[]; alias: boolean })
  /** `$outputs.<name>[#ptr]`: workflow outputs so far. */
  | (Node & { kind: 'outputs'; name: string; pointer: string[] })
  /** `$steps.<id>.outputs.<name>[#ptr]`. */
  | (Node & { kind: 'stepOutputs'; stepId: string; name: string; pointer: string[] })
  /** `$steps.<id>.request.…`. */
  | (Node & { kind: 'stepRequest'; stepId: string; selector: RequestSelector })
  /** `$steps.<id>.response.…`. */
  | (Node & { kind: 'stepResponse'; stepId: string; selector: ResponseSelector })
  /** `$workflows.<id>.inputs|outputs.<name>[#ptr]`. */
  | (Node & { kind: 'workflow'; workflowId: string; field: 'inputs' | 'outputs'; name: string; pointer: string[] })
  /** `$sourceDescriptions.<name>.<field>`. */
  | (Node & { kind: 'sourceDescription'; name: string; field: string })
  /** `$message.header.<token>` or `$message.payload[#ptr]` (Arazzo 1.1): the message of an asynchronous step. */
  | (Node & { kind: 'message'; selector: MessageSelector })
  /** `$self` (Arazzo 1.1): the document's URI. */
  | (Node & { kind: 'self' })
  /** `$components.<section>.<name>[#ptr]`. */
  | (Node & { kind: 'component'; section: ComponentSection; name: string; pointer: string[] });
