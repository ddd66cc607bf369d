/**
 * The portal's HTTP server put together: plugins (errors, security headers,
 * compression), then the /api routes, then the built app with its SPA fallback.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyError,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
  type FastifyServerOptions,
} from 'fastify';
import type { Database } from './db/database.js';
import { MAX_DOCUMENT_BYTES } from '../src/contracts/accounts.js';
import { matchRoute } from '../src/contracts/routes.js';
import { PAGES } from '../src/contracts/staff-routes.js';
import { authPlugin } from './plugins/auth.js';
import { changeVersionsPlugin } from './plugins/change-versions.js';
import { securityHeaders } from './plugins/security-headers.js';
import { apiDocs } from './plugins/api-docs.js';
import { repDocumentRoutes, salesRepRoutes } from './routes/sales-reps.js';
import { adminRoutes } from './routes/admin.js';
import { adminMailRoutes } from './routes/admin-mail.js';
import { accountLinkRoutes } from './routes/account-links.js';
import { authRoutes } from './routes/auth.js';
import { registrationRoutes } from './routes/registration.js';
import { cartRoutes } from './routes/cart.js';
import { orderListRoutes } from './routes/order-lists.js';
import { companyRoutes } from './routes/companies.js';
import { orderRoutes } from './routes/orders.js';
import { healthRoutes } from './routes/health.js';
import { makerRoutes } from './routes/maker.js';
import { userRoutes } from './routes/users.js';
import { newsletterRoutes } from './routes/newsletter.js';
import { productRoutes } from './routes/products.js';
import { seoRoutes } from './routes/seo.js';
import { uploadRoutes } from './routes/uploads.js';
import { adminCatalogueRoutes } from './routes/admin-catalogue.js';
import { MAX_PICTURE_BYTES } from '../src/contracts/admin-catalogue.js';
import { BRAND_DETAILS, type MakerDetails } from '../src/contracts/maker.js';
import { changeVersions } from './services/change-versions.js';
import { describeFailure, HttpError } from './services/errors.js';
import { loadFirstScreens } from './first-screens.js';
import { responseSerializerCompiler } from './serialization.js';
import { requestValidatorCompiler } from './validation.js';

export interface AppOptions {
  database: Database;
  /** Folder of the built app (dist/); null serves the API alone. */
  staticDir?: string | null;
  /** Folder of the app's server rendering (dist-ssr/); null leaves every page to the browser. */
  renderDir?: string | null;
  logger?: FastifyServerOptions['logger'];
  /** Which proxies' X-Forwarded-For/-Proto to believe (see TRUST_PROXY in config.ts). */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** The site's public address, for canonical links and the sitemap; never the request's Host. */
  publicUrl?: string;
  /** The maker's details on pro-formas (see MAKER_* in config.ts); the brand's alone by default. */
  maker?: MakerDetails;
}

/** A route as registered: what the tests enumerate to cover every route. */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

/** Every route of each app built here, in registration order. */
export const registeredRoutes = new WeakMap<object, RegisteredRoute[]>();

/** The public address when none is configured: a server on this machine. */
const DEFAULT_PUBLIC_URL = 'http://localhost:8080';

/** Largest JSON body accepted; the API's requests are small forms. */
const BODY_LIMIT_BYTES = 1_048_576;

