import { loadDescription, type OpenApiDescription } from '../openapi/index.js';
import type { Pipeline } from '../http/index.js';
import { ToolError, EXIT } from '../cli/errors.js';

/** Thrown when a description URL answers with an HTTP error. */
export class DescriptionFetchError extends ToolError {
  constructor(url: string, status: number) {
    super('DESCRIPTION_FETCH', `could not fetch the OpenAPI description ${url}: HTTP ${status}`, EXIT.USAGE, 'Check the source description url, or point it at a local file.');
    this.name = 'DescriptionFetchError';
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
      promise = loadDescription(location, { baseFile, fetchText });
      loaded.set(location, promise);
    }
    return promise;
  };
}
