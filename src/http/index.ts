/** The request pipeline: everything a command needs to send, show or reason about an HTTP request. */

export { createPipeline, type Pipeline } from './create-pipeline.js';
export { TransportError, type TransportErrorCode } from './transport-error.js';
export { redactRequest, type RedactedRequest } from './redact.js';
export { formatDryRun } from './format-dry-run.js';
export { retryDelayMs, type RetryDelayOptions } from './retry-delay.js';
export { shouldRetry, type RetryOutcome, type RetryPolicy } from './should-retry.js';
export { parseBody } from './parse-body.js';
export type { AuthHook, HttpBody, HttpMethod, HttpRequest, HttpResponse, MultipartPart, PipelineOptions } from './types.js';
