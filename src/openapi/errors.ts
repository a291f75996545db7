/** Errors thrown while loading descriptions and building requests. */

/**
 * DESCRIPTION_REFUSED: a rule or limit forbids reading it (a file `$ref` outside the Arazzo
 * document's folder, a FIFO, a file over the size cap, a `$ref` to another host, a YAML alias bomb,
 * a pointer too long). Unlike the others, `tool arazzo validate` reports it too (exit 2).
 */
export type DescriptionErrorCode = 'DESCRIPTION_UNREADABLE' | 'DESCRIPTION_INVALID' | 'DESCRIPTION_REF' | 'DESCRIPTION_REFUSED';

/** Thrown when a description cannot be read, is not OpenAPI 3.0/3.1, has a `$ref` that does not resolve, or breaks a read rule. */
export class DescriptionError extends Error {
  override name = 'DescriptionError';
  readonly code: DescriptionErrorCode;
  /** File path or URL of the description. */
  readonly location: string;

  constructor(code: DescriptionErrorCode, location: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.location = location;
  }
}

/**
 * Thrown by a `$ref` fetcher when a rule forbids the fetch (a non-public address); the resolver
 * reports it as DESCRIPTION_REFUSED, naming the ref. `reason` says why and which flag lifts it.
 */
export class RefFetchRefusedError extends Error {
  override name = 'RefFetchRefusedError';

  constructor(readonly reason: string) {
    super(reason);
  }
}

export type RequestBuildErrorCode =
  | 'MISSING_PATH_PARAMETER'
  | 'UNKNOWN_PARAMETER_LOCATION'
  | 'UNSUPPORTED_CONTENT_TYPE'
  | 'NO_SERVER_URL'
  | 'BAD_BODY'
  | 'QUERYSTRING_CONFLICT';

/** Thrown when a step's parameters or body cannot be turned into an HTTP request. */
export class RequestBuildError extends Error {
  override name = 'RequestBuildError';
  readonly code: RequestBuildErrorCode;

  constructor(code: RequestBuildErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
