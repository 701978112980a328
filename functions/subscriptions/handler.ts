import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { crudOperations } from '../../shared/resources/engine.js';
import { deleteByTargetUrl, subscriptions } from '../../shared/resources/subscriptions.js';

/** Event subscriptions: the six operations plus delete by target_url. */
export const handler = createRouteGroupHandler('subscriptions', { ...crudOperations(subscriptions), deleteByTargetUrl });
