// The phone alone, page side (loaded after Flet's python.js and its settings in index.html).
"use strict";

// Python starts at once, while Flutter loads: Flet's python.js starts its worker only when the
// Flutter app connects, seconds later. It is the same worker (python-worker.js) with the same
// settings; what it says before the app connects is kept and handed over then.
const companionEarly = { inbox: [], worker: new Worker("python-worker.js", { type: "module" }) };
companionEarly.worker.onmessage = (event) => companionEarly.inbox.push(event);
companionEarly.worker.postMessage({
  pyodideUrl: flet.pyodideUrl, args: {}, documentUrl: document.URL, appPackageUrl: flet.appPackageUrl,
  micropipIncludePre: flet.micropipIncludePre, pythonModuleName: flet.pythonModuleName,
});

const companionFletConnect = globalThis.jsConnect;
globalThis.jsConnect = async function (appId, args, dartOnMessage) {
  const worker = companionEarly.worker;
  if (!worker) {
    return companionFletConnect(appId, args, dartOnMessage);  // connecting again: a new worker, Flet's way
  }
  companionEarly.worker = null;
  const app = { dartOnMessage, worker };
  _apps[appId] = app;  // python.js's table of apps, which jsSend and jsDisconnect use
  let error;
  const initialized = new Promise((resolve) => {
    worker.onmessage = (event) => {
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
  for (const event of companionEarly.inbox.splice(0)) {
    worker.onmessage(event);
  }
  await initialized;
  if (error) {
    console.error("Python worker init error:", error);
    await jsDisconnect(appId);
    throw error;
  }
};

// Keep the app for offline use (our service worker), and ask the browser to keep its storage, where
// the games are, even when the phone runs short of space: a worker cannot ask for that.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("sw.js").catch((error) => console.warn("companion: no service worker:", error));
  });
}
if (navigator.storage && navigator.storage.persist) {
  navigator.storage.persisted().then((kept) => kept || navigator.storage.persist())
    .catch((error) => console.warn("companion: storage not made persistent:", error));
}
