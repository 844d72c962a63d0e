// companion's service worker: it keeps the files of this build that the app uses in the browser's
// cache and answers from there, so the app starts with the network off. `companion build-web`
// writes the version (a hash of every file) and, for each file, its SHA-256 digest and size.
//
// Every byte is downloaded once. On a first visit the page waits for this worker before it loads
// anything big (page.js), so each file the page and its Python worker fetch passes through here
// once and is kept as it streams by; what the page fetched before (index.html, the start screen's
// icon) is taken from the browser's HTTP cache, never from the network again. Files nobody asks
// for are not kept: the renderer build this browser does not use, the licence text, the icons of
// the manifest (the browser fetches the one it installs). A new build (an update) takes the files
// it shares with the old one from the old cache and downloads only what changed; it is used from
// the next start, once every tab of the old one is closed.
"use strict";

const VERSION = "%VERSION%";
const FILES = %FILES%;  // each file of the folder: its digest and size
// The big files, which the folder holds packed (as <name>.zst: what the host sends), each with its
// digest unpacked: this worker unpacks them as they stream in (zstd.js), hands them on and keeps
// them unpacked. The app asks for them by their own names.
const PACKED = %PACKED%;
// The decoder (zstd.js), written in here by the build: an imported script would be fetched again
// at every check for a new build, as this one is.
%DECODER%
const NAMES = new Set(Object.keys(FILES).map((file) => file.endsWith(".zst") && file.slice(0, -4) in PACKED ? file.slice(0, -4) : file));
const inFolder = (name) => name in PACKED ? `${name}.zst` : name;
// Kept only when the app asks for them: the renderer (two builds, one per kind of browser), the
// licence text, which the app never shows, and the manifest's icons (the browser's to fetch).
const ON_DEMAND = %ON_DEMAND%;
const atStart = (name) => !ON_DEMAND.some((start) => name.startsWith(start));
// The web client's WebAssembly build (Chromium's; other browsers load main.dart.js).
const WASM_BUILD = %WASM_BUILD%;
const CACHE = `companion-${VERSION}`;
// The page and its Python worker are isolated from other sites (they load nothing from one): the
// web client then draws in a worker of its own (skwasm's threads need a cross-origin isolated
// page), off the page's main thread. A static host cannot send these headers; this worker adds them
// to what it answers from its cache.
const ISOLATED = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };
const ISOLATE = new Set(["index.html", "worker.js"]);
const SCOPE = new URL(self.registration.scope);
// For each file asked for right now, the last request's turn (the fetch handler): a second request
// for a file being downloaded and kept waits for its turn instead of downloading it again.
const TURNS = new Map();
// A first visit asks the host for Python's files (every browser needs them) the moment this worker is
// installed, a second before the Python worker would: the page first loads itself again to be
// isolated, then starts that worker, which loads Pyodide's loader. Each is kept as it streams in and
// handed to the request that comes for it.
const AHEAD = %AHEAD%;
const fetchedAhead = new Map();  // name -> [the response for the page, what keeping it waits for]

// Tell the start screen a file is here (its progress line counts the bytes).
async function got(name) {
  for (const client of await self.clients.matchAll({ type: "window" })) {
    client.postMessage({ got: name, size: FILES[inFolder(name)][1] });
  }
}

function fileName(url) {
  const path = new URL(url).pathname;
  return path.startsWith(SCOPE.pathname) ? path.slice(SCOPE.pathname.length) || "index.html" : null;
}

async function digest(response) {
  const bytes = await crypto.subtle.digest("SHA-256", await response.arrayBuffer());
  return "sha256-" + btoa(String.fromCharCode(...new Uint8Array(bytes)));
}

// `name` as the page fetched it before this worker ran, from the browser's HTTP cache (`urls`: where
// the page may have fetched it), if it is there with these bytes; else null.
async function earlier(name, urls) {
  for (const url of urls) {
    try {
      const cached = await fetch(url, { cache: "only-if-cached", mode: "same-origin", integrity: FILES[name][0] });
      if (cached.ok) {
        return cached;
      }
    } catch (error) {
      // not in the HTTP cache, or not these bytes
    }
  }
  return null;
}

// `name` from the host; a packed one as <name>.zst, unpacked as it streams in.
async function fromHost(name, options) {
  return name in PACKED ? companionZstd.unpacked(await fetch(`${name}.zst`, options), name) : fetch(name, options);
}

// Keep `name` in `cache` from `response` (the host's answer, to come) as the page reads it: the copy is
// taken before the page reads it. True once kept; false when the host said no.
function keepAsItStreams(cache, name, response) {
  return response.then((fetched) => fetched.ok && cache.put(name, fetched.clone()).then(() => true));
}

