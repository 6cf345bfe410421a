/*
 * Tribuna's tickets offline (registered only from /cuenta/mis-tickets,
 * /tickets/* and the door screen /vivos/acreditacion/*): those pages are
 * answered network first and kept in a cache, so a ticket opened once still
 * shows its QR at a door with no signal, and the door screen reloads offline. Nothing
 * else is cached: other pages, /api/*, data requests and third parties go to
 * the network untouched. Built assets (/assets/*, hashed) are kept only when a
 * ticket page asks for them.
 */
const CACHE = "tribuna-tickets-v1";

function isTicketPage(url) {
  return (
    url.origin === self.location.origin &&
    (url.pathname === "/cuenta/mis-tickets" ||
      /^\/tickets\/[^/]+$/.test(url.pathname) ||
      // The door screen itself, not its search results.
      (/^\/vivos\/acreditacion\/[^/]+$/.test(url.pathname) && !url.search))
  );
}

function isAsset(url) {
  return url.origin === self.location.origin && (url.pathname.startsWith("/assets/") || url.pathname === "/favicon.svg");
}

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith("tribuna-tickets-") && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

// A ticket page, once its JavaScript runs, sends its own URL and the assets it loaded.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "cache-ticket-page" || !Array.isArray(data.urls)) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      for (const raw of data.urls.slice(0, 100)) {
        let url;
        try {
          url = new URL(raw, self.location.origin);
        } catch {
          continue;
        }
        if (!isTicketPage(url) && !isAsset(url)) continue;
        if (isAsset(url) && (await cache.match(url.href))) continue;
        try {
          const response = await fetch(url.href, { credentials: "same-origin", redirect: "manual" });
          if (response.ok && response.type === "basic") await cache.put(url.href, response);
        } catch {
          // Offline already: keep what we have.
        }
      }
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  // Signing out forgets the cached tickets (they show personal data and QR codes).
  // (A form post goes to /cuenta/cerrar-sesion; with JavaScript, Remix posts to /cuenta/cerrar-sesion.data.)
  if (url.pathname.startsWith("/cuenta/cerrar-sesion")) {
    event.waitUntil(caches.delete(CACHE));
    return;
  }
  if (request.method !== "GET") return;

  if (request.mode === "navigate" && isTicketPage(url)) {
    event.respondWith(
      (async () => {
        const cache = await caches.open(CACHE);
        try {
          const response = await fetch(request);
          if (response.ok && response.type === "basic") await cache.put(url.href, response.clone());
          // Redirected away (signed out, no access): the old copy must not be shown either.
          else if (response.type === "opaqueredirect" || response.status === 401 || response.status === 403 || response.status === 404) await cache.delete(url.href);
          return response;
        } catch (error) {
          const cached = await cache.match(url.href);
          if (cached) return cached;
          throw error;
        }
      })(),
    );
    return;
  }

  if (isAsset(url)) {
    event.respondWith(
      (async () => {
        const cached = await caches.match(request, { cacheName: CACHE });
        return cached || fetch(request);
      })(),
    );
  }
});
