import type { AppDeps } from '../deps.js';
import type { AnyRoute } from '../route.js';
import { deadlinkRoutes } from './deadlinks.js';
import { keyRoutes } from './keys.js';
import { serviceRoutes } from './service.js';
import { screenshotRoutes } from './screenshot.js';
import { html2imageRoutes } from './html2image.js';
import { chartRoutes } from './charts.js';
import { screenshotQueueRoutes } from './screenshot-queue.js';
import { screenshotDiffRoutes } from './screenshot-diff.js';
import { sslRoutes } from './ssl.js';
import { perfRoutes } from './perf.js';
import { techstackRoutes } from './techstack.js';
import { seoRoutes } from './seo.js';
import { auditRoutes } from './audit.js';
import { compareRoutes } from './compare.js';

/** Every route of the service; the OpenAPI documents are built from this same list. */
export function allRoutes(deps: AppDeps): AnyRoute[] {
  const routes: AnyRoute[] = [
    ...keyRoutes(deps),
    ...deadlinkRoutes(deps),
    ...sslRoutes(deps),
    ...perfRoutes(deps),
    ...techstackRoutes(deps),
    ...seoRoutes(deps),
    ...auditRoutes(deps),
    ...screenshotRoutes(deps),
    ...html2imageRoutes(deps),
    ...chartRoutes(deps),
    ...screenshotQueueRoutes(deps),
    ...screenshotDiffRoutes(deps),
    ...compareRoutes(deps),
    ...serviceRoutes(deps, () => routes),
  ];
  return routes;
}
