// The phone alone, page side: the start screen, our service worker, then Python and Flutter side
// by side. Loaded at the end of index.html, after Flet's python.js and its settings, in place of
// flutter_bootstrap.js, which it starts itself. `companion build-web` writes the start screen's
// texts in both languages and the bytes a start downloads.
"use strict";

const COMPANION_TEXTS = "%TEXTS%";
const COMPANION_START_BYTES = "%START_BYTES%";
// The big files, which the folder holds packed (build.py): the service worker unpacks them on their
// way (sw.js). Without one (a page that is not secure: plain http on the local network) the page and
// its Python worker unpack what they fetch themselves.
const COMPANION_PACKED = "%PACKED%";

const companion = {
  python: null, got: new Set(), bytes: 0, flutter: false, marks: [], unpack: null,
  lang: (() => {
    const chosen = localStorage.getItem("companion-lang");  // the UI's language, told by Python
    if (chosen in COMPANION_TEXTS) {
      return chosen;
    }
    const asked = (navigator.languages || [navigator.language || ""]).map((lang) => lang.slice(0, 2).toLowerCase());
    return asked.find((lang) => lang in COMPANION_TEXTS) || "en";
  })(),
};
// Where the start's time goes (bench/phone.py reads these): the page's moments and the worker's.
function companionMark(name, at = performance.now()) {
  companion.marks.push([name, Math.round(at)]);
}
companion.offline = new Promise((resolve) => { companion.offlineResolve = resolve; });
document.documentElement.lang = companion.lang;

// The start screen: the app's name, its icon and how far the start is, in the phone's language.
function companionProgress() {
  const line = document.getElementById("companion-progress");
  if (!line) {
    return;
  }
  const texts = COMPANION_TEXTS[companion.lang];
  const loaded = Math.min(companion.bytes / COMPANION_START_BYTES, 1);
  const percent = Math.min(99, Math.floor(80 * loaded + (companion.flutter ? 15 : 0)));
  line.textContent = (loaded < 1 ? texts.loading : texts.preparing).replace("{percent}", percent);
}
document.getElementById("companion-name").textContent = COMPANION_TEXTS[companion.lang].name;
companionProgress();

// What Python says to the page itself (not to Flutter): the UI's language, and that a game was
// saved (time to ask the browser to keep the games, which only a page may ask).
function companionFromPython(event) {
  const data = event.data;
  if (!data || typeof data !== "object" || data instanceof Uint8Array) {
    return false;
  }
  if (data.companionMark) {
    companionMark(data.companionMark, data.t - performance.timeOrigin);
    return true;
  }
  if (data.companionLang) {
    document.documentElement.lang = companion.lang = data.companionLang;
    localStorage.setItem("companion-lang", data.companionLang);
    return true;
  }
  if (data.companionPersist) {
    if (navigator.storage && navigator.storage.persist) {
      navigator.storage.persist().catch((error) => console.warn("companion: storage not made persistent:", error));
    }
    return true;
  }
  return false;
}

// The service worker first: once it controls the page, every file the page and Python fetch passes
// through it once and is kept for offline use as it streams by (sw.js).
async function companionServiceWorker() {
  if (!("serviceWorker" in navigator)) {
    return;  // not a secure page (plain http on the local network): the app runs, but not offline
  }
  const sw = navigator.serviceWorker;
  sw.addEventListener("message", (event) => {
    if (event.data && event.data.got && !companion.got.has(event.data.got)) {
      companion.got.add(event.data.got);
      companion.bytes += event.data.size;
      companionProgress();
    } else if (event.data === "offline") {
      console.log("companion: ready offline");
      companion.offlineResolve(true);
    } else if (typeof event.data === "string" && event.data.startsWith("not offline")) {
      console.warn(`companion: ${event.data}`);
      companion.offlineResolve(false);
    }
  });
  const registering = sw.register("sw.js").catch((error) => console.warn("companion: no service worker:", error));
  if (sw.controller) {
    return false;  // a later start: the app's files come from its cache (the browser checks for a new build meanwhile)
  }
  if (await registering && !sw.controller) {
    await new Promise((resolve) => {
      sw.addEventListener("controllerchange", resolve, { once: true });
      setTimeout(resolve, 10000);  // a worker that never takes over must not keep the app from starting
    });
  }
  return Boolean(sw.controller);
}

// Python starts at once, while Flutter loads (Flet's python.js would start its worker only when the
// Flutter app connects, seconds later): companion's worker (worker.js, in place of Flet's
// python-worker.js). What it says before the app connects is kept and handed over then.
function companionPython() {
  const worker = new Worker("worker.js", { type: "module" });
  const python = { worker, inbox: [] };
  worker.onmessage = (event) => companionFromPython(event) || python.inbox.push(event);
  worker.postMessage({ documentUrl: document.URL, archive: flet.appPackageUrl, unpack: companion.unpack });
  return python;
}

