/** Arazzo documents: load (YAML/JSON -> typed model with positions) and validate (findings, never throws). */
export type * from './model.js';
export { isReference } from './model.js';
export { ArazzoLoadError, type ArazzoLoadErrorCode } from './errors.js';
export { loadDocument, type LoadOptions } from './load-document.js';
export { parseDocumentText, type ParseOptions } from './parse-document-text.js';
export { formatExcerpt } from './format-excerpt.js';
export { validateDocument, type ValidateOptions } from './validate-document.js';
export type { LoadOperations } from './check-operations.js';
export type { Finding, FindingCode, Severity } from './finding.js';
export { formatFinding, formatSummary } from './format-finding.js';
