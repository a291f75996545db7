/** How a transition of the compiled machine is labelled in graphs. */

/** The parts of an XState transition config that a label is made from. */
export interface TransitionConfig {
  target?: string | string[];
  guard?: unknown;
  actions?: unknown;
  description?: string;
  meta?: unknown;
  reenter?: boolean;
}

export interface LabelPlace {
  /** The event or trigger (`done runStep`, `after retryDelay`); undefined for an eventless (`always`) transition. */
  trigger: string | undefined;
  /** Position among the trigger's transitions (first match wins), when there are several. */
  ordinal: number | undefined;
  /** Whether it is the first transition of its trigger (an unguarded later one is the "else"). */
  first: boolean;
}

/**
 * The label of one transition: `(2) onFailure: shelterBusy (retry x3 after 0.2s) [$statusCode == 503]`
 * for an Arazzo action (its `description`), followed by the outcome from its `meta` when the
 * workflow stops instead of the action firing (`(limitReached)`); otherwise the trigger, `[guard]`
 * and `/ actions`.
 */
export function transitionLabel(transition: TransitionConfig, place: LabelPlace): string {
  const parts: string[] = [];
  if (place.ordinal !== undefined) parts.push(`(${place.ordinal})`);
  if (place.trigger !== undefined) parts.push(place.trigger);
  if (transition.description !== undefined) {
    parts.push(transition.description);
    const outcome = (transition.meta as { outcome?: unknown } | undefined)?.outcome;
    // A planned failure is labelled by its code, as the steps chart does (`(unsupported)`).
    if (outcome === 'failed') parts.push(`(${plannedFailureCode(transition)?.toLowerCase() ?? 'failed'})`);
    else if (typeof outcome === 'string' && outcome !== 'fired') parts.push(`(${outcome})`);
    return parts.join(' ');
  }
  const guard = guardName(transition.guard);
  if (guard !== '') parts.push(`[${guard}]`);
  else if (!place.first) parts.push('else');
  const actions = listOf(transition.actions).map(actionWithCode).filter((name) => name !== '');
  if (actions.length > 0) parts.push(`/ ${actions.join(', ')}`);
  return parts.join(' ');
}

/** The `code` of the transition's `fail` action, when it has one. */
function plannedFailureCode(transition: TransitionConfig): string | undefined {
  for (const action of listOf(transition.actions)) {
    const code = actionName(action) === 'fail' ? (action as { params?: { code?: unknown } }).params?.code : undefined;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The name of an action reference: `'countRun'` or `{ type: 'recordStep', params }`. */
export function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null && typeof (action as { type?: unknown }).type === 'string') {
    return (action as { type: string }).type;
  }
  return '';
}

/** `fail(STEP_FAILED)`: an action's `code` parameter says which failure it records. */
function actionWithCode(action: unknown): string {
  const name = actionName(action);
  const code = (action as { params?: { code?: unknown } } | undefined)?.params?.code;
  return typeof code === 'string' ? `${name}(${code})` : name;
}

function guardName(guard: unknown): string {
  return actionName(guard);
}

function listOf(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
