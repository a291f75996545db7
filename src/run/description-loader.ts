import { EXIT, ToolError } from '../cli/errors.js';
import { TransportError, type Pipeline } from '../http/index.js';
import { DescriptionError, loadDescription, type OpenApiDescription } from '../openapi/index.js';

/** Thrown when a description URL answers with an HTTP error. */
export class DescriptionFetchError extends ToolError {
  constructor(url: string, status: number) {
    super('DESCRIPTION_FETCH', `could not fetch the OpenAPI description ${url}: HTTP ${status}`, EXIT.USAGE, 'Check the source description url, or point it at a local file.');
    this.name = 'DescriptionFetchError';
  }
}

/** Thrown when a source description cannot be read, fetched or parsed (exit 2: the run never started). */
export class DescriptionUnavailableError extends ToolError {
  constructor(message: string, hint?: string) {
    super('DESCRIPTION_UNAVAILABLE', message, EXIT.USAGE, hint);
    this.name = 'DescriptionUnavailableError';
  }
}

/**
 * A loader of OpenAPI descriptions for one Arazzo document: locations resolve against the
 * document, http(s) URLs are fetched through the request pipeline, and each location is loaded once.
 */
export function createDescriptionLoader(pipeline: Pipeline, baseFile: string): (location: string) => Promise<OpenApiDescription> {
  const loaded = new Map<string, Promise<OpenApiDescription>>();
  const fetchText = async (url: string): Promise<string> => {
    const response = await pipeline.send({ method: 'GET', url, headers: { accept: 'application/json, application/yaml, text/yaml, */*' } });
    if (response.status < 200 || response.status > 299) throw new DescriptionFetchError(url, response.status);
    const body = response.body;
    if (typeof body === 'string') return body;
    if (Buffer.isBuffer(body)) return body.toString('utf8');
    return body === undefined ? '' : JSON.stringify(body);
  };
  return (location) => {
    let promise = loaded.get(location);
    if (!promise) {
      promise = loadDescription(location, { baseFile, fetchText }).catch((error: unknown) => {
        if (error instanceof DescriptionError) throw new DescriptionUnavailableError(error.message);
        if (error instanceof TransportError) {
          throw new DescriptionUnavailableError(`could not fetch the OpenAPI description ${location}: ${error.message}`, 'Check the source description url, or point it at a local file.');
        }
        throw error;
      });
      loaded.set(location, promise);
    }
    return promise;
  };
}
