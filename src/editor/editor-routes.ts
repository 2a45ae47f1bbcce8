/**
 * The web editor, served by the service itself: its page and bundled assets, its previews
 * (counted per hour, never documents) and its download — the same render flow as POST
 * /v1/render with the same quota, limits and idempotency namespace, reserved as the editor's so
 * it counts in `credits_used` and in no key's spending.
 */
import type { Hono } from 'hono';
import { checkDeclaredLength, readBody } from '../http/body.js';
import { errorResponse } from '../http/error-response.js';
import { renderHandler, type ServiceCore } from '../http/service-core.js';
import type { BodyCeiling } from '../limits/body-ceiling.js';
import { requestLog } from '../observability/request-log.js';
import { methodNotAllowed, notFound } from '../service-error.js';
import { editorAsset } from './editor-assets.js';
import { editorPage } from './editor-page.js';
import { previewDocument } from './preview-flow.js';

/** Where the bundled assets are served; the app leaves their long cache headers alone. */
export const EDITOR_ASSETS = '/editor/assets/';

export function addEditorRoutes(app: Hono, core: ServiceCore, deploymentCeiling: BodyCeiling): void {
  const { log } = core;
  app.use('/editor/preview', requestLog(log));
  app.use('/editor/download', requestLog(log));

  app.get('/', (c) => c.redirect('/editor', 302));
  app.get('/editor', () => editorPage() ?? errorResponse(notFound('The web editor is not built into this installation.'), log));
  app.all('/editor', () => errorResponse(methodNotAllowed(['GET', 'HEAD']), log));
  app.get(`${EDITOR_ASSETS}:name`, async (c) => (await editorAsset(c.req.param('name'))) ?? errorResponse(notFound(), log));

  app.post('/editor/preview', (c) => {
    checkDeclaredLength(c.req.raw, deploymentCeiling);
    return previewDocument(core.deps, { authorization: c.req.header('authorization'), body: (ceiling) => readBody(c.req.raw, ceiling) });
  });
  app.all('/editor/preview', () => errorResponse(methodNotAllowed(['POST']), log));

  app.post('/editor/download', renderHandler(core, deploymentCeiling, 'editor'));
  app.all('/editor/download', () => errorResponse(methodNotAllowed(['POST']), log));
}
