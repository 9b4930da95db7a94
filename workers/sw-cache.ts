import { contract, type EndpointName } from '#shared/contract/index';

/**
 * The service worker's runtime cache rules (vite.config.ts hands them to Workbox), built from the
 * contract so a path is written once. DESIGN: the SW keeps the news (public) and news images;
 * it never puts a signed-in answer (balances, orders, identity photos) in Cache Storage.
 * tests/unit/sw-cache.test.ts checks every `auth: true` call against these rules.
 */

/** Public calls (the news list and articles) kept network-first, the last copy answering offline. */
const SW_CACHED_CALLS = ['newsList', 'newsArticle'] as const satisfies readonly EndpointName[];

const reEscape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The URLs of SW_CACHED_CALLS; building it refuses a call that needs a session. */
function cachedCallsPattern(apiBase: string): RegExp {
  const paths = SW_CACHED_CALLS.map((name) => {
    if (contract[name].auth) throw new Error(`${name} needs a session: the service worker must not cache it`);
    return reEscape(contract[name].path);
  });
  return new RegExp(`^[^?#]*${reEscape(apiBase)}(?:${paths.join('|')})(?:\\?|$)`);
}

/**
 * Image files outside the API (news pictures, icons). Workbox serialises a rule's function
 * without its closure, so this is a pattern: nothing under the API base matches, which keeps the
 * owner-only identity photos (`<api>/stock/success/upload/:id`) out.
 */
function imagesPattern(apiBase: string): RegExp {
  return new RegExp(
    `^https?://[^/]+(?!${reEscape(apiBase)}/)/[^?#]*\\.(?:png|jpe?g|gif|webp|avif|svg)(?:\\?|$)`,
    'i',
  );
}

/**
 * The header the service worker adds to an answer it gives from its cache instead of the network
 * (the network failed, or did not answer within 4 s). Such an answer is not the server's: the sync
 * worker must not take it as proof that the server was reached (workers/http.ts).
 */
export const SW_CACHE_HEADER = 'x-bourse-sw-cache';

/**
 * A Workbox plugin that marks cached answers with SW_CACHE_HEADER. Workbox serialises it into the
 * service worker without its closure, so the header's name is written out here again.
 */
export const markCachedAnswers = {
  cachedResponseWillBeUsed: async ({ cachedResponse }: { cachedResponse?: Response }) => {
    if (!cachedResponse) return cachedResponse;
    const headers = new Headers(cachedResponse.headers);
    headers.set('x-bourse-sw-cache', '1');
    return new Response(cachedResponse.body, {
      status: cachedResponse.status,
      statusText: cachedResponse.statusText,
      headers,
    });
  },
};

/** Workbox `runtimeCaching` (the subset of its type used here). */
export function runtimeCaching(apiBase: string) {
  return [
    {
      urlPattern: cachedCallsPattern(apiBase),
      handler: 'NetworkFirst' as const,
      options: {
        cacheName: 'bourse-news',
        networkTimeoutSeconds: 4,
        expiration: { maxEntries: 80, maxAgeSeconds: 7 * 24 * 3600 },
        cacheableResponse: { statuses: [200] },
        plugins: [markCachedAnswers],
      },
    },
    {
      urlPattern: imagesPattern(apiBase),
      handler: 'CacheFirst' as const,
      options: {
        cacheName: 'bourse-images',
        expiration: { maxEntries: 120, maxAgeSeconds: 14 * 24 * 3600 },
        cacheableResponse: { statuses: [200] },
      },
    },
  ];
}
