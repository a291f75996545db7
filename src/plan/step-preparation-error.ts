import { ToolError } from '../errors/tool-error.js';

/** Thrown before any request when a step cannot be prepared: unknown operation, no server URL, bad parameter reference. */
export class StepPreparationError extends ToolError {
  constructor(code: 'UNKNOWN_OPERATION' | 'AMBIGUOUS_OPERATION' | 'NO_SERVER_URL' | 'BAD_PARAMETER', message: string, hint?: string) {
    super(code, message, hint);
    this.name = 'StepPreparationError';
  }
}
