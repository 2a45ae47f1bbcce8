/** How a render that produced no PDF is answered (docs/api.md "Errors"), and the page count to record. */
import { RENDERER_BOUNDS } from '@quire/engine';
import type { PageAndTimeLimits } from '../limits/render-limits.js';
import type { PlanId, PlanLimits } from '../plan-terms.js';
import type { Log } from '../log.js';
import {
  emptyDocument,
  invalidRequest,
  payloadTooLarge,
  preparationLimit,
  queueFull,
  renderFailed,
  renderTimeout,
  renderUnavailable,
  resourceFetchFailed,
  tooManyPages,
  tooManyResources,
  type ServiceError,
} from '../service-error.js';
import type { RenderFailure } from '../workers/protocol.js';

export interface FailureContext {
  plan: PlanId;
  limits: PlanLimits;
  renderLimits: PageAndTimeLimits;
  log: Log;
}

export function failureError(failure: RenderFailure, context: FailureContext): ServiceError {
  switch (failure.kind) {
    case 'page_limit':
      return tooManyPages(context.renderLimits.pages);
    case 'timeout':
    case 'pool_timeout':
      return renderTimeout(context.renderLimits.time);
    case 'renderer_bound':
      return preparationLimit((RENDERER_BOUNDS as readonly string[]).includes(failure.bound) ? failure.bound : undefined);
    case 'out_of_memory':
      return preparationLimit('OutOfMemory');
    case 'resource_budget':
      return payloadTooLarge('resource_limit', `Resources are larger than ${context.limits.resources_mb} MB.`, {
        name: 'resources_mb',
        value: context.limits.resources_mb,
        plan: context.plan,
      });
    case 'resource':
      return resourceFetchFailed(failure.resourceId, failure.reason);
    case 'too_many_remote':
      return tooManyResources(`The document links more than ${failure.limit} remote resources.`, {
        name: 'remote_resources',
        value: failure.limit,
        plan: context.plan,
      });
    case 'empty_document':
      return emptyDocument();
    case 'invalid_option':
      return invalidRequest('invalid_field', `Invalid "${failure.key}": ${failure.message}.`);
    case 'document':
      return renderFailed(422, `The document could not be rendered: ${failure.message}.`);
    case 'engine':
      context.log({ event: 'engine_error', detail: failure.detail });
      return renderFailed(422, 'The renderer failed on this document.');
    case 'crashed':
      return renderFailed(500, 'The render worker stopped unexpectedly; retry once.');
    case 'queue_full':
      return queueFull();
    case 'unavailable':
      return renderUnavailable('No render capacity is available right now.');
  }
}

/** Pages known at the failure: how far layout got before the page limit stopped it. */
export function pagesAtFailure(failure: RenderFailure): number | undefined {
  return failure.kind === 'page_limit' ? failure.pagesReached : undefined;
}