export async function buildApp({
  database,
  staticDir = null,
  renderDir = null,
  logger = false,
  trustProxy = false,
  publicUrl = DEFAULT_PUBLIC_URL,
  maker = BRAND_DETAILS,
}: AppOptions) {
  const app = Fastify({
    logger,
    trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    // An address the router cannot read (bad escapes, a part over 100 characters) gets the
    // API's own error shape, without the address echoed back.
    frameworkErrors: (error, _request, reply) => {
      void (reply as unknown as FastifyReply)
        .status(error.statusCode ?? 400)
        .send({ message: 'The address of this request is not valid.' });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const routes: RegisteredRoute[] = [];
  registeredRoutes.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    for (const method of methods) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, schema: route.schema });
    }
    // GET and HEAD requests have no body to decompress: no decompression hook runs for them.
    if (methods.every((method) => method === 'GET' || method === 'HEAD')) {
      route.decompress ??= false;
    }
  });
  // Strict types in bodies, decimal numbers in paths and queries, no NUL anywhere.
  app.setValidatorCompiler(requestValidatorCompiler());
  app.setSerializerCompiler(responseSerializerCompiler);

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if ('validation' in error && error.validation) {
      const details = error.validation.map((issue) => {
        const field =
          (issue.params as { missingProperty?: string; additionalProperty?: string })
            .missingProperty ??
          (issue.params as { additionalProperty?: string }).additionalProperty ??
          issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
        const message =
          issue.keyword === 'additionalProperties'
            ? 'is not a known field'
            : (issue.message ?? 'is invalid');
        return { field, message };
      });
      const first = details[0];
      return reply.status(400).send({
        message: first
          ? `Invalid request: ${first.field || error.validationContext} ${first.message}`
          : 'Invalid request',
        details,
      });
    }
    const status = error.statusCode ?? 500;
    // A 503 of the server's own (busy, try again shortly) says so; any other 5xx is a fault.
    if (status >= 500 && !(error instanceof HttpError && status === 503)) {
      request.log.error(
        {
          reqId: request.id,
          route: `${request.method} ${request.routeOptions.url ?? ''}`,
          error: describeFailure(error),
        },
        'Request failed',
      );
      return reply
        .status(status)
        .send({ message: 'Something went wrong on our side. Please try again.' });
    }
    if (error instanceof HttpError) {
      const retryAfter = error.extra?.retryAfter;
      if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      return reply.status(status).send({
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
        ...error.extra,
      });
    }
    return reply.status(status).send({ message: error.message });
  });

  await app.register(securityHeaders);
  await app.register(compress, { global: true, threshold: 1024 });
  // What processes keep in memory (accounts, catalogue answers) is checked against these.
  await app.register(changeVersionsPlugin, { versions: await changeVersions(database) });
  await app.register(authPlugin, { db: database.db });
  // Before the routes: it describes each route as it is registered (OpenAPI at /api/openapi.json).
  await app.register(apiDocs);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database });
      await api.register(makerRoutes, { maker });
      await api.register(productRoutes, { db: database.db });
      await api.register(newsletterRoutes, { db: database.db });
      // Only these routes read multipart forms (documents): its hooks run for them alone.
      await api.register(async (forms) => {
        await forms.register(multipart, {
          limits: {
            fileSize: MAX_DOCUMENT_BYTES,
            files: 8,
            fields: 30,
            fieldSize: 10_000,
            parts: 40,
          },
        });
        await forms.register(registrationRoutes, { db: database.db, publicUrl });
        await forms.register(companyRoutes, { db: database.db });
        await forms.register(repDocumentRoutes, { db: database.db });
      });
      await api.register(authRoutes, { db: database.db });
      await api.register(accountLinkRoutes, { db: database.db, publicUrl });
      await api.register(userRoutes, { db: database.db });
      await api.register(cartRoutes, { db: database.db });
      await api.register(orderListRoutes, { db: database.db });
      await api.register(orderRoutes, { db: database.db });
      await api.register(adminRoutes, { db: database.db });
      await api.register(adminMailRoutes, { db: database.db });
      await api.register(salesRepRoutes, { db: database.db });
      // The back office's catalogue: its own scope, that reads a picture's multipart form.
      await api.register(async (catalogue) => {
        await catalogue.register(multipart, {
          limits: { fileSize: MAX_PICTURE_BYTES, files: 1, fields: 0, parts: 1 },
        });
        await catalogue.register(adminCatalogueRoutes, { db: database.db });
      });
    },
    { prefix: '/api' },
  );
  await app.register(uploadRoutes, { db: database.db });
  await app.register(seoRoutes, { db: database.db, publicUrl });

  const hasApp = staticDir !== null && existsSync(join(staticDir, 'index.html'));
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies at the best compression: sent as they are.
      preCompressed: true,
      setHeaders: (res, path) => {
        // Hashed bundles never change; everything else must be revalidated so that a new
        // deployment (and a new service worker) is seen at once.
        res.header(
          'cache-control',
          path.includes(`${join(staticDir, 'assets')}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  const firstScreens =
    hasApp && renderDir !== null
      ? await loadFirstScreens(renderDir, staticDir, database.db, publicUrl, app.log)
      : null;

  const servePage = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const wantsPage =
      hasApp &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      !path.startsWith('/uploads/') &&
      !path.startsWith('/assets/');
    if (wantsPage) {
      // Whether and how the page is rendered depends on its cookies and languages.
      reply.header('cache-control', 'no-cache').header('vary', 'cookie, accept-language');
      // An address of no page still gets the app, which shows "Page not found", but as a
      // 404: search engines and link checkers must not take it for a page.
      if (!matchRoute(path, PAGES)) return reply.status(404).sendFile('index.html');
      const screen = await firstScreens?.render(request).catch((error: unknown) => {
        // The browser can still render the page itself.
        request.log.error(
          { reqId: request.id, error: describeFailure(error) },
          'Could not render the first screen',
        );
        return null;
      });
      if (screen) {
        return reply.status(screen.status).type('text/html; charset=utf-8').send(screen.html);
      }
      return reply.sendFile('index.html');
    }
    return reply.status(404).send({ message: `Not found: ${request.method} ${path}` });
  };
  // Pages are a route as well, so that they are compressed like every other answer
  // (compression applies to routes); the not-found handler answers the other methods.
  if (hasApp) app.get('/*', servePage);
  app.setNotFoundHandler(servePage);

  return app;
}
