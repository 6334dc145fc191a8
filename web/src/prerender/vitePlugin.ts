// The build's prerender step (build only): renders the first view (firstView.tsx) with
// React's server renderer in Node, through a Vite server of the same configuration, and puts
// it into index.html's #root, in place of the header alone that `vite dev` shows (between
// the <!--first-view--> markers). Runs before the Content-Security-Policy step, which hashes the
// final HTML, and before the offline step, which lists the written files.
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin } from 'vite';

const ROOT = '<div id="root">';
const END = '<!--/first-view-->';

/** `html` with #root holding `view` and nothing else (no marker, no whitespace: hydration
 *  meets exactly what the server rendered). #root's placeholder must end with the marker. */
export function withFirstView(html: string, view: string): string {
  const start = html.indexOf(ROOT);
  const marker = html.indexOf(END, start);
  const close = /^\s*<\/div>/.exec(html.slice(marker + END.length));
  if (start < 0 || marker < 0 || !close) {
    throw new Error(`index.html has no ${ROOT}…${END}</div> to put the first view in`);
  }
  return (
    html.slice(0, start + ROOT.length) + view + html.slice(marker + END.length + close[0].length - '</div>'.length)
  );
}

export function prerenderFirstView(configFile: string): Plugin {
  return {
    name: 'cwndlab:prerender',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const server = await createServer({
          configFile,
          server: { middlewareMode: true, hmr: false, watch: null },
          appType: 'custom',
          logLevel: 'error',
        });
        try {
          const entry = fileURLToPath(new URL('./firstView.tsx', import.meta.url));
          const module = (await server.ssrLoadModule(entry)) as { renderFirstView(): string };
          return withFirstView(html, module.renderFirstView());
        } finally {
          await server.close();
        }
      },
    },
  };
}
