// The page's entry. It holds the page's stylesheets (all of them: the build inlines them into
// the HTML, so the first view is styled before any script runs) and starts the page in two
// module graphs, each evaluated in a task of its own instead of one long one: the UI
// runtime (Preact, imported as react-dom), then the app (start.tsx). The build preloads both
// from the HTML (vite.config.ts, preloadStart), so splitting them costs no round trip.
// In the cascade order they had when each component imported its own (the page's last).
import './practice/practice.css';
import './sweep/sweep.css';
import './sheet/sheet.css';
import './textbook/textbook.css';
import './offline/updateNotice.css';
import './course/course.css';
import './app/styles.css';

import('react-dom/client')
  .then(() => import('./start'))
  .catch((e: unknown) => {
    // The page's scripts did not load (offline without a cached copy, a broken deploy):
    // say so in plain DOM, as start.tsx would.
    const root = document.getElementById('root');
    document.documentElement.dataset.render = 'error';
    if (!root) return;
    const main = document.createElement('main');
    main.className = 'fatal';
    main.setAttribute('role', 'alert');
    const title = document.createElement('h1');
    title.textContent = 'cwndlab could not start';
    const detail = document.createElement('p');
    detail.textContent = `The page's scripts did not load (${e instanceof Error ? e.message : String(e)}). Reload the page to try again.`;
    main.append(title, detail);
    root.replaceChildren(main);
  });
