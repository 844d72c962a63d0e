// companion's service worker: it keeps every file of this build in the browser's cache and answers
// from there, so the app starts with the network off. `companion build-web` writes the version (a
// hash of every file) and the list of files; a new build is a new cache, and the old one is
// dropped once no tab uses it any more.
"use strict";

const VERSION = "%VERSION%";
const FILES = %FILES%;
const CACHE = `companion-${VERSION}`;

self.addEventListener("install", (event) => {
  // "no-cache": revalidate with the host, so a file of an older build kept by the HTTP cache is
  // never taken into this build's cache.
  event.waitUntil(caches.open(CACHE).then((cache) =>
    cache.addAll(FILES.map((file) => new Request(file, { cache: "no-cache" })))));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("companion-") && name !== CACHE) {
        await caches.delete(name);
      }
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // Every page of the app is index.html: the route is in the hash, which no request carries.
    const hit = await cache.match(request.mode === "navigate" ? "index.html" : request, { ignoreSearch: true });
    return hit || fetch(request);
  })());
});
