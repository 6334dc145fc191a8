// The page's side of the offline service worker (sw.ts): registers it in production builds
// only (never under `vite dev` or in Vitest), tells it which version this page is, and says
// discreetly when a new version is ready, with a button that takes it.
// Its styles (updateNotice.css) are imported by main.tsx with the page's.

/** The page's entry script: the worker finds in its caches which version this page is. */
const ENTRY = import.meta.url;

let notice: HTMLElement | null = null;

/** Shows "a new version is ready" once; `reload` takes it. */
function showUpdateNotice(reload: () => void): void {
  if (notice) return;
  notice = document.createElement('aside');
  notice.className = 'sw-update';
  notice.setAttribute('aria-label', 'New version');
  const text = document.createElement('p');
  text.setAttribute('role', 'status');
  text.textContent = 'A new version of cwndlab is ready.';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Reload';
  button.addEventListener('click', reload);
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.className = 'sw-update-dismiss';
  dismiss.textContent = '✕';
  dismiss.setAttribute('aria-label', 'Dismiss: a new version of cwndlab is ready');
  dismiss.addEventListener('click', () => notice?.remove());
  text.append(' ', button);
  notice.append(text, dismiss);
  document.body.append(notice);
}

/** Registers sw.js beside the page (its scope is the page's folder, so the site works from
 *  any folder of a static host). Does nothing without service workers or outside a
 *  production build; a failure is only logged: the page works as without a worker. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const sw = navigator.serviceWorker;
  const start = () => {
    let hadController = sw.controller !== null;
    let reloading = false;
    sw.addEventListener('controllerchange', () => {
      if (reloading) {
        window.location.reload();
        return;
      }
      // Another page took the new version: this one keeps running on its own files.
      if (hadController) showUpdateNotice(() => window.location.reload());
      hadController = true;
    });
    sw.register(new URL('sw.js', document.baseURI), { updateViaCache: 'none' })
      .then(async (registration) => {
        const take = () => {
          const waiting = registration.waiting;
          if (!waiting) {
            window.location.reload();
            return;
          }
          reloading = true;
          waiting.postMessage({ type: 'skip-waiting' });
        };
        const watch = (worker: ServiceWorker | null) => {
          worker?.addEventListener('statechange', () => {
            if (worker.state === 'installed' && sw.controller) showUpdateNotice(take);
          });
        };
        if (registration.waiting && sw.controller) showUpdateNotice(take);
        watch(registration.installing);
        registration.addEventListener('updatefound', () => watch(registration.installing));
        const ready = await sw.ready;
        ready.active?.postMessage({ type: 'hello', entry: ENTRY });
      })
      .catch((e: unknown) => console.warn('cwndlab: no offline copy:', e));
  };
  // After the page has loaded: installing fetches the whole site once more.
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