// The web client's two WebAssembly programs, its Dart program and its renderer, are compiled in a
// worker of their own. Compiled on the page, each would be decoded, as it streams in, on the page's
// main thread, which the phone's slow CPU holds back and which then runs the Dart program and draws
// (about 0.6 s of it in a traced reload); in a worker V8 also keeps their compiled code for the next
// start, which it does not for the page's. Flutter's loader says which build it chose (build.py adds
// the call); when it is the WebAssembly one, the page's WebAssembly.compileStreaming answers those two
// programs with the worker's modules (and compiles on the page itself if the worker failed). The
// page's own fetch of them gets a stand-in with no body: the worker's is the one download, and it
// compiles them as they stream in.
const COMPANION_PROGRAMS = {
  "main.dart.wasm": { builtins: ["js-string"], importedStringConstants: "" },  // main.dart.mjs's options
  "canvaskit/skwasm.wasm": undefined,
};
const COMPANION_COMPILER = `onmessage = ({ data: [url, options] }) => WebAssembly.compileStreaming(fetch(url), options)
  .then((module) => postMessage([url, module]), (error) => postMessage([url, null, String(error)]));`;

globalThis.companionClient = function (build) {
  if (build.compileTarget !== "dart2wasm" || typeof Worker === "undefined" || companion.unpack) {
    return;  // (the page unpacks what it fetches itself: it compiles them too)
  }
  const compiler = new Worker(URL.createObjectURL(new Blob([COMPANION_COMPILER], { type: "text/javascript" })));
  const compiled = companion.compiled = new Map();  // emptied as Flutter takes each program
  const answers = new Map();
  compiler.onmessage = ({ data: [url, module, error] }) => answers.get(url)(module, error);
  for (const [name, options] of Object.entries(COMPANION_PROGRAMS)) {
    const url = new URL(name, document.baseURI).href;
    compiled.set(url, {
      options: JSON.stringify(options ?? null),
      module: new Promise((resolve, reject) => answers.set(url, (module, error) => module ? resolve(module) : reject(error))),
    });
    compiler.postMessage([url, options]);
  }
  companion.compiler = compiler;  // kept while the page lives: V8 keeps the compiled code from there
  const fetchOnPage = self.fetch;
  const standIns = new WeakMap();  // stand-in response -> the program's URL
  self.fetch = function (input, init) {
    const url = new URL(input instanceof Request ? input.url : input, document.baseURI).href;
    if (!compiled.has(url)) {
      return fetchOnPage.call(self, input, init);
    }
    const standIn = new Response(null);
    standIns.set(standIn, url);
    return Promise.resolve(standIn);
  };
  const onPage = WebAssembly.compileStreaming;
  WebAssembly.compileStreaming = async function (source, options) {
    let response = await source;
    const url = standIns.get(response) ?? response.url;
    const program = compiled.get(url);
    if (program && program.options === JSON.stringify(options ?? null)) {
      compiled.delete(url);
      try {
        return await program.module;
      } catch (error) {
        console.warn(`companion: ${url} not compiled in a worker (${error}); compiled on the page`);
      }
    }
    if (standIns.has(response)) {
      response = await fetchOnPage.call(self, url);
    }
    return onPage.call(WebAssembly, response, options);
  };
};

// Flutter connects to Python (python.js's jsConnect, in place): to the worker started at once, or
// to a new one when it connects again.
globalThis.jsConnect = async function (appId, args, dartOnMessage) {
  const python = companion.python || companionPython();
  companion.python = null;
  companion.flutter = true;
  companionMark("flutter");
  companionProgress();
  const app = { dartOnMessage, worker: python.worker };
  _apps[appId] = app;  // python.js's table of apps, which jsSend and jsDisconnect use
  let error;
  const initialized = new Promise((resolve) => {
    python.worker.onmessage = (event) => {
      if (companionFromPython(event)) {
        return;
      }
      if (typeof event.data === "string") {
        if (event.data !== "initialized") {
          error = event.data;
        }
        resolve();
      } else {
        app.dartOnMessage(event.data);
      }
    };
  });
  for (const event of python.inbox.splice(0)) {
    python.worker.onmessage(event);
  }
  await initialized;
  companionMark("python");
  document.getElementById("companion-start")?.remove();
  if (error) {
    console.error("Python worker init error:", error);
    await jsDisconnect(appId);
    throw error;
  }
  // The app runs: the service worker keeps what it may ask for later, and says when all is there.
  navigator.serviceWorker?.controller?.postMessage("complete");
};

companionMark("page");
companionServiceWorker().then(async (first) => {
  companionMark("service worker");
  if (first && !self.crossOriginIsolated && !sessionStorage.getItem("companion-isolated")) {
    // A first visit: the page came from the host, which cannot isolate it; the service worker,
    // which controls it now, can (sw.js). Loaded again, once, before anything big.
    sessionStorage.setItem("companion-isolated", "1");
    location.reload();
    return;
  }
  if (!navigator.serviceWorker?.controller) {
    await import("./zstd.js");
    companion.unpack = COMPANION_PACKED;
    self.fetch = companionZstd.fetching(self.fetch.bind(self), COMPANION_PACKED, document.baseURI);
  }
  companion.python = companionPython();
  const flutter = document.createElement("script");
  flutter.src = "flutter_bootstrap.js";
  flutter.async = true;
  document.body.append(flutter);
});