// `name` into `cache` without downloading it again if the browser has it: from the HTTP cache
// (what the page fetched before this worker ran) or from an older build's cache when the bytes
// are the same; only then from the host.
async function keep(cache, name, urls, older) {
  const cached = name in PACKED ? null : await earlier(name, urls);
  if (cached) {
    return cache.put(name, cached);
  }
  for (const old of older) {
    const hit = await old.match(name);
    if (hit && await digest(hit.clone()) === (PACKED[name] || FILES[name][0])) {
      return cache.put(name, hit);
    }
  }
  // "no-cache": revalidated with the host, so a file of an older build is never taken for this one.
  return cache.put(name, await fromHost(name, { cache: "no-cache", integrity: FILES[inFolder(name)][0] }));
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    if (!self.registration.active) {
      // A first visit: the page is waiting for this worker, and no other build is running.
      const cache = await caches.open(CACHE);
      for (const name of AHEAD) {
        const response = fromHost(name, { cache: "no-cache" });
        const keeping = keepAsItStreams(cache, name, response);
        keeping.catch(() => null);  // the request for it tries again (answer)
        fetchedAhead.set(name, [response, keeping]);
      }
      await self.skipWaiting();
      return;
    }
    // An update: the files the old build kept (the renderer this browser uses among them), from
    // the old cache where they did not change.
    const cache = await caches.open(CACHE);
    const older = [];
    const wanted = new Set();
    for (const key of await caches.keys()) {
      if (key.startsWith("companion-") && key !== CACHE) {
        const old = await caches.open(key);
        older.push(old);
        for (const request of await old.keys()) {
          const name = fileName(request.url);
          if (NAMES.has(name)) {
            wanted.add(name);
          }
        }
      }
    }
    // Every file the app needs at its start, also one the old build did not have: the first start
    // of this build may be offline. A build from before the WebAssembly client kept the JavaScript
    // one; this browser may now load the WebAssembly build, so it is kept too (the one time).
    [...NAMES].filter(atStart).forEach((name) => wanted.add(name));
    if (wanted.has("main.dart.js") && !WASM_BUILD.some((name) => wanted.has(name))) {
      WASM_BUILD.filter((name) => NAMES.has(name)).forEach((name) => wanted.add(name));
    }
    for (const name of wanted) {
      await keep(cache, name, [], older);
    }
  })());
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

// The page says its app is running: keep what it has not asked for yet (whatever it may ask for
// later, offline) and answer "offline" once every file it needs is here.
self.addEventListener("message", (event) => {
  if (event.data !== "complete") {
    return;
  }
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const name of NAMES) {
      if (atStart(name) && !(await cache.match(name))) {
        await keep(cache, name, name === "index.html" ? [SCOPE.href, name] : [name], []);
      }
    }
    event.source.postMessage("offline");
  })().catch((error) => event.source.postMessage(`not offline: ${error}`)));
});

function isolated(response) {
  const headers = new Headers(response.headers);
  Object.entries(ISOLATED).forEach(([name, value]) => headers.set(name, value));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

// The file `name` for `request`: from the cache, or downloaded and kept as the page reads it. The
// answer, and what keeping it waits for (null when nothing is downloaded).
async function answer(event, request, name) {
  const cache = await caches.open(CACHE);
  // Every page of the app is index.html: the route is in the hash, which no request carries.
  const kept = request.mode === "navigate" ? "index.html" : name;
  const ahead = fetchedAhead.get(name);
  fetchedAhead.delete(name);
  const early = ahead && await ahead[0].catch(() => null);
  if (early && early.ok) {
    return [early, ahead[1].then(() => got(name))];
  }
  let hit = await cache.match(kept);
  if (!hit && NAMES.has(kept) && !(kept in PACKED)) {
    // What the page fetched before this worker ran: a first visit's page loads itself again once
    // this worker controls it (page.js), and asks for those files again.
    hit = await earlier(kept, kept === "index.html" ? [request.url, SCOPE.href] : [request.url]);
    if (hit) {
      await cache.put(kept, hit.clone());
    }
  }
  if (hit) {
    if (NAMES.has(name)) {
      event.waitUntil(got(name));
    }
    return [ISOLATE.has(kept) ? isolated(hit) : hit, null];
  }
  // "no-cache": never a file of an older build that the HTTP cache kept.
  const response = request.mode === "navigate" ? fetch(request)
    : name in PACKED ? fromHost(name, { cache: "no-cache" }) : fetch(request, { cache: "no-cache" });
  const keeping = NAMES.has(name) && request.mode !== "navigate"
    ? keepAsItStreams(cache, name, response).then((kept) => kept && got(name)) : null;
  return [ISOLATE.has(kept) ? response.then((fetched) => fetched.ok ? isolated(fetched) : fetched) : response, keeping];
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const name = request.method === "GET" ? fileName(request.url) : null;
  if (name === null || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  // Requests for one file take turns, from the moment each is made: a second one (the web client's
  // program is asked for by the page and by the worker that compiles it) waits until the first is
  // answered and kept, and is answered from the cache.
  const before = TURNS.get(name);
  let release;
  const turn = new Promise((resolve) => { release = resolve; });
  TURNS.set(name, turn);
  const answered = (async () => {
    await before;
    return answer(event, request, name);
  })();
  event.respondWith(answered.then(([response]) => response));
  event.waitUntil(answered.then(([, keeping]) => keeping).catch(() => null).finally(() => {
    release();
    if (TURNS.get(name) === turn) {
      TURNS.delete(name);
    }
  }));
});
